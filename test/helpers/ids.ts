export const toGlobalId = (type: string, id: string) => Buffer.from(`${type}:${id}`).toString('base64');
export const fromGlobalId = (gid: string) => {
  const s = Buffer.from(gid, 'base64').toString('utf8');
  const i = s.indexOf(':');
  return { type: s.slice(0, i), id: s.slice(i + 1) };
};
