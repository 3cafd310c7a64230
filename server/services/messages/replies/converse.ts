// The conversation rules after routing: when the router gave a decision no intent (see RouteIntent in
// routing/types.ts), a message that is plainly a command for a named task ("stop the PPT"), a
// question about one ("wie weit ist das Plakat?") or a statement of a lasting fact ("our brand color
// is teal") gets that intent here, so it is applied or answered in the thread instead of being
// delivered to the task as an instruction, or starting a task. A decision that already carries an
// intent is left as it is: the router's word wins. No I/O: the task index the router used is enough.
import { kindsIn, LIVE_STATUSES, resolveTask, type TaskLike } from '../../../domain/replies/reference.ts';
import { conversationOf, statusQuestionOf, steeringOf } from '../../../domain/replies/intents.ts';
import type { SteerSignal } from '../../../domain/replies/types.ts';
import type { RouteDecision, TaskIndexEntry } from '../../../routing/types.ts';
import { statedFacts } from './remember.ts';

type Entry = TaskLike & { entry: TaskIndexEntry };

const preferFor = (signal: SteerSignal | 'STATUS') => (t: Entry) =>
  signal === 'RESUME' ? t.status === 'PAUSED' : LIVE_STATUSES.includes(t.status) && !t.entry.archived;

export function withConversationIntent(decision: RouteDecision, text: string, index: readonly TaskIndexEntry[]): RouteDecision {
  if (decision.intent) return decision;
  const tasks: Entry[] = index.map((e) => ({ id: e.taskId, title: e.title, goal: e.goal, status: e.status, lastActivityAt: e.lastActivityAt, entry: e }));
  const steer = steeringOf(text);
  if (steer) {
    const r = resolveTask(steer.ref, tasks, preferFor(steer.signal));
    if (r.kind === 'one') {
      return { ...decision, outcome: 'EXISTING_TASK', taskId: r.task.id, candidates: [{ taskId: r.task.id, title: r.task.title, score: 1 }], intent: steer.signal, reason: `${steer.signal}: "${steer.ref}" names "${r.task.title}"` };
    }
    if (r.kind === 'several') {
      return { ...decision, outcome: 'CLARIFY', taskId: null, candidates: r.tasks.map((t) => ({ taskId: t.id, title: t.title, score: 1 })), intent: steer.signal, reason: `${steer.signal}: "${steer.ref}" could name ${r.tasks.length} tasks` };
    }
  }
  const status = statusQuestionOf(text);
  if (status) {
    const r = resolveTask(status.ref, tasks, preferFor('STATUS'));
    if (r.kind === 'one') {
      return { ...decision, outcome: 'EXISTING_TASK', taskId: r.task.id, candidates: [{ taskId: r.task.id, title: r.task.title, score: 1 }], intent: 'STATUS', reason: `STATUS: "${status.ref}" names "${r.task.title}"` };
    }
    if (r.kind === 'several') {
      return { ...decision, outcome: 'ANSWER', taskId: null, candidates: r.tasks.map((t) => ({ taskId: t.id, title: t.title, score: 1 })), intent: 'STATUS', reason: `STATUS: "${status.ref}" names ${r.tasks.length} tasks` };
    }
    // A question about work no task matches ("how's the bakery menu going?" with no such task) is
    // answered with what is in progress rather than started as new work.
    if (decision.outcome !== 'EXISTING_TASK' && (kindsIn(status.ref).size || !status.ref)) {
      return { ...decision, outcome: 'ANSWER', taskId: null, candidates: [], intent: 'STATUS', reason: `STATUS: no task matches "${status.ref}"` };
    }
  }
  // "Hello", "thanks", "what can you do?", "what are you working on?" (whole messages) are for the thread.
  const talk = conversationOf(text);
  if (talk && decision.outcome !== 'ANSWER') {
    return { ...decision, outcome: 'ANSWER', taskId: null, candidates: [], ...(talk === 'workingOn' ? { intent: 'STATUS' as const } : {}), reason: `${talk === 'workingOn' ? 'STATUS: ' : ''}${talk}, for the thread` };
  }
  if (decision.outcome !== 'EXISTING_TASK' && statedFacts(text).pure) {
    return { ...decision, outcome: 'ANSWER', taskId: null, candidates: [], intent: 'REMEMBER', reason: 'REMEMBER: a lasting fact or preference, stated on its own' };
  }
  return decision;
}
