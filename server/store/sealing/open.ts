// Reading sealed content back: one key lookup for everything a read returned, then each sealed
// string opened, or replaced by the WITHHELD marker when its key was destroyed.
import type { Db } from '../../db/client.ts';
import { openValue, sealedKeyIds, type Opened } from '../../domain/sealing.ts';
import { knownKeys } from './keys.ts';

/** Opens many values with one key lookup; values without sealed strings cost no query. */
export async function openAll<T>(db: Db, values: readonly T[]): Promise<Opened<T>[]> {
  const ids = new Set<string>();
  for (const v of values) sealedKeyIds(v, ids);
  if (!ids.size) return values.map((value) => ({ value, withheld: null }));
  const keys = await knownKeys(db, ids);
  return values.map((v) => openValue(keys, v));
}

export async function openOne<T>(db: Db, value: T): Promise<Opened<T>> {
  return (await openAll(db, [value]))[0]!;
}

/** The values opened (withheld parts read as the marker). */
export async function opened<T>(db: Db, values: readonly T[]): Promise<T[]> {
  return (await openAll(db, values)).map((o) => o.value);
}
