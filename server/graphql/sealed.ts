// Sealed content as a field reads it: opened with the request's data-key loader (one query per
// request for every key a response needs), or the withheld marker once forgetting destroyed the key.
import { openValue, sealedKeyIds, type KnownKey, type Opened } from '../domain/sealing.ts';
import type { Context } from './context.ts';

export async function openForRequest<T>(ctx: Pick<Context, 'loaders'>, value: T): Promise<Opened<T>> {
  const ids = [...sealedKeyIds(value)];
  if (!ids.length) return { value, withheld: null };
  const loaded = await ctx.loaders.dataKey.loadMany(ids);
  const keys = new Map<string, KnownKey>(ids.map((id, i) => {
    const k = loaded[i];
    return [id, k instanceof Error || !k ? { material: null, reason: 'FORGOTTEN' } : k];
  }));
  return openValue(keys, value);
}
