// Shared by the batch loads behind the API's per-request loaders: a batch answers one result per
// key, in key order, null for a miss; ids that are not uuids never reach the database (the driver
// would refuse them with an error instead of a miss).
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const uuidsOf = (ids: readonly string[]): string[] => ids.filter((id) => UUID.test(id));

export function inKeyOrder<T extends { id: string }>(ids: readonly string[], rows: T[]): (T | null)[] {
  const m = new Map(rows.map((r) => [r.id, r]));
  return ids.map((id) => m.get(id) ?? null);
}
