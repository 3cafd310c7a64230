// Reading what a request is rendered from: the task brief, the journal's steps, the inbox and change
// notices (store/journal), the [task state] tail from the event fold, the memory section, and the
// compaction rows in force. Everything comes from persisted state, so a takeover or replay loads
// the same inputs the original worker had.
import type { BaseMessage } from '@langchain/core/messages';
import type { PrismaClient } from '../../db/client.ts';
import { loadCompactions } from '../../store/journal/compactions.ts';
import { loadTaskInbox, loadTaskNotices } from '../../store/journal/inbox.ts';
import { loadTaskSteps } from '../../store/journal/steps.ts';
import { readTaskBrief } from '../../store/journal/tasks.ts';
import type { WorkerMemory } from '../memory.ts';
import { loadTaskState } from '../task-state.ts';
import { WITHHELD_MESSAGE, WITHHELD_REPLY } from './prompt.ts';
import { dynamicsOf, renderContext, reviseOrdinalsOf, type ContextInputs, type TaskKnowledge } from './render.ts';

export async function loadContextInputs(
  prisma: PrismaClient,
  taskId: string,
  preloaded?: Awaited<ReturnType<typeof loadTaskSteps>>,
  knowledge: TaskKnowledge = { capabilities: null },
  memory?: WorkerMemory,
): Promise<ContextInputs & { newInboxIds: string[]; newNoticeIds: string[] }> {
  // The reads are independent, and none is a snapshot of the others (they never were: each was its
  // own statement): run together, a step waits for the slowest of them, not for their sum. What
  // the step consumes is checked again when it commits (InboxChanged).
  const loadedSteps = preloaded ?? (await loadTaskSteps(prisma, taskId));
  const [task, loadedItems, { state }, mem, notices] = await Promise.all([
    readTaskBrief(prisma, taskId),
    loadTaskInbox(prisma, taskId),
    // The tail (checklist, budget, approvals, jobs) comes from the event fold, at a seq the request
    // records: replay folds to the same seq and renders the same tail.
    loadTaskState(prisma, taskId),
    // ---- Long-term memory ----
    // The memory section for this step, and what forgetting withholds: replies that relied on
    // forgotten memory and messages revoked as evidence (their tool calls stay, so the transcript
    // stays well-formed). Without memory nothing changes. It is told the step's ordinal.
    memory ? memory.contextFor(taskId, loadedSteps.length) : Promise.resolve(null),
    loadTaskNotices(prisma, taskId),
  ]);
  let steps = loadedSteps;
  let items = loadedItems;
  if (mem?.withheldStepIds.length) {
    const w = new Set(mem.withheldStepIds);
    steps = steps.map((s) => (w.has(s.id) ? { ...s, decision: { ...(s.decision as object), content: WITHHELD_REPLY } as typeof s.decision } : s));
  }
  if (mem?.withheldInboxIds.length) {
    const w = new Set(mem.withheldInboxIds);
    items = items.map((i) => (w.has(i.id) ? { ...i, text: WITHHELD_MESSAGE } : i));
  }
  // ---- end long-term memory ----
  const consumed = items.filter((i) => i.consumedTurnId !== null);
  const fresh = items.filter((i) => i.consumedTurnId === null);
  const freshNotices = notices.filter((n) => n.consumedTurnId === null);
  return {
    task,
    steps,
    inbox: items,
    consumed,
    fresh,
    notices: { consumed: notices.filter((n) => n.consumedTurnId !== null), fresh: freshNotices },
    dynamics: dynamicsOf(state),
    knowledge: { ...knowledge, memorySection: mem?.section ?? null },
    stateSeq: state.lastSeq,
    reviseOrdinals: reviseOrdinalsOf(steps, items),
    newInboxIds: fresh.map((i) => i.id),
    newNoticeIds: freshNotices.map((n) => n.id),
  };
}

export async function buildWorkerInput(
  prisma: PrismaClient,
  taskId: string,
  /** The task's steps when the caller has just loaded them (loadTaskSteps). */
  preloaded?: Awaited<ReturnType<typeof loadTaskSteps>>,
  knowledge: TaskKnowledge = { capabilities: null },
  memory?: WorkerMemory,
): Promise<{ messages: BaseMessage[]; newInboxIds: string[]; newNoticeIds: string[]; stateSeq: number }> {
  const inputs = await loadContextInputs(prisma, taskId, preloaded, knowledge, memory);
  const records = await loadCompactions(prisma, taskId);
  return { messages: renderContext(inputs, records), newInboxIds: inputs.newInboxIds, newNoticeIds: inputs.newNoticeIds, stateSeq: inputs.stateSeq };
}
