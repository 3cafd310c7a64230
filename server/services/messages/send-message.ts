// sendMessage: the one entry point of the main thread. Routing (route-message.ts) decides; this
// commits the message, the decision and its effect (inbox item and turn, new task, card or reply)
// in one transaction. The same idempotency key never creates a second message.
import { z } from 'zod';
import { requireWorkspace } from '../../auth/access.ts';
import { notFound, taskBusy } from '../../errors.ts';
import { isTaskBusy } from '../../store/journal/waits.ts';
import type { InputPolicyName } from '../../domain/input-policy.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents, type Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import type { Prisma } from '../../db/generated/client.ts';
import type { Deps } from '../deps.ts';
import { detectLanguage, nextTaskLanguage, type LanguageCode } from '../../domain/language.ts';
import type { TaskStatus } from '../../domain/task-status.ts';
import { ensureTurn } from '../../store/turns.ts';
import type { RouteDecision } from '../../routing/types.ts';
import { enqueueMemoryExtraction } from '../memory/jobs.ts';
import { applyTransition, lockTask } from '../../store/tasks/apply-transition.ts';
import { supersedeWaitingCards } from '../../store/approvals/supersede.ts';
import { getMainThread } from '../threads/get-main-thread.ts';
import { parseInput } from '../validate.ts';
import { checkIdempotencyKey, claimOf, clientKey, recordIdempotencyKey } from '../../store/idempotency.ts';
import { acknowledgeInThread, answerInThread, isThreadIntent } from './answer.ts';
import { textsFor } from '../../domain/replies/texts.ts';
import { routeMessage } from './route-message.ts';
import { continueLine } from '../tasks/next-round.ts';

export const SendMessageInput = z.object({
  workspaceId: z.string().uuid(),
  text: z.string().trim().min(1).max(20_000),
  taskId: z.string().uuid().optional(),
  objectId: z.string().min(1).max(200).optional(),
  idempotencyKey: z.string().min(1).max(200),
  /** What the message does to a run under way (input-policy.ts); absent: the task's own policy. */
  inputPolicy: z.enum(['QUEUE', 'INTERRUPT', 'REJECT', 'ROLLBACK']).optional(),
});

export type SendMessageResult = {
  messageId: string;
  decisionId: string;
  decision: RouteDecision;
  /** The task the message was delivered to (existing or created), if any. */
  taskId: string | null;
  cardId: string | null;
  replyId: string | null;
  duplicate: boolean;
};

const LIVE: TaskStatus[] = ['QUEUED', 'RUNNING', 'WAITING'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function objectInWorkspace(deps: Deps, workspaceId: string, objectId: string): Promise<boolean> {
  if (!UUID.test(objectId)) return false;
  return (await deps.prisma.workspaceObject.count({ where: { id: objectId, workspaceId } })) > 0;
}

export async function sendMessage(deps: Deps, viewer: Viewer, raw: z.input<typeof SendMessageInput>): Promise<SendMessageResult> {
  const input = parseInput(SendMessageInput, raw);
  requireWorkspace(viewer, input.workspaceId, 'write');
  // A message sent while viewing an object names an object of this workspace (deleted ones too:
  // their history stays readable); any other id names nothing.
  if (input.objectId !== undefined && !(await objectInWorkspace(deps, input.workspaceId, input.objectId))) throw notFound('WorkspaceObject');
  const thread = await getMainThread(deps, viewer, input.workspaceId);
  // The key names this message: resending it returns the first result; new text on it is refused.
  const claim = claimOf('sendMessage', { workspaceId: input.workspaceId, userId: viewer.userId }, input)!;
  await checkIdempotencyKey(deps.prisma, claim);
  // Stored beside the server's own keys in the thread (`reply:<id>`), so namespaced.
  const storedKey = clientKey(input.idempotencyKey);
  const existing = await findSent(deps, thread.id, storedKey);
  if (existing) return existing;

  const routed = await routeMessage(deps, viewer, { ...input, threadId: thread.id });
  const detected = detectLanguage(input.text);
  try {
    const { value } = await transactWithEvents(deps, async (tx, emit) => {
      await recordIdempotencyKey(tx, claim);
      const message = await tx.message.create({
        data: {
          threadId: thread.id,
          workspaceId: input.workspaceId,
          authorUserId: viewer.userId,
          role: 'USER',
          text: input.text,
          taskId: input.taskId ?? null,
          objectId: input.objectId ?? null,
          language: detected.language === 'und' ? null : detected.language,
          idempotencyKey: storedKey,
        },
      });
      const effect = await applyDecision(deps, tx, emit, viewer, { ...input, threadId: thread.id, messageId: message.id }, routed.decision);
      // The task a message went to acknowledges it in the thread (answer.ts).
      effect.replyId ??= await acknowledgeInThread({ deps, tx, emit, viewer }, { ...input, threadId: thread.id, messageId: message.id }, routed.decision, effect);
      const decision = await tx.routeDecision.create({
        data: {
          messageId: message.id,
          workspaceId: input.workspaceId,
          outcome: routed.decision.outcome,
          method: routed.decision.method,
          taskId: effect.taskId ?? routed.decision.taskId,
          candidates: routed.decision.candidates as unknown as Prisma.InputJsonValue,
          reason: routed.decision.reason,
          indexSize: routed.indexSize,
        },
      });
      if (effect.taskId) await tx.message.update({ where: { id: message.id }, data: { taskId: effect.taskId, inboxItemId: effect.inboxItemId } });
      // Long-term memory: the message becomes evidence and its extraction is enqueued
      // (pg-boss, same transaction: a committed message always has its extraction job).
      await enqueueMemoryExtraction(tx, deps.scheduler, { ...message, taskId: effect.taskId ?? message.taskId });
      return {
        messageId: message.id,
        decisionId: decision.id,
        decision: routed.decision,
        taskId: effect.taskId,
        cardId: effect.cardId,
        replyId: effect.replyId,
        duplicate: false,
      };
    });
    return value;
  } catch (e) {
    // A concurrent send with the same key won: return what it created.
    if (/Unique constraint|P2002|23505/.test(String((e as Error).message))) {
      await checkIdempotencyKey(deps.prisma, claim);
      const again = await findSent(deps, thread.id, storedKey);
      if (again) return again;
    }
    throw e;
  }
}

async function findSent(deps: Deps, threadId: string, key: string): Promise<SendMessageResult | null> {
  const m = await deps.prisma.message.findUnique({
    where: { threadId_idempotencyKey: { threadId, idempotencyKey: key } },
    include: { routes: { where: { supersededAt: null }, orderBy: { createdAt: 'desc' }, take: 1 } },
  });
  const d = m?.routes[0];
  if (!m || !d) return null;
  const card = await deps.prisma.card.findFirst({ where: { messageId: m.id }, select: { id: true } });
  const reply = await deps.prisma.message.findFirst({ where: { threadId, role: 'ASSISTANT', idempotencyKey: `reply:${m.id}` }, select: { id: true } });
  return {
    messageId: m.id,
    decisionId: d.id,
    decision: { outcome: d.outcome, method: d.method, taskId: d.taskId, candidates: d.candidates as RouteDecision['candidates'], reason: d.reason },
    taskId: m.taskId,
    cardId: card?.id ?? null,
    replyId: reply?.id ?? null,
    duplicate: true,
  };
}

export type Effect = { taskId: string | null; inboxItemId: string | null; cardId: string | null; replyId: string | null };

/**
 * Carries out a routing decision for a stored message, in the caller's transaction: a reply, a
 * card, a delivery to a task or a new task. Answering a card (answer-card.ts) applies the choice to
 * the message that raised the card through here, like a decision the router made.
 */
export async function applyDecision(
  deps: Deps,
  tx: Tx,
  emit: Emit,
  viewer: Viewer,
  input: { workspaceId: string; threadId: string; messageId: string; text: string; inputPolicy?: InputPolicyName },
  d: RouteDecision,
): Promise<Effect> {
  const none: Effect = { taskId: null, inboxItemId: null, cardId: null, replyId: null };
  const actor = { kind: 'USER' as const, id: viewer.userId };
  const detected = detectLanguage(input.text);
  // A command or status question for a named task is carried out in the thread, never delivered (answer.ts).
  if (d.outcome !== 'ANSWER' && isThreadIntent(d)) return { ...none, ...(await answerInThread({ deps, tx, emit, viewer }, input, d)) };
  switch (d.outcome) {
    case 'ANSWER':
      return { ...none, ...(await answerInThread({ deps, tx, emit, viewer }, input, d)) };
    case 'CLARIFY': {
      // In the asker's language (domain/replies/).
      const say = textsFor(detected.language);
      // One option per line of work: the rounds of one line are one piece of work to a person, and
      // continuing any of them lands in the line's latest round (next-round.ts).
      const lines = await tx.task.findMany({ where: { id: { in: d.candidates.map((c) => c.taskId) } }, select: { id: true, lineId: true } });
      const lineOf = new Map(lines.map((t) => [t.id, t.lineId ?? t.id]));
      const seenLines = new Set<string>();
      const distinct = d.candidates.filter((c) => {
        const line = lineOf.get(c.taskId) ?? c.taskId;
        if (seenLines.has(line)) return false;
        seenLines.add(line);
        return true;
      });
      const options = [
        ...distinct.slice(0, 3).map((c, i) => ({ id: `t${i}`, label: say.continueOption(c.title), taskId: c.taskId, action: 'continue' })),
        { id: 'new', label: say.newTaskOption, taskId: null, action: 'create' },
      ];
      const prompt = distinct.length ? say.clarifyWhich : say.clarifyMore;
      const card = await tx.card.create({
        data: { workspaceId: input.workspaceId, threadId: input.threadId, messageId: input.messageId, kind: 'CLARIFY', prompt, options },
      });
      const reply = await tx.message.create({
        data: { threadId: input.threadId, workspaceId: input.workspaceId, role: 'ASSISTANT', text: prompt, language: say.lang, idempotencyKey: `reply:${input.messageId}` },
      });
      return { ...none, cardId: card.id, replyId: reply.id };
    }
    case 'EXISTING_TASK': {
      // An ended or archived task is not written to: its line of work goes on in its latest live
      // round, or in a next round started for this message (services/tasks/next-round.ts).
      const task = await continueLine(tx, emit, viewer, await tx.task.findUniqueOrThrow({ where: { id: d.taskId! } }), { id: input.messageId, text: input.text });
      // REJECT: a busy task refuses the message; the transaction (the message included) rolls back.
      if ((input.inputPolicy ?? task.inputPolicy) === 'REJECT' && (await isTaskBusy(tx, task.id))) throw taskBusy(task.title);
      const item = await deliver(tx, task, viewer, input);
      const next = nextTaskLanguage((task.language as LanguageCode | null) ?? null, input.text);
      const language = next === 'und' ? task.language : next;
      // Iterating on a lightweight result makes it real work: promote it (context and journal kept).
      const promote = task.kind === 'LIGHTWEIGHT';
      await tx.task.update({ where: { id: task.id }, data: { lastActivityAt: new Date(), language, ...(promote ? { kind: 'PERSISTENT' } : {}) } });
      if (promote) emit(task.id, { type: 'TASK_PROMOTED', actor, payload: { reason: 'the user kept iterating on it' } });
      emit(task.id, { type: 'MESSAGE_RECEIVED', actor, payload: { messageId: input.messageId, inboxItemId: item.id, text: input.text, ...(input.inputPolicy ? { inputPolicy: input.inputPolicy } : {}) } });
      // A plan, pick or price card the task waits on is answered by this message instead (supersede.ts).
      await supersedeWaitingCards(tx, emit, deps.scheduler, { taskId: task.id, actor, instruction: { kind: 'MESSAGE', text: input.text, inboxItemId: item.id, messageId: input.messageId } });
      if (language !== task.language) emit(task.id, { type: 'TASK_LANGUAGE_CHANGED', actor, payload: { from: task.language, language } });
      if (LIVE.includes(task.status)) await ensureTurn(tx, deps.scheduler, task);
      else if (task.status === 'PAUSED') {
        // Writing to a paused task is an instruction to go on with it ("let's finish the posters"):
        // the user should not also have to press resume.
        const locked = await lockTask(tx, task.id);
        const d2 = locked ? await applyTransition(tx, emit, { taskId: task.id, from: locked.status, transition: 'resume', actor, reason: 'resumed by your message' }) : null;
        if (d2?.kind === 'move') await ensureTurn(tx, deps.scheduler, task);
      }
      return { ...none, taskId: task.id, inboxItemId: item.id };
    }
    case 'NEW_TASK':
    case 'LIGHTWEIGHT_TASK':
      return createTask(deps, tx, emit, viewer, input, {
        title: d.title ?? input.text.slice(0, 80),
        goal: input.text,
        kind: d.outcome === 'LIGHTWEIGHT_TASK' ? 'LIGHTWEIGHT' : 'PERSISTENT',
        language: knownLanguage(detected.language),
      });
  }
}

const knownLanguage = (l: LanguageCode): string | null => (l === 'und' ? null : l);

async function createTask(
  deps: Deps,
  tx: Tx,
  emit: Emit,
  viewer: Viewer,
  input: { workspaceId: string; messageId: string; text: string },
  t: { title: string; goal: string; kind: 'PERSISTENT' | 'LIGHTWEIGHT'; language: string | null },
): Promise<Effect> {
  const task = await tx.task.create({
    data: { workspaceId: input.workspaceId, createdById: viewer.userId, paidActions: viewer.paidActions ?? 'WORKSPACE_RULES', title: t.title, goal: t.goal, kind: t.kind, language: t.language },
  });
  emit(task.id, {
    type: 'TASK_CREATED',
    actor: { kind: 'USER', id: viewer.userId },
    payload: { title: task.title, goal: task.goal, status: task.status, kind: task.kind, language: task.language, messageId: input.messageId },
  });
  const item = await deliver(tx, task, viewer, input);
  await ensureTurn(tx, deps.scheduler, task);
  return { taskId: task.id, inboxItemId: item.id, cardId: null, replyId: null };
}

/** Puts the message in the task's inbox (once per message). */
function deliver(tx: Tx, task: { id: string; workspaceId: string }, viewer: Viewer, input: { messageId: string; text: string; inputPolicy?: InputPolicyName }) {
  return tx.inboxItem.create({
    data: {
      taskId: task.id,
      workspaceId: task.workspaceId,
      kind: 'MESSAGE',
      text: input.text,
      authorUserId: viewer.userId,
      idempotencyKey: `message:${input.messageId}`,
      inputPolicy: input.inputPolicy ?? null,
    },
  });
}
