// Push notifications of A2A tasks: while a task has push configs, this process follows it (one
// follower per task, however many configs) and POSTs each update to every config that has not had
// it yet, as the A2A StreamResponse JSON, signed the Standard Webhooks way with the config's secret
// (webhook-id `<config>:<seq>`, webhook-timestamp, webhook-signature). A config's lastSeq moves on
// after each update whether or not the receiver took it (after a few tries), so one receiver that
// is down holds up nobody; the callback is at least once (a receiver deduplicates by webhook-id).
//
// The follower runs with the viewer of the request that set the config and ends when the task
// ends, the server closes, or no config is left.
import { StreamResponse } from '@a2a-js/sdk';
import type { Task } from '../../db/generated/client.ts';
import type { Logger } from '../../log.ts';
import type { FetchLike } from '../../runtime/egress/gate.ts';
import { advancePushConfig, pushConfigsOf } from '../../store/a2a/push-configs.ts';
import { getTask } from '../../services/tasks/get-task.ts';
import { postWebhook } from '../../services/webhooks/send.ts';
import { signedHeaders } from '../../services/webhooks/signing.ts';
import { cardOut, pendingCardsOf } from '../mcp/task-view.ts';
import { followTask, type A2aUpdate } from './follow.ts';
import { a2aTask, isFinalState, type A2aCall } from './task-view.ts';

const ATTEMPTS = 3;
const TIMEOUT_MS = 10_000;

export type PushDelivery = {
  /** Follows the task from `afterSeq` (the seq its newest config was set at), unless already followed here. */
  follow(call: A2aCall, task: Task, afterSeq: number): void;
  close(): Promise<void>;
};

export function createPushDelivery(log: Logger, opts: { retryDelayMs?: number } = {}): PushDelivery {
  const followers = new Map<string, { ac: AbortController; done: Promise<void> }>();
  const closing = new AbortController();
  const delay = (ms: number) => new Promise<void>((r) => setTimeout(r, ms).unref());

  async function post(send: FetchLike, url: string, secret: string, messageId: string, body: string): Promise<boolean> {
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const out = await postWebhook(url, signedHeaders([secret], messageId, new Date(), body), body, TIMEOUT_MS, send);
      // Refused by the egress gate: nothing left, and trying again changes nothing.
      if (out.denied) return false;
      if (out.delivered) return true;
      log.warn('a2a push notification not taken', { messageId, attempt, statusCode: out.statusCode, error: out.error });
      if (closing.signal.aborted) return false;
      await delay((opts.retryDelayMs ?? 500) * attempt);
    }
    return false;
  }

  async function deliver(call: A2aCall, taskId: string, u: A2aUpdate): Promise<number> {
    const configs = (await pushConfigsOf(call.deps.prisma, taskId)).filter((c) => c.lastSeq < u.seq);
    // A final update carries the whole task (its artifacts), the others the status or artifact update.
    const response: StreamResponse = isFinalState(u.state)
      ? { payload: { $case: 'task', value: (await a2aTask(call, await getTask(call.deps, call.viewer, taskId))).task } }
      : u.response;
    const body = JSON.stringify(StreamResponse.toJSON(response));
    await Promise.all(
      configs.map(async (c) => {
        // Through the egress gate, as every outbound call (the host was listed when the config was set).
        await post(call.deps.egress.fetchFor(c.workspaceId), c.url, c.secret, `${c.id}:${u.seq}`, body);
        await advancePushConfig(call.deps.prisma, c.id, u.seq);
      }),
    );
    return (await pushConfigsOf(call.deps.prisma, taskId)).length;
  }

  async function run(call: A2aCall, task: Task, signal: AbortSignal) {
    // From the task as read when the config was set: its status then, and the cards waiting now
    // (a card asked since is also among the events after, and the set holds it once).
    const pending = (await pendingCardsOf(call, task)).map(cardOut);
    for await (const u of followTask(call, task, pending, signal, { stopAtInterrupt: false })) {
      const left = await deliver(call, task.id, u);
      if (left === 0) return;
    }
  }

  return {
    follow(call, task, afterSeq) {
      if (followers.has(task.id) || closing.signal.aborted) return;
      const ac = new AbortController();
      const signal = AbortSignal.any([ac.signal, closing.signal]);
      // From the event the config was set at: nothing after it is skipped.
      const done = run(call, { ...task, lastEventSeq: Math.min(task.lastEventSeq, afterSeq) }, signal)
        .catch((e) => {
          if (!signal.aborted) log.warn('a2a push follower stopped', { taskId: task.id, error: (e as Error)?.message });
        })
        .finally(() => followers.delete(task.id));
      followers.set(task.id, { ac, done });
    },
    async close() {
      closing.abort();
      await Promise.all([...followers.values()].map((f) => f.done));
    },
  };
}
