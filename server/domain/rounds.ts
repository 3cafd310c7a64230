// Iterating on finished work (pure). A task is one round of a line of work: a change asked for after
// a round ended ("make the second poster warmer", days after the series was delivered) starts the
// next round — a new task that points at the round it continues — so every round keeps its one
// terminal state and its own log. The next round inherits what the earlier rounds were and made:
// their briefs, outcomes, decisions, checklist results and object references, frozen when it is
// created (`tasks.inherited`, also in its TASK_CREATED event so replay renders the same request).
// The worker reads them as the "[earlier rounds]" part of the stable prefix of every request.
import type { ForkRecord } from './forks.ts';

/** A checklist step of an earlier round; `id` is its checklist id (stable whatever the title's language). */
export type RoundItem = { id: string; title: string; kind: string; count: number; status: string; results: string[]; evidence: string | null };
export type RoundDecision = { kind: string; title: string; status: string; choice: string | null; note: string | null };
export type RoundObject = { id: string; kind: string; name: string; version: number };

/** One earlier round as the next one knows it. */
export type RoundRecord = {
  round: number;
  taskId: string;
  title: string;
  goal: string;
  status: string;
  statusReason: string | null;
  /** The delivery (or what was said when it ended). */
  summary: string;
  language: string | null;
  archived: boolean;
  checklist: RoundItem[];
  decisions: RoundDecision[];
  objects: RoundObject[];
};

/**
 * What a next round inherits: every earlier round of its line, oldest first. A fork (domain/forks.ts)
 * inherits the same from the task it was forked from, and `fork`: where it came from.
 */
export type RoundsContext = { lineId: string; rounds: RoundRecord[]; fork?: ForkRecord };

/** Bounds that keep the inherited part of every request small however long a line grows. */
export const ROUND_LIMITS = { fullRounds: 4, items: 30, decisions: 12, objects: 40, text: 600, evidence: 200 } as const;

const clip = (s: string | null | undefined, n: number) => {
  const one = (s ?? '').replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

/**
 * The context of the round after `previous`: the rounds `previous` inherited, then `previous`
 * itself. Rounds older than the last ROUND_LIMITS.fullRounds keep their outcome and results but
 * lose decisions, evidence and object lists.
 */
export function nextRoundsContext(inherited: RoundsContext | null, previous: RoundRecord, lineId: string): RoundsContext {
  const rounds = [...(inherited?.rounds ?? []), bounded(previous)];
  const cut = rounds.length - ROUND_LIMITS.fullRounds;
  return {
    lineId,
    rounds: rounds.map((r, k) => (k < cut ? { ...r, decisions: [], objects: [], checklist: r.checklist.map((i) => ({ ...i, evidence: null })) } : r)),
  };
}

function bounded(r: RoundRecord): RoundRecord {
  return {
    ...r,
    title: clip(r.title, 200),
    goal: clip(r.goal, ROUND_LIMITS.text),
    summary: clip(r.summary, ROUND_LIMITS.text),
    statusReason: r.statusReason ? clip(r.statusReason, 200) : null,
    checklist: r.checklist.slice(0, ROUND_LIMITS.items).map((i) => ({ ...i, title: clip(i.title, 200), evidence: i.evidence ? clip(i.evidence, ROUND_LIMITS.evidence) : null })),
    decisions: r.decisions.slice(-ROUND_LIMITS.decisions).map((d) => ({ ...d, title: clip(d.title, 200), note: d.note ? clip(d.note, 200) : null })),
    objects: r.objects.slice(0, ROUND_LIMITS.objects).map((o) => ({ ...o, name: clip(o.name, 120) })),
  };
}

/** A checklist line of an earlier round; the offline model parses this format (models/offline/rounds.ts). */
export function renderRoundItem(i: RoundItem, n: number): string {
  return (
    `${n}. [${i.status}] ${i.title} (id ${i.id}, ${i.kind}${i.count > 1 ? ` ×${i.count}` : ''})` +
    (i.results.length ? ` results: ${i.results.join(', ')}` : '') +
    (i.evidence ? ` — ${i.evidence}` : '')
  );
}

const ENDED = new Set(['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED']);

/**
 * The "[earlier rounds]" block of a next round's requests. Stable (no timestamps), so it sits in
 * the cacheable prefix right after the task brief.
 */
export function renderEarlierRounds(ctx: RoundsContext | null | undefined): string | null {
  if (!ctx?.rounds.length) return null;
  const round = ctx.rounds.at(-1)!.round + 1;
  const lines = [
    `[earlier rounds] This task is round ${round} of a line of work and continues the ${ctx.rounds.length === 1 ? 'round' : 'rounds'} below. ` +
      "Plan and make only what this round's request changes or adds; do not redo earlier work. Earlier results stay as they are and can be used as references (referenceId).",
  ];
  for (const r of ctx.rounds) {
    const how = ENDED.has(r.status) ? r.status : `${r.status}, archived`;
    lines.push(`Round ${r.round} (task ${r.taskId}): ${how}${r.statusReason ? ` (${r.statusReason})` : ''} — asked: “${r.goal || r.title}”`);
    if (r.summary) lines.push(`Delivered: ${r.summary}`);
    if (r.decisions.length) {
      lines.push(
        `Decisions: ${r.decisions
          .map((d) => `${d.kind.toLowerCase()} “${d.title}”: ${d.status.toLowerCase()}${d.choice ? `, chose “${d.choice}”` : ''}${d.note ? ` (${d.note})` : ''}`)
          .join('; ')}`,
      );
    }
    if (r.checklist.length) lines.push('Checklist:', ...r.checklist.map((i, n) => renderRoundItem(i, n + 1)));
    const open = r.checklist.filter((i) => i.status === 'TODO' || i.status === 'IN_PROGRESS' || i.status === 'BLOCKED');
    if (r.status !== 'COMPLETED' && open.length) lines.push(`Unfinished when it ended: ${open.map((i) => i.title).join(', ')}`);
    if (r.objects.length) lines.push(`Objects: ${r.objects.map((o) => `object:${o.id} “${o.name}” (${o.kind} v${o.version})`).join('; ')}`);
  }
  return lines.join('\n');
}

/** The title of a next round: the line's own (the list shows a line once, under its latest round). */
export const roundTitle = (previous: { title: string }) => previous.title;
