// Pure rendering of a task's persisted history into the worker's model input, in layers ordered by
// volatility so that each request starts with the longest possible unchanged prefix of the previous
// one (what providers cache):
//   1. stable prefix: system rules (+ the tool definitions, bound separately), the memory profile
//      snapshot, capabilities and guides, the task brief and, on a next round of a line of work, the
//      earlier rounds (on a fork, where it was forked from) — no timestamps, ids of this call or
//      other volatile values;
//   2. summaries of older history (compaction.ts: stage-2 paragraphs, stage-3 summaries);
//   3. the steps since: decisions and tool results, with the inbox items and change notices each
//      step consumed (large outputs of older steps elided, stage 1);
//   4. this step's inputs: fresh inbox items and change notices;
//   5. the dynamic tail "[task state]": checklist, budget, pending approvals, waiting jobs.
// Layers 1–3 change only by appending, except at a compaction (a new segment). Nothing here reads the
// database: the engine and replay render the same inputs to the same request.
import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { createHash } from 'node:crypto';
import { canonicalJson } from '../../channel/payload.ts';
import { LANGUAGE_NAMES, type LanguageCode } from '../../domain/language.ts';
import type { Decision, HistoryInbox, HistoryNotice, HistoryStep } from '../../domain/history.ts';
import { renderChecklist, type Checklist } from '../../domain/checklist.ts';
import { renderEarlierRounds, type RoundsContext } from '../../domain/rounds.ts';
import { renderForkedFrom } from '../../domain/forks.ts';
import { compactView, DEFAULT_CONTEXT_OPTIONS, type CompactionRecord, type ContextOptions } from '../../domain/compaction.ts';
import { relevantGuides } from '../capabilities.ts';
import type { TaskState } from '../task-state.ts';
import { WORKER_SYSTEM_PROMPT } from './prompt.ts';

/** What a request's brief is rendered from; `inherited` only on a next round of a line of work. */
export type TaskBrief = { title: string; goal: string; language: string | null; inherited?: RoundsContext | null };

/** State that changes while the task runs; sent as the last message of each request (cache-friendly). */
export type TaskDynamics = {
  checklist: Checklist | null;
  /** From the task's event fold (task-state.ts), so replay derives the same tail. */
  approvalsPending?: { title: string; quoteCents: number | null }[];
  jobsWaiting?: number;
  limits?: { budgetCapCents?: number | null; approvedBudgetCents?: number | null };
};

/** Stable per task: what the platform can do, and the guides relevant to the task's words. */
export type TaskKnowledge = {
  capabilities: string | null;
  /** Long-term memory: profile and relevant memories with citations, if any. */
  memorySection?: string | null;
};

export function renderTaskState(d: TaskDynamics): string {
  const lines = ['[task state]', d.checklist ? renderChecklist(d.checklist) : '[checklist] none yet'];
  const estimate = d.checklist?.items.reduce((n, i) => n + (i.estimateCents ?? 0), 0) ?? 0;
  const budget = [
    estimate ? `plan estimate ${estimate}¢` : '',
    d.limits?.approvedBudgetCents != null ? `approved budget ${d.limits.approvedBudgetCents}¢` : '',
    d.limits?.budgetCapCents != null ? `cap ${d.limits.budgetCapCents}¢` : '',
  ].filter(Boolean);
  if (budget.length) lines.push(`[budget] ${budget.join('; ')}`);
  if (d.approvalsPending?.length) {
    lines.push(`[approvals pending] ${d.approvalsPending.map((a) => `"${a.title}"${a.quoteCents != null ? ` (${a.quoteCents}¢)` : ''}`).join(', ')} — a person decides; do not repeat the action meanwhile`);
  }
  if (d.jobsWaiting) lines.push(`[generation jobs running] ${d.jobsWaiting}`);
  return lines.join('\n');
}

/** The tail's inputs from a task-state fold. */
export function dynamicsOf(state: TaskState): TaskDynamics {
  return {
    checklist: (state.checklist as Checklist | null | undefined) ?? null,
    approvalsPending: Object.keys(state.approvalsPending ?? {})
      .sort()
      .map((k) => state.approvalsPending![k]!),
    jobsWaiting: state.jobsWaiting?.length ?? 0,
    limits: state.limits,
  };
}

function knowledgeMessage(task: { title: string; goal: string }, d: TaskDynamics, k: TaskKnowledge): SystemMessage | null {
  const words = [task.title, task.goal, ...(d.checklist?.items.map((i) => i.title) ?? [])].join(' ');
  const guides = relevantGuides(words);
  const parts = [k.capabilities, ...guides.map((g) => `[guide: ${g.title}] ${g.text}`)].filter((x): x is string => !!x);
  return parts.length ? new SystemMessage(parts.join('\n\n')) : null;
}

function inboxMessage(i: HistoryInbox): HumanMessage {
  const label =
    i.signal === 'JOB_RESULT'
      ? '[generation result]'
      : i.signal === 'FOLLOW_UP'
        ? '[your follow-up]'
        : i.kind === 'SIGNAL'
          ? `[${i.signal?.toLowerCase().replace('_', ' ')} from the user]`
          : '[message from the user]';
  return new HumanMessage(`${label} ${i.text ?? ''}`.trim());
}

/** A call's answer as the model reads it; a call with no outcome yet reads NOT_RUN. */
/** A call a ROLLBACK skipped: dropped from what the model reads (an INTERRUPT's stay, marked SKIPPED). */
export const isRolledBack = (c: { status: string; result: unknown }): boolean => c.status === 'SKIPPED' && (c.result as { rolledBack?: unknown } | null)?.rolledBack === true;

export function toolResultContent(call: { status: string; result: unknown; error: string | null }): string {
  if (call.status === 'DONE') return canonicalJson({ status: 'DONE', result: call.result });
  if (call.status === 'FAILED') return canonicalJson({ status: 'FAILED', error: call.error });
  if (call.status === 'OUTCOME_UNKNOWN') return canonicalJson({ status: 'OUTCOME_UNKNOWN', detail: call.result });
  if (call.status === 'SKIPPED') return canonicalJson({ status: 'SKIPPED', reason: (call.result as { reason?: unknown } | null)?.reason ?? 'Not run.' });
  return canonicalJson({ status: 'NOT_RUN' });
}

/** One message per object (several notices for one object read as one range "v3 → v5"). */
function noticeMessages(notices: HistoryNotice[]): HumanMessage[] {
  const byObject = new Map<string, HistoryNotice[]>();
  for (const n of notices) byObject.set(n.objectId, [...(byObject.get(n.objectId) ?? []), n]);
  return [...byObject.values()].map((ns) => {
    const first = ns[0]!;
    const last = ns.at(-1)!;
    const who = [...new Set(ns.map((n) => (n.authorKind === 'USER' ? 'a person' : n.authorKind === 'AGENT' ? 'another task' : 'the system')))].join(' and ');
    const what = ns.map((n) => `v${n.toVersion}: ${n.summary}`).join('; ');
    return new HumanMessage(
      `[workspace change] "${last.objectName}" (object ${first.objectId}) was updated from v${first.fromVersion} to v${last.toVersion} by ${who} (${what}). ` +
        'Read the latest version before continuing with it.',
    );
  });
}

/**
 * Pure: the model input for the next step, from the task brief, the steps so far (in order) and
 * the inbox. Items consumed by an earlier step sit before that step's decision; `fresh` items are
 * appended at the end (the new step consumes them). Replay calls this with the journal as it stood
 * before a recorded step and must get the recorded request back.
 */
export function assembleWorkerInput(
  task: TaskBrief,
  steps: HistoryStep[],
  consumed: HistoryInbox[],
  fresh: HistoryInbox[],
  dynamics: TaskDynamics = { checklist: null },
  knowledge: TaskKnowledge = { capabilities: null },
  notices: { consumed: HistoryNotice[]; fresh: HistoryNotice[] } = { consumed: [], fresh: [] },
  /** Layer 2: summaries of older history (compaction.ts), oldest first. */
  summaries: string[] = [],
): BaseMessage[] {
  const knowledgeMsg = knowledgeMessage(task, dynamics, knowledge);
  const messages: BaseMessage[] = [
    new SystemMessage(WORKER_SYSTEM_PROMPT),
    ...(knowledge.memorySection ? [new SystemMessage(knowledge.memorySection)] : []),
    ...(knowledgeMsg ? [knowledgeMsg] : []),
    new HumanMessage(
      `Task: ${task.title}${task.goal ? `\nGoal: ${task.goal}` : ''}` +
        // The task keeps the language of the user's own words, whatever language the title is in.
        (task.language && task.language in LANGUAGE_NAMES
          ? `\nReply to the user in ${LANGUAGE_NAMES[task.language as LanguageCode]}.`
          : ''),
    ),
  ];
  // A next round of a line of work: the earlier rounds, frozen when it started (stable prefix).
  const earlier = renderEarlierRounds(task.inherited);
  if (earlier) messages.push(new HumanMessage(earlier));
  // A fork: the task and step it goes on from, and the direction it takes (frozen, stable prefix).
  const forked = renderForkedFrom(task.inherited?.fork);
  if (forked) messages.push(new HumanMessage(forked));
  if (summaries.length) messages.push(new HumanMessage(`[earlier in this task]\n${summaries.join('\n')}`));
  for (const s of steps) {
    for (const i of consumed) if (i.consumedTurnId === s.turnId && i.consumedStep === s.index) messages.push(inboxMessage(i));
    messages.push(...noticeMessages(notices.consumed.filter((n) => n.consumedTurnId === s.turnId && n.consumedStep === s.index)));
    const d = s.decision as Decision;
    // Calls a ROLLBACK dropped (input-policy.ts) are not shown at all: the model reads the step as
    // if it had planned only what ran.
    const dropped = new Set(s.toolCalls.filter(isRolledBack).map((c) => c.modelCallId));
    messages.push(
      new AIMessage({
        content: d.content,
        tool_calls: d.toolCalls.filter((c) => !dropped.has(c.id)).map((c) => ({ id: c.id, name: c.name, args: (c.args ?? {}) as Record<string, unknown>, type: 'tool_call' as const })),
      }),
    );
    // Every call gets an answer (models reject unanswered tool calls). The engine finishes open
    // calls before asking the model, so an open one here was never run.
    for (const c of s.toolCalls) if (!dropped.has(c.modelCallId)) messages.push(new ToolMessage({ tool_call_id: c.modelCallId, name: c.name, content: toolResultContent(c) }));
  }
  for (const i of fresh) messages.push(inboxMessage(i));
  messages.push(...noticeMessages(notices.fresh));
  // The dynamic tail: where the task stands now (changes every step, so it goes last).
  messages.push(new HumanMessage(renderTaskState(dynamics)));
  return messages;
}

/** Everything a request is rendered from, loaded once per step (the engine renders it again after each compaction). */
export type ContextInputs = {
  task: TaskBrief;
  steps: HistoryStep[];
  inbox: HistoryInbox[];
  consumed: HistoryInbox[];
  fresh: HistoryInbox[];
  notices: { consumed: HistoryNotice[]; fresh: HistoryNotice[] };
  dynamics: TaskDynamics;
  knowledge: TaskKnowledge;
  /** The event seq the tail was folded at; recorded in the request so replay folds to the same point. */
  stateSeq: number;
  /** Ordinals of the steps that consumed a user REVISE (they supersede earlier summaries). */
  reviseOrdinals: number[];
};

/** Ordinals of the steps that consumed a REVISE signal. */
export function reviseOrdinalsOf(steps: readonly HistoryStep[], inbox: readonly HistoryInbox[]): number[] {
  const ord = new Map(steps.map((s, o) => [`${s.turnId}:${s.index}`, o]));
  return inbox
    .filter((i) => i.signal === 'REVISE' && i.consumedTurnId)
    .map((i) => ord.get(`${i.consumedTurnId}:${i.consumedStep}`))
    .filter((o): o is number => o !== undefined)
    .sort((a, b) => a - b);
}

/** Pure: the request for the next step from its inputs and the compaction rows in force. */
export function renderContext(inputs: ContextInputs, records: readonly CompactionRecord[], opts: ContextOptions = DEFAULT_CONTEXT_OPTIONS): BaseMessage[] {
  const view = compactView(inputs.steps, records, inputs.steps.length, inputs.reviseOrdinals, opts);
  return assembleWorkerInput(inputs.task, view.steps, inputs.consumed, inputs.fresh, inputs.dynamics, inputs.knowledge, inputs.notices, view.summaries);
}

/**
 * A stable digest of a model request (messages and tool names), for replay and audit. `extra`
 * carries what replay needs to rebuild the request (the fold seq of the tail); it is part of the
 * digest, never of what the model sees.
 */
export function digestRequest(messages: BaseMessage[], tools: string[], extra: { stateSeq?: number } = {}): { digest: string; request: unknown } {
  const request = {
    ...(extra.stateSeq !== undefined ? { stateSeq: extra.stateSeq } : {}),
    tools,
    messages: messages.map((m) => ({
      type: m.getType(),
      content: m.content,
      ...(m instanceof AIMessage && m.tool_calls?.length ? { tool_calls: m.tool_calls.map((c) => ({ id: c.id, name: c.name, args: c.args })) } : {}),
      ...(m instanceof ToolMessage ? { tool_call_id: m.tool_call_id } : {}),
    })),
  };
  return { digest: createHash('sha256').update(canonicalJson(request)).digest('hex'), request };
}
