// Following a task as A2A updates, on the live task feed (the one GraphQL subscriptions and /mcp
// use): every event after a cursor, in seq order, once. The A2A state is derived from the events
// themselves (a status change names its new status; a card asked or answered adds or removes a
// waiting card), starting from a snapshot read together with its lastEventSeq, so the state at each
// update is the state at that event — never a later one read from the table. That is what makes a
// stream resumable without loss or doubling: a snapshot at seq S plus the updates after S is the
// whole story, whichever process serves it.
import { TaskState, type StreamResponse } from '@a2a-js/sdk';
import type { Task } from '../../db/generated/client.ts';
import { visibilityOf } from '../../domain/event-catalog.ts';
import { listTaskEvents } from '../../services/events/list-task-events.ts';
import { subscribeTaskEvents } from '../../services/events/subscribe-events.ts';
import { publicText } from '../../graphql/public-ids.ts';
import { decodeLenient, globalId } from '../../graphql/ids.ts';
import { presentEvents } from '../mcp/events.ts';
import { a2aState, artifactsOf, contextIdOf, endsStream, isFinalState, taskStatus, type A2aCall, type PendingCard } from './task-view.ts';

export type A2aUpdate = { seq: number; state: TaskState; response: StreamResponse };

type Current = Pick<Task, 'id' | 'lineId' | 'status' | 'statusReason' | 'language'>;

const STATUS_WORDS = new Set(['QUEUED', 'RUNNING', 'WAITING', 'PAUSED', 'COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED']);
/** The events that change the A2A state. */
const STATE_EVENTS = ['TASK_STATUS_CHANGED', 'APPROVAL_REQUESTED', 'APPROVAL_RESOLVED'] as const;

/** The A2A state as the events make it: the task's status and the cards waiting for a person. */
class Tracker {
  readonly cur: Current;
  readonly pending: Map<string, PendingCard>;
  constructor(task: Current, pending: readonly PendingCard[]) {
    this.cur = { id: task.id, lineId: task.lineId, status: task.status, statusReason: task.statusReason, language: task.language };
    this.pending = new Map(pending.map((c) => [c.id, c]));
  }
  /** Applies one event (its presented fields); true when the state may have changed. */
  apply(type: string, f: Record<string, unknown>): boolean {
    if (type === 'TASK_STATUS_CHANGED' && typeof f.to === 'string' && STATUS_WORDS.has(f.to)) {
      this.cur.status = f.to as Task['status'];
      this.cur.statusReason = typeof f.reason === 'string' ? f.reason : null;
      return true;
    }
    if (type === 'APPROVAL_REQUESTED' && typeof f.approvalId === 'string') {
      this.pending.set(f.approvalId, {
        id: f.approvalId,
        kind: String(f.kind ?? f.approvalKind ?? ''),
        title: publicText(String(f.title ?? '')),
        options: Array.isArray(f.options) ? (f.options as { id?: unknown; label?: unknown }[]).map((o) => ({ id: String(o?.id ?? ''), label: String(o?.label ?? o?.id ?? '') })) : [],
      });
      return true;
    }
    if (type === 'APPROVAL_RESOLVED' && typeof f.approvalId === 'string') return this.pending.delete(f.approvalId);
    return false;
  }
  get state(): TaskState {
    return a2aState(this.cur.status, this.pending.size);
  }
}

/**
 * The task as it was right after event `seq` (its status and waiting cards), rebuilt from its
 * state-changing events — what a stream resumed after `seq` starts from, so the updates it replays
 * carry the state they had, not today's.
 */
export async function taskAt(call: A2aCall, task: Task, seq: number): Promise<{ task: Task; pending: PendingCard[] }> {
  const tracker = new Tracker({ ...task, status: 'QUEUED', statusReason: null }, []);
  let after = 0;
  for (;;) {
    const page = await listTaskEvents(call.deps, call.viewer, task.id, { after, first: 500, types: [...STATE_EVENTS] });
    const events = page.events.filter((e) => e.seq <= seq);
    for (const [i, e] of (await presentEvents(call, events)).entries()) tracker.apply(events[i]!.type, e.fields ?? {});
    if (!page.hasNextPage || events.length < page.events.length || !page.events.length) break;
    after = page.events.at(-1)!.seq;
  }
  return { task: { ...task, status: tracker.cur.status, statusReason: tracker.cur.statusReason, lastEventSeq: seq }, pending: [...tracker.pending.values()] };
}

export async function* followTask(
  call: A2aCall,
  start: Task,
  pendingAtStart: readonly PendingCard[],
  signal: AbortSignal,
  opts: { stopAtInterrupt: boolean },
): AsyncGenerator<A2aUpdate> {
  const tracker = new Tracker(start, pendingAtStart);
  const taskId = globalId('Task', start.id);
  const contextId = contextIdOf(start);
  let state = tracker.state;
  if (isFinalState(state) || (opts.stopAtInterrupt && endsStream(state))) return;
  const stream = await subscribeTaskEvents(call.deps, call.viewer, start.id, start.lastEventSeq, signal);
  try {
    for await (const event of stream) {
      const stateEvent = (STATE_EVENTS as readonly string[]).includes(event.type);
      if (!stateEvent && visibilityOf(event.type) !== 'MILESTONE') continue;
      const [e] = await presentEvents(call, [event]);
      const f = e?.fields ?? {};
      const changed = tracker.apply(event.type, f);
      const meta = { 'atelier/seq': event.seq, 'atelier/event': event.type };
      if (event.type === 'OBJECT_CREATED' || event.type === 'OBJECT_UPDATED') {
        const objectId = typeof f.objectId === 'string' ? decodeLenient(f.objectId)?.id : undefined;
        const [artifact] = objectId ? await artifactsOf(call, [objectId]) : [];
        if (artifact) {
          yield {
            seq: event.seq,
            state,
            response: { payload: { $case: 'artifactUpdate', value: { taskId, contextId, artifact, append: false, lastChunk: true, metadata: meta } } },
          };
          continue;
        }
      }
      if (!changed && visibilityOf(event.type) !== 'MILESTONE') continue;
      state = tracker.state;
      const waiting = [...tracker.pending.values()];
      yield {
        seq: event.seq,
        state,
        response: { payload: { $case: 'statusUpdate', value: { taskId, contextId, status: taskStatus(tracker.cur, waiting, event.occurredAt, e?.text), metadata: meta } } },
      };
      if (isFinalState(state) || (opts.stopAtInterrupt && endsStream(state))) return;
    }
  } finally {
    await stream.return?.();
  }
}
