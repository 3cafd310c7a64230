// The checklist as the offline model reads it: the numbered lines of the "[task state]" block
// (runtime/checklist.ts renderChecklist writes them; this parser must follow that format).

export type Item = { n: number; status: string; title: string; id: string; kind: string; count: number; needsUser: boolean; ordered: number; results: string[]; after: string[]; evidence: string };

/** Parses the checklist lines of the "[task state]" block. */
export function parseChecklist(text: string): Item[] | null {
  if (!text.includes('[checklist v')) return null;
  const items: Item[] = [];
  const re = /^(\d+)\. \[(\w+)\] (.*?) \(id ([^,]+), ([A-Z_0-9]+)(?: ×(\d+))?(, needs the user)?(?:, ordered (\d+))?(?:, after ([^)]+))?\)(?: results: ([^—\n]*))?(?: — ([^\n]*))?/gm;
  for (const m of text.matchAll(re)) {
    items.push({
      n: Number(m[1]),
      status: m[2]!,
      title: m[3]!,
      id: m[4]!,
      kind: m[5]!,
      count: Number(m[6] ?? 1),
      needsUser: !!m[7],
      ordered: Number(m[8] ?? 0),
      after: (m[9] ?? '').split(' ').filter(Boolean),
      evidence: m[11] ?? '',
      results: (m[10] ?? '').split(',').map((r) => r.trim()).filter(Boolean),
    });
  }
  return items;
}
