// The continuation decision: after every turn the runtime — not the fact
// that the model stopped talking — decides from persisted state whether the task goes on. Pure;
// runtime/turn-end.ts gathers the inputs in the turn's final transaction and applies the result, and every
// decision is recorded as a CONTINUATION_DECIDED event with its reason.
import { allFinished, openItems, type ChecklistItem } from './checklist.ts';
import { textsFor } from './replies/texts.ts';

export type ContinuationInput = {
  /** The model's last words in the turn (its answer when it called no tool). */
  modelText: string;
  checklist: ChecklistItem[] | null;
  pendingJobs: number;
  pendingApprovals: number;
  /** Follow-ups the agent asked for that have not woken it yet (absent: none). */
  pendingFollowUps?: number;
  turns: number;
  maxTurns: number;
  /** Whether this turn made meaningful progress: a new result, a finished step or a new job. */
  progressed: boolean;
  /** Consecutive idle turns before this one. */
  idleTurns: number;
  maxIdleTurns: number;
  /** The turn ended because it hit the step limit, not because the model stopped. */
  stepLimitHit: boolean;
  /** The task's language: the delivery is written in it (English when unknown). */
  language?: string | null;
};

export type Continuation =
  | { kind: 'complete'; reason: string; summary: string }
  | { kind: 'suspend'; reason: string }
  | { kind: 'card'; reason: string; prompt: string }
  | { kind: 'stop'; reason: string; how: 'pause' | 'fail' }
  | { kind: 'next'; reason: string };

// Prose that asks the user to decide (en, de, fr, es, zh). A question mark alone is not enough:
// "Here is what I did — anything else?" is not a checkpoint; "Shall I go on?" is.
const ASKS = [
  /\b(please|kindly) (confirm|approve|let me know|choose|pick|select)\b/i,
  /\b(shall|should|may|can) i (go ahead|proceed|continue|start|generate|render|move on)\b/i,
  /\b(do you want|would you like) me to\b/i,
  /\bwhich (one|option|version|variant|direction)\b.*\?/i,
  /\b(waiting|wait) for your (confirmation|approval|choice|go-ahead)\b/i,
  /\bbitte (bestätige|bestätigen|wähle|wählen|gib bescheid)\b/i,
  /\b(soll ich|darf ich)\b.*\?/i,
  /\b(veuillez confirmer|dois-je|voulez-vous que je)\b/i,
  /\b(confirma|¿quieres que|¿procedo)\b/i,
  /(请确认|是否继续|要不要|请选择)/,
];

export function asksForConfirmation(text: string): boolean {
  return ASKS.some((r) => r.test(text));
}

/**
 * The steps whose results are what was delivered: every finished step with results, except a
 * checkpoint (its result is the pick) and the candidates a checkpoint right after chose among.
 * When nothing else is left (the candidates were the work), every finished step with results.
 */
export function deliveredSteps(items: readonly ChecklistItem[]): ChecklistItem[] {
  const made = items.filter((i) => i.status === 'DONE' && i.artifacts.length > 0 && i.kind !== 'CHECKPOINT');
  const finals = made.filter((i) => {
    const next = items[items.indexOf(i) + 1];
    return !(i.count > 1 && next?.kind === 'CHECKPOINT');
  });
  return finals.length ? finals : made;
}

/** A result as the delivery names it: a step's title, numbered when the step made several. */
export function deliveredNames(items: readonly ChecklistItem[]): { label: string; ref: string }[] {
  return deliveredSteps(items).flatMap((i) => i.artifacts.map((ref, k) => ({ label: i.artifacts.length > 1 ? `${i.title} ${k + 1}` : i.title, ref })));
}

const RESULT_REF = /\b(?:job|object):[0-9a-f-]{36}\b/;

/**
 * The delivery, short and in the task's language: "Delivered: Poster 1, Poster 2, Poster 3", each
 * name a link to its result (`[Poster 1](object:<id>)`, Markdown, so any client can render or read
 * it); then the model's own words when they say more than a list of results; then skipped steps.
 */
export function deliverySummary(items: readonly ChecklistItem[], modelText: string, language?: string | null): string {
  const t = textsFor(language);
  const skipped = items.filter((i) => i.status === 'SKIPPED');
  const named = deliveredNames(items);
  const link = (label: string, ref: string) => `[${label.replace(/[[\]]/g, '')}](${ref})`;
  // The direction a person picked, named as its card named it ("Candidate B").
  const pick = items.find((i) => i.kind === 'CHECKPOINT' && i.status === 'DONE' && i.artifacts.length);
  const among = pick ? items.slice(0, items.indexOf(pick)).reverse().find((i) => i.artifacts.includes(pick.artifacts[0]!)) : undefined;
  const look = pick && among ? t.offline.inTheLookOf(link(t.offline.candidate(among.artifacts.indexOf(pick.artifacts[0]!) + 1), pick.artifacts[0]!)) : '';
  const head = named.length ? `${t.offline.deliveredList(named.map((n) => link(n.label, n.ref)).join(', '))}${look}` : t.deliveredFallback;
  // The model's words, without a leading tag; a list of results or a bare "Delivered" repeats the head.
  const said = modelText.trim().replace(/^\[[^\]]*\]\s*/, '').trim();
  const prefix = t.offline.deliveredList('').trim();
  const repeats = !said || said === t.deliveredFallback || said.startsWith(prefix) || RESULT_REF.test(said);
  return [
    head,
    ...(repeats ? [] : [said]),
    ...(skipped.length ? [t.skipped(skipped.map((i) => `${i.title} (${i.evidence ?? t.noReason})`).join('; '))] : []),
  ].join('\n');
}

/** Why a task waits when only its follow-ups are left (its status reason says so). */
export const FOLLOW_UP_WAIT = 'waiting for a follow-up the agent scheduled';

export function decideContinuation(s: ContinuationInput): Continuation {
  const list = s.checklist;
  if (list && allFinished(list)) {
    return { kind: 'complete', reason: 'every checklist step is done', summary: deliverySummary(list, s.modelText, s.language) };
  }
  if (!list || list.length === 0) {
    // No plan: a one-off request. The model's answer is the delivery, unless it is a question.
    if (s.pendingJobs > 0) return { kind: 'suspend', reason: 'waiting for a generation job' };
    if (s.pendingApprovals > 0) return { kind: 'suspend', reason: 'waiting for the user to decide' };
    if (asksForConfirmation(s.modelText)) return { kind: 'card', reason: 'the model asked the user in prose', prompt: s.modelText };
    // The agent asked to come back to it later: that is the rest of the work, not a delivery.
    if ((s.pendingFollowUps ?? 0) > 0) return { kind: 'suspend', reason: FOLLOW_UP_WAIT };
    if (!s.stepLimitHit) return { kind: 'complete', reason: 'answered without a plan', summary: s.modelText || textsFor(s.language).deliveredFallback };
  }
  if (s.turns >= s.maxTurns) return { kind: 'stop', how: 'fail', reason: `stopped after ${s.turns} turns without finishing` };
  const open = list ? openItems(list) : [];
  const blocked = list?.filter((i) => i.status === 'BLOCKED') ?? [];
  if (list && open.length === 0 && blocked.length) {
    return { kind: 'stop', how: 'pause', reason: `blocked: ${blocked.map((i) => `${i.title}${i.evidence ? ` (${i.evidence})` : ''}`).join('; ')}` };
  }
  if (s.pendingJobs > 0) return { kind: 'suspend', reason: 'waiting for a generation job' };
  if (s.pendingApprovals > 0) return { kind: 'suspend', reason: 'waiting for the user to decide' };
  if (asksForConfirmation(s.modelText)) return { kind: 'card', reason: 'the model asked the user in prose', prompt: s.modelText };
  // Waiting for a follow-up is not idleness: the task sleeps until it wakes (or a person writes).
  if ((s.pendingFollowUps ?? 0) > 0) return { kind: 'suspend', reason: FOLLOW_UP_WAIT };
  if (!s.progressed && s.idleTurns + 1 >= s.maxIdleTurns) {
    const next = open[0];
    return {
      kind: 'stop',
      how: 'pause',
      reason: `no progress in ${s.idleTurns + 1} turn(s) (no new result, no finished step, no new job)${next ? `; stuck at “${next.title}”` : ''}`,
    };
  }
  return { kind: 'next', reason: s.progressed ? 'progress made; steps remain' : 'steps remain' };
}
