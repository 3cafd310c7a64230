// Context compaction, pure. Three stages, tried in this order and each only when the
// assembled request is over the size threshold:
//   1. large tool outputs in older steps → a short preview + a reference (the original stays in the
//      journal and is read back, paged, with the core tool read_result);
//   2. older steps up to the last one that finished a checklist step → one result paragraph built
//      from the checklist (what was delivered, with its evidence) and the user's words in them;
//   3. only then a summary of the older steps (written by the small model, or extractively offline).
// Every decision is a persisted row (context_summaries) applied from its `atStep` on, so the
// request for step k is a pure function of the journal, the inbox and the rows with atStep ≤ k:
// replay rebuilds it byte for byte. Rows are never rewritten; the sequence only grows. A compaction
// changes the request's prefix, so it is also the only point where the visible tool set may change
// (tool-phase.ts): both invalidate the provider's prompt cache at the same boundary, once.
import type { Checklist } from './checklist.ts';
import type { Decision, HistoryInbox, HistoryNotice, HistoryStep } from './history.ts';

export type CompactionStage = 1 | 2 | 3;

export type CompactionRecord = {
  version: number;
  stage: CompactionStage;
  /** Step ordinals (position in the task's execution order, across turns), inclusive. */
  fromStep: number;
  toStep: number;
  /** First step ordinal whose request applies this row. */
  atStep: number;
  text: string;
};

export type ContextOptions = {
  /** Compaction starts when the assembled request exceeds this many characters (≈ 4 chars/token). */
  compactAtChars: number;
  /** The most recent steps are never compacted. */
  keepRecentSteps: number;
  /** Stage 1 elides tool outputs longer than this (characters of the rendered result). */
  largeResultChars: number;
  /** Characters of an elided output kept as its preview. */
  previewChars: number;
  /** Upper bound of one stage-3 summary. */
  summaryChars: number;
  /**
   * Once started, compaction goes on (next stage) until the request is below this share of
   * compactAtChars: the hysteresis keeps compactions — each a new prefix — rare.
   */
  compactToRatio: number;
};

export const DEFAULT_CONTEXT_OPTIONS: ContextOptions = {
  compactAtChars: 40_000,
  keepRecentSteps: 6,
  largeResultChars: 1_500,
  previewChars: 200,
  summaryChars: 2_400,
  compactToRatio: 0.5,
};

/** An elided output as the model sees it: enough to decide whether to read the original. */
export type ElidedResult = { elided: true; callId: string; chars: number; preview: string; read: string };

type Call = HistoryStep['toolCalls'][number] & { id?: string };

/**
 * A stage-3 summary stops applying after a user REVISE consumed at or after the step it was made
 * for: the correction may contradict it (we cannot tell which sentences it contradicts, so the
 * simplest sound rule drops the whole summary). The covered steps show again until the threshold
 * asks for a new summary, which then sees the correction. Returns the first ordinal it no longer
 * applies to, or null.
 */
export function supersededAt(r: CompactionRecord, reviseOrdinals: readonly number[]): number | null {
  if (r.stage !== 3) return null;
  const hits = reviseOrdinals.filter((o) => o >= r.atStep);
  return hits.length ? Math.min(...hits) + 1 : null;
}

export function activeRecords(records: readonly CompactionRecord[], k: number, reviseOrdinals: readonly number[]): CompactionRecord[] {
  return records
    .filter((r) => r.atStep <= k)
    .filter((r) => {
      const s = supersededAt(r, reviseOrdinals);
      return s === null || s > k;
    })
    .sort((a, b) => a.version - b.version);
}

export type CompactedView = {
  /** Steps still shown as messages (stage-1 elisions applied). */
  steps: HistoryStep[];
  /** Summary layer, oldest first: stage-2 paragraphs and stage-3 summaries still in force. */
  summaries: string[];
  /** Ordinals hidden behind a summary or paragraph. */
  hidden: Set<number>;
};

function resultChars(c: Call): number {
  return c.status === 'DONE' || c.status === 'OUTCOME_UNKNOWN' ? JSON.stringify(c.result ?? null).length : (c.error ?? '').length;
}

function elide(c: Call, previewChars: number): Call {
  const raw = c.status === 'DONE' || c.status === 'OUTCOME_UNKNOWN' ? JSON.stringify(c.result ?? null) : (c.error ?? '');
  const e: ElidedResult = {
    elided: true,
    callId: c.id ?? c.modelCallId,
    chars: raw.length,
    preview: raw.slice(0, previewChars),
    read: 'read_result({ callId, offset, limit }) returns the original',
  };
  return c.status === 'FAILED' ? { ...c, error: JSON.stringify(e) } : { ...c, result: e };
}

/** Pure: what of the history the request shows at step ordinal k, given the rows in force. */
export function compactView(steps: readonly HistoryStep[], records: readonly CompactionRecord[], k: number, reviseOrdinals: readonly number[], opts: ContextOptions): CompactedView {
  const active = activeRecords(records, k, reviseOrdinals);
  const owner = new Map<number, CompactionRecord>();
  // Stage 3 wins over stage 2 for a step; among one stage the newest row wins.
  for (const stage of [2, 3] as const) for (const r of active.filter((x) => x.stage === stage)) for (let o = r.fromStep; o <= r.toStep; o++) owner.set(o, r);
  const stage1 = active.filter((r) => r.stage === 1);
  const shown: HistoryStep[] = [];
  steps.forEach((s, o) => {
    if (owner.has(o)) return;
    const r = stage1.find((x) => x.fromStep <= o && o <= x.toStep);
    if (r) {
      // The row carries its own thresholds, so a later change of options never changes old requests.
      const p = stage1Params(r, opts);
      shown.push({ ...s, toolCalls: s.toolCalls.map((c) => (resultChars(c) > p.largeResultChars ? elide(c, p.previewChars) : c)) });
    } else shown.push(s);
  });
  const owners = [...new Set(owner.values())].sort((a, b) => a.version - b.version);
  return {
    steps: shown,
    summaries: owners.map((r) => r.text).filter(Boolean),
    hidden: new Set(owner.keys()),
  };
}

export function stage1Params(r: CompactionRecord, opts: ContextOptions): { largeResultChars: number; previewChars: number } {
  try {
    const p = JSON.parse(r.text) as { largeResultChars?: number; previewChars?: number };
    return { largeResultChars: p.largeResultChars ?? opts.largeResultChars, previewChars: p.previewChars ?? opts.previewChars };
  } catch {
    return opts;
  }
}

/** The next compaction to make, or null (nothing left to compact at this size). */
export type PlannedCompaction = { stage: CompactionStage; fromStep: number; toStep: number; text?: string };

/**
 * Pure: given the request size now, which stage comes next. `n` is the ordinal of the step about to
 * be decided; steps [n - keepRecentSteps, n) stay as they are.
 */
export function planCompaction(args: {
  chars: number;
  steps: readonly HistoryStep[];
  records: readonly CompactionRecord[];
  reviseOrdinals: readonly number[];
  checklist: Checklist | null;
  opts: ContextOptions;
}): PlannedCompaction | null {
  const { chars, steps, records, reviseOrdinals, opts } = args;
  if (chars <= opts.compactAtChars) return null;
  const n = steps.length;
  const end = n - opts.keepRecentSteps - 1;
  if (end < 0) return null;
  const active = activeRecords(records, n, reviseOrdinals);
  // Stage 1: large outputs not yet elided.
  const elided = Math.max(-1, ...active.filter((r) => r.stage === 1).map((r) => r.toStep));
  const view = compactView(steps, records, n, reviseOrdinals, opts);
  if (elided < end) {
    const large = steps.slice(elided + 1, end + 1).some((s, i) => !view.hidden.has(elided + 1 + i) && s.toolCalls.some((c) => resultChars(c) > opts.largeResultChars));
    if (large) return { stage: 1, fromStep: elided + 1, toStep: end, text: JSON.stringify({ largeResultChars: opts.largeResultChars, previewChars: opts.previewChars }) };
  }
  // The first step not behind a summary or paragraph.
  let start = 0;
  while (start <= end && view.hidden.has(start)) start++;
  if (start > end) return null;
  // Stage 2: up to the last step (≤ end) that finished a checklist step.
  let lastFinish = -1;
  for (let o = start; o <= end; o++) {
    const calls = steps[o]!.toolCalls;
    if (calls.some((c) => c.name === 'update_checklist' && c.status === 'DONE' && /"status":"(DONE|SKIPPED)"/.test(JSON.stringify(c.result ?? '')))) lastFinish = o;
  }
  const hasStage2Since = active.some((r) => r.stage === 2 && r.toStep >= lastFinish);
  if (lastFinish >= start && !hasStage2Since && args.checklist?.items.some((i) => i.status === 'DONE' || i.status === 'SKIPPED')) {
    return { stage: 2, fromStep: start, toStep: lastFinish, text: checklistParagraph(args.checklist, steps.slice(start, lastFinish + 1), start, lastFinish) };
  }
  // Stage 3: a summary of the older steps (at least two, or it saves nothing).
  if (end - start >= 1) return { stage: 3, fromStep: start, toStep: end };
  return null;
}

function userWords(steps: readonly HistoryStep[], inbox: readonly HistoryInbox[]): string[] {
  const keys = new Set(steps.map((s) => `${s.turnId}:${s.index}`));
  return inbox.filter((i) => i.consumedTurnId && keys.has(`${i.consumedTurnId}:${i.consumedStep}`) && i.text).map((i) => `${i.signal ?? 'message'}: "${oneLine(i.text!, 240)}"`);
}

function oneLine(s: string, max: number): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}

function callCounts(steps: readonly HistoryStep[]): string {
  const counts = new Map<string, number>();
  for (const s of steps) for (const c of s.toolCalls) counts.set(`${c.name}(${c.status})`, (counts.get(`${c.name}(${c.status})`) ?? 0) + 1);
  return [...counts].map(([k, v]) => `${k}×${v}`).join(', ');
}

/** Stage 2's paragraph: the finished checklist steps with their evidence and results. */
export function checklistParagraph(checklist: Checklist, steps: readonly HistoryStep[], from: number, to: number): string {
  const done = checklist.items.filter((i) => i.status === 'DONE' || i.status === 'SKIPPED');
  const lines = done.map((i) => {
    const arts = (i.artifacts ?? []) as unknown[];
    const results = arts.length ? `; results: ${arts.slice(0, 6).map((a) => (typeof a === 'string' ? a : JSON.stringify(a))).join(', ')}` : '';
    return `${i.title} — ${i.status}${i.evidence ? `: ${oneLine(i.evidence, 200)}` : ''}${results}`;
  });
  return `[finished checklist steps, steps ${from + 1}–${to + 1}] ${lines.join(' | ')}. Calls in these steps: ${callCounts(steps) || 'none'}.`;
}

/**
 * The offline stand-in for a model-written summary: extractive and deterministic (user words,
 * the agent's statements, call counts), cut to `max` characters.
 */
export function extractiveSummary(steps: readonly HistoryStep[], inbox: readonly HistoryInbox[], notices: readonly HistoryNotice[], from: number, to: number, max: number): string {
  const head = `[summary of steps ${from + 1}–${to + 1}]`;
  const said = userWords(steps, inbox);
  const keys = new Set(steps.map((s) => `${s.turnId}:${s.index}`));
  const changed = notices.filter((x) => x.consumedTurnId && keys.has(`${x.consumedTurnId}:${x.consumedStep}`)).map((x) => `"${x.objectName}" v${x.toVersion}`);
  const agent = steps.map((s) => (s.decision as Decision).content).filter((c) => c && c.trim()).map((c) => oneLine(c, 160));
  const uniqueAgent = [...new Set(agent)];
  const parts = [
    said.length ? `The user: ${said.join(' ')}` : '',
    changed.length ? `Workspace changes seen: ${[...new Set(changed)].join(', ')}.` : '',
    uniqueAgent.length ? `The agent: ${uniqueAgent.slice(0, 4).join(' / ')}${uniqueAgent.length > 4 ? ` / … / ${uniqueAgent.at(-1)}` : ''}` : '',
    `Calls: ${callCounts(steps) || 'none'}.`,
  ].filter(Boolean);
  const text = `${head} ${parts.join(' ')}`;
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** The instruction for a model-written stage-3 summary (the small model). */
export function summaryPrompt(transcript: string, from: number, to: number): string {
  return (
    `Summarise steps ${from + 1}–${to + 1} of a creative task for the agent that continues it. ` +
    'Keep: what the user asked and corrected (later corrections win), decisions taken, objects and results produced (with ids), what failed. ' +
    `Plain prose, at most 250 words. Start with "[summary of steps ${from + 1}–${to + 1}]".\n\n${transcript}`
  );
}
