// A fork as the offline model reads it: the "[forked from]" block of the request (domain/forks.ts
// renderForkedFrom writes it; this parser follows that format). What it needs from it: the
// direction the fork takes from its step, and the pick the work goes on in (the fork's own, or the
// one it kept from before the fork point).

export type ForkedFrom = { atStep: number; edit: string; picks: { stepId: string; label: string; objectId: string | null }[] };

/** The fork of the request's "[forked from]" block, or null when there is none. */
export function parseForkedFrom(text: string): ForkedFrom | null {
  if (!text.startsWith('[forked from]')) return null;
  const direction = text.match(/^Direction from step (\d+): “([\s\S]*?)”$/m);
  if (!direction) return null;
  const picks = [...text.matchAll(/^Pick at step “.*?” \(id ([^)]+)\): “(.*?)”(?: \(object:([0-9a-f-]{36})\))?/gm)].map((m) => ({ stepId: m[1]!, label: m[2]!, objectId: m[3] ?? null }));
  return { atStep: Number(direction[1]), edit: direction[2]!, picks };
}
