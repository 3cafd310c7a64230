// The plan's graph as the task panel shows it: pure, so it is tested without a browser too.

/**
 * How deep each step sits in the plan's graph (0: uses no other step; else one more than the
 * deepest step it uses), for the indented list a phone shows instead of a drawing.
 */
export function stepDepths(items: readonly { id: string; after?: readonly string[] | undefined }[]): Map<string, number> {
  const byId = new Map(items.map((i) => [i.id, i]));
  const depth = new Map<string, number>();
  const visit = (id: string, seen: Set<string>): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const item = byId.get(id);
    if (!item || seen.has(id)) return 0; // a step not in the list, or a circle (the server refuses both)
    seen.add(id);
    const d = (item.after ?? []).reduce((m, a) => Math.max(m, byId.has(a) ? visit(a, seen) + 1 : 0), 0);
    depth.set(id, d);
    return d;
  };
  for (const i of items) visit(i.id, new Set());
  return depth;
}
