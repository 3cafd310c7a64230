// Opaque keyset cursors over (createdAt, id), shared by the connections ordered that way.
import { badInput } from '../errors.ts';

export type Keyset = { createdAt: Date; id: string };

export const encodeKeyset = (row: Keyset): string => `${row.createdAt.toISOString()}|${row.id}`;

export function decodeKeyset(cursor: string): Keyset {
  const [iso, id] = cursor.split('|');
  const createdAt = new Date(iso ?? '');
  if (!id || !/^[0-9a-f-]{36}$/.test(id) || Number.isNaN(createdAt.getTime())) throw badInput('Invalid cursor');
  return { createdAt, id };
}

/** Prisma filters for rows strictly after / before a keyset position in ascending order. */
export const afterKeyset = (c: Keyset) => ({
  OR: [{ createdAt: { gt: c.createdAt } }, { createdAt: c.createdAt, id: { gt: c.id } }],
});
export const beforeKeyset = (c: Keyset) => ({
  OR: [{ createdAt: { lt: c.createdAt } }, { createdAt: c.createdAt, id: { lt: c.id } }],
});
