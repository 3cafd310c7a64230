// A remote agent's push notification for a step handed to it with "answer later"
// (runtime/a2a/delegate.ts): POST /a2a/callbacks/<delegation id>, the secret in
// X-A2A-Notification-Token, the body an A2A StreamResponse (a task, or a status update).
//
// Invariants:
//  - only the holder of the delegation's secret is heard (compared by hash, in constant time); a
//    wrong or missing secret, or an unknown delegation, changes nothing;
//  - an update that does not end the remote task only records its state;
//  - the update that ends it (or asks for input) is handed to the task exactly once — claimAnswer's
//    conditional update in the same transaction as the inbox message and the event — however many
//    times the agent sends it, in whatever order;
//  - the answer wakes the task the way a finished job does (the runtime's wait predicates): a
//    task that waits on nothing else goes on; a paused one reads it when resumed; an ended one keeps
//    it on its timeline only.
import { timingSafeEqual } from 'node:crypto';
import { StreamResponse, type Task as A2aTask } from '@a2a-js/sdk';
import { A2A_STATE_WORD, a2aStatusText } from '../../runtime/a2a/states.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { isTerminal } from '../../domain/task-status.ts';
import { callbackSecretHash } from '../../runtime/a2a/delegate.ts';
import { claimAnswer, findDelegation, recordState } from '../../store/a2a/delegations.ts';
import { countOutstanding, countLiveTurns, countPendingApprovals } from '../../store/journal/waits.ts';
import { applyTransition, lockTask } from '../../store/tasks/apply-transition.ts';
import { ensureTurn } from '../../store/turns.ts';
import type { Deps } from '../deps.ts';

export type CallbackOutcome = { status: 204 | 400 | 401 | 404; message?: string };

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The states that end the wait: the remote task ended, or it needs the agent's input. */
const ANSWERS = new Set(['completed', 'failed', 'canceled', 'rejected', 'input-required', 'auth-required']);


const artifactLines = (task: A2aTask | null): string[] =>
  (task?.artifacts ?? []).flatMap((a) => a.parts.map((p) => `${a.name || p.filename || a.artifactId}${p.content?.$case === 'url' ? `: ${p.content.value}` : ''}`));

function sameSecret(token: string, hash: string): boolean {
  const a = Buffer.from(callbackSecretHash(token), 'hex');
  const b = Buffer.from(hash, 'hex');
  return a.length === b.length && timingSafeEqual(a, b);
}

export async function receiveDelegationAnswer(deps: Pick<Deps, 'prisma' | 'notifier' | 'scheduler'>, input: { id: string; token: string | null; body: string }): Promise<CallbackOutcome> {
  if (!UUID.test(input.id)) return { status: 404, message: 'No such callback' };
  const row = await findDelegation(deps.prisma, input.id);
  if (!row) return { status: 404, message: 'No such callback' };
  if (!input.token || !sameSecret(input.token, row.secretHash)) return { status: 401, message: 'The notification token does not match' };

  let update: StreamResponse;
  try {
    update = StreamResponse.fromJSON(JSON.parse(input.body));
  } catch {
    return { status: 400, message: 'The body is not an A2A StreamResponse' };
  }
  const p = update.payload;
  const task = p?.$case === 'task' ? p.value : null;
  const status = p?.$case === 'task' ? p.value.status : p?.$case === 'statusUpdate' ? p.value.status : undefined;
  const remoteId = p?.$case === 'task' ? p.value.id : p?.$case === 'statusUpdate' || p?.$case === 'artifactUpdate' ? p.value.taskId : '';
  if (row.remoteTaskId && remoteId && remoteId !== row.remoteTaskId) return { status: 400, message: 'The update is for another remote task' };
  const state = status ? A2A_STATE_WORD[status.state] : undefined;
  if (!state) return { status: 204 }; // an artifact or message alone: the final update carries the outcome
  if (!ANSWERS.has(state)) {
    await recordState(deps.prisma, row.workspaceId, row.id, state);
    return { status: 204 };
  }

  const words = [a2aStatusText(status), ...artifactLines(task)].filter(Boolean).join('\n').slice(0, 8000);
  await transactWithEvents({ prisma: deps.prisma, notifier: deps.notifier }, async (tx, emit) => {
    const current = await lockTask(tx, row.taskId);
    if (!current) return;
    if (!(await claimAnswer(tx, row.workspaceId, row.id, state))) return; // handed over already
    const fields = { agent: row.agentName, remoteTask: row.remoteTaskId ?? remoteId, state: state.toUpperCase().replace('-', '_'), text: words, callId: row.callId };
    if (isTerminal(current.status)) {
      emit(row.taskId, { type: 'REMOTE_AGENT_ANSWERED', actor: { kind: 'SYSTEM' }, payload: { ...fields, inboxItemId: null } });
      return;
    }
    const item = await tx.inboxItem.create({
      data: {
        taskId: row.taskId,
        workspaceId: row.workspaceId,
        kind: 'MESSAGE',
        text: `The remote agent "${row.agentName}" answered the step you handed it (remote task ${fields.remoteTask}, ${state})${words ? `:\n${words}` : '.'}`,
        idempotencyKey: `a2a-answer:${row.id}`,
      },
    });
    emit(row.taskId, { type: 'REMOTE_AGENT_ANSWERED', actor: { kind: 'SYSTEM' }, payload: { ...fields, inboxItemId: item.id } });
    // Woken as a finished job wakes it (runtime/wake.ts): only a task that waits on nothing else.
    if (current.status !== 'WAITING') return; // a running turn reads it; a paused task when resumed
    if ((await countOutstanding(tx, row.taskId)) > 0 || (await countPendingApprovals(tx, row.taskId)) > 0 || (await countLiveTurns(tx, row.taskId)) > 0) return;
    await applyTransition(tx, emit, { taskId: row.taskId, from: current.status, transition: 'requeue', actor: { kind: 'SYSTEM' }, reason: `the remote agent "${row.agentName}" answered` });
    await ensureTurn(tx, deps.scheduler, { id: row.taskId, workspaceId: row.workspaceId });
  });
  return { status: 204 };
}
