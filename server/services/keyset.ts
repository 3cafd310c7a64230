// Opaque keyset cursors over (createdAt, id), shared by the connections ordered that way. Opaque in
// fact, not only by convention: base64url of "k1:<time>|<key>", so a client never reads a raw row key
// out of one (every id it sees is a global id) nor builds one by hand.
import { badInput } from '../errors.ts';

export type Keyset = { createdAt: Date; id: string };

const PREFIX = 'k1:';

export const encodeKeyset = (row: Keyset): string => Buffer.from(`${PREFIX}${row.createdAt.toISOString()}|${row.id}`, 'utf8').toString('base64url');

// Exactly what encodeKeyset writes: toISOString() of a date PostgreSQL can store, and a uuid. A
// looser parse lets through dates like year -271821 or ids like 36 dashes, which the driver rejects.
const KEYSET = /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z)\|([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/;

/** The text inside a cursor, or '' when it is no cursor of ours (garbage never reaches the pattern as text). */
function unwrap(cursor: string): string {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) return '';
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  return text.startsWith(PREFIX) && Buffer.from(text, 'utf8').toString('base64url') === cursor ? text.slice(PREFIX.length) : '';
}

export function decodeKeyset(cursor: string, argument = 'after'): Keyset {
  const m = KEYSET.exec(unwrap(cursor));
  const createdAt = m ? new Date(m[1]!) : null;
  // The round trip also refuses impossible dates (2024-02-30) that Date would silently roll over;
  // PostgreSQL has no year 0.
  if (!m || !createdAt || Number.isNaN(createdAt.getTime()) || createdAt.toISOString() !== m[1] || createdAt.getUTCFullYear() < 1) {
    throw badInput(`${argument} is not a cursor of this list`, { argument });
  }
  return { createdAt, id: m[2]! };
}

/** Prisma filters for rows strictly after / before a keyset position in ascending order. */
export const afterKeyset = (c: Keyset) => ({
  OR: [{ createdAt: { gt: c.createdAt } }, { createdAt: c.createdAt, id: { gt: c.id } }],
});
export const beforeKeyset = (c: Keyset) => ({
  OR: [{ createdAt: { lt: c.createdAt } }, { createdAt: c.createdAt, id: { lt: c.id } }],
});
