// The person: asks for work in the main thread (sendMessage; a clarification card is answered with
// "Start a new task"), sometimes through createTask; answers every approval card it sees on its feed
// (the first option of a choice; plans and prices approved) after a human pause; sends signals
// (context, a change of direction, pause then resume, cancel) and resumes a task the runtime paused.
// Every mutation carries its own idempotency key and is retried with it (api.ts).
import { Api, DOCS, fromGid, toGid } from './api.ts';
import { CONTEXT_NOTES, REVISIONS, nextRequest, type Kind, type Request } from './prompts.ts';
import { pause, reached } from '../helpers/wait.ts';
import type { Rng } from './rng.ts';
import type { StreamEvent } from './streams.ts';

type SignalName = 'PAUSE' | 'RESUME' | 'CANCEL' | 'REVISE' | 'ADD_CONTEXT';
export type PersonStats = {
  requests: number;
  /** Distinct sendMessage requests (idempotency keys) sent: each must be one stored message. */
  messagesSent: number;
  outcomes: Record<string, number>;
  clarifyAnswered: number;
  duplicateReplies: number;
  signals: Record<string, { sent: number; applied: number; refused: number; errors: number }>;
  nudges: { taskId: string; reason: string }[];
  approvals: { answered: number; byKind: Record<string, number>; refused: number; errors: string[]; viaSweep: number };
  errors: string[];
};

type Answer = { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };

export class Person {
  readonly stats: PersonStats = {
    requests: 0,
    messagesSent: 0,
    outcomes: {},
    clarifyAnswered: 0,
    duplicateReplies: 0,
    signals: {},
    nudges: [],
    approvals: { answered: 0, byKind: {}, refused: 0, errors: [], viaSweep: 0 },
    errors: [],
  };
  /** Tasks the person asked for, with what they asked. */
  readonly mine = new Map<string, Request>();
  private readonly seenApprovals = new Set<string>();
  private readonly pausedByMe = new Set<string>();
  private readonly nudgesPerTask = new Map<string, number>();
  private readonly pending: Promise<unknown>[] = [];
  private requestNo = 0;
  private stopped = false;
  /** Own streams for the requests and the signals: the same seed asks the same things in the same order. */
  private readonly prompts: Rng;
  private readonly plans: Rng;

  constructor(
    private readonly api: Api,
    private readonly rng: Rng,
    private readonly workspaceGid: string,
    private readonly seed: number,
  ) {
    this.prompts = rng.fork('prompts');
    this.plans = rng.fork('signals');
  }

  /** Every event of the person's feed passes here. */
  onEvent(e: StreamEvent): void {
    if (this.stopped) return;
    const p = e.payload ?? {};
    if (e.type === 'APPROVAL_REQUESTED' && typeof p.approvalId === 'string') {
      const options = Array.isArray(p.options) ? (p.options as { id: string }[]) : [];
      this.answer({ id: p.approvalId, kind: String(p.kind), options }, 'stream');
    }
    if (e.type === 'TASK_STATUS_CHANGED' && p.to === 'PAUSED' && e.actorKind !== 'USER' && !this.pausedByMe.has(e.taskId)) {
      // The runtime paused the task (no progress): a person says go on — a few times at most.
      const n = (this.nudgesPerTask.get(e.taskId) ?? 0) + 1;
      this.nudgesPerTask.set(e.taskId, n);
      if (n <= 3) {
        this.stats.nudges.push({ taskId: e.taskId, reason: String(p.reason ?? '') });
        this.later(this.rng.int(500, 1500), () => this.signal(e.taskId, 'RESUME', `nudge-${n}`));
      }
    }
  }

  /** Asks for one piece of work. Returns the task it went to (null when none). */
  async ask(): Promise<string | null> {
    const n = ++this.requestNo;
    const req = nextRequest(this.prompts);
    this.stats.requests++;
    const key = `chaos-${this.seed}-ask-${n}`;
    let taskId: string | null = null;
    if (req.via === 'createTask') {
      const r = (await this.api.call('createTask', DOCS.createTask, { input: { workspaceId: this.workspaceGid, title: req.title, goal: req.text, idempotencyKey: key } })) as Answer;
      if (r.errors?.length) return this.fail(`createTask: ${JSON.stringify(r.errors)}`);
      taskId = fromGid(r.data!.createTask.task.id);
      this.count('CREATE_TASK');
    } else {
      this.stats.messagesSent++;
      const r = (await this.api.call('sendMessage', DOCS.send, { input: { workspaceId: this.workspaceGid, text: req.text, idempotencyKey: key } })) as Answer;
      if (r.errors?.length) return this.fail(`sendMessage: ${JSON.stringify(r.errors)}`);
      const sent = r.data!.sendMessage;
      if (sent.duplicate) this.stats.duplicateReplies++;
      this.count(sent.route.outcome);
      taskId = sent.task ? fromGid(sent.task.id) : null;
      if (!taskId && sent.card) {
        // "Which task is this for?" — it is new work.
        // Answered with answerCard: the choice applies to the message that raised the card, and no
        // new message is stored (the option's label is never sent as text).
        const opt = sent.card.options.find((o: { action: string }) => o.action === 'create') ?? sent.card.options[0];
        const r2 = (await this.api.call('answerCard', DOCS.answerCard, { input: { cardId: sent.card.id, optionId: opt.id, idempotencyKey: `${key}-card` } })) as Answer;
        if (r2.errors?.length) return this.fail(`card answer: ${JSON.stringify(r2.errors)}`);
        this.stats.clarifyAnswered++;
        taskId = r2.data!.answerCard.task ? fromGid(r2.data!.answerCard.task.id) : null;
      }
    }
    if (taskId && !this.mine.has(taskId)) {
      this.mine.set(taskId, req);
      this.planSignals(taskId, req.kind);
    }
    return taskId;
  }

  /** Signals a person might send to this task, at times of their own. */
  private planSignals(taskId: string, kind: Kind): void {
    const r = this.plans;
    if (r.chance(0.1)) {
      const note = r.pick(CONTEXT_NOTES);
      this.later(r.int(300, 3000), () => this.signal(taskId, 'ADD_CONTEXT', 'ctx', note));
    }
    if (['video', 'posters', 'image', 'image-to-video'].includes(kind) && r.chance(0.14)) {
      const revision = r.pick(REVISIONS);
      this.later(r.int(1500, 7000), () => this.signal(taskId, 'REVISE', 'revise', revision));
    }
    if (r.chance(0.08)) {
      const pauseAt = r.int(300, 4000);
      const pauseFor = r.int(1000, 4000);
      this.later(pauseAt, async () => {
        this.pausedByMe.add(taskId);
        const status = await this.signal(taskId, 'PAUSE', 'pause');
        if (status === 'refused') return this.pausedByMe.delete(taskId);
        // The person's own pause: the task stays paused this long before they resume it.
        await pause(pauseFor);
        await this.signal(taskId, 'RESUME', 'resume');
        this.pausedByMe.delete(taskId);
      });
    }
    if (r.chance(0.05)) this.later(r.int(500, 8000), () => this.signal(taskId, 'CANCEL', 'cancel'));
  }

  async signal(taskId: string, signal: SignalName, label: string, text?: string): Promise<'applied' | 'refused' | 'error'> {
    const s = (this.stats.signals[signal] ??= { sent: 0, applied: 0, refused: 0, errors: 0 });
    s.sent++;
    const input = { taskId: toGid('Task', taskId), signal, idempotencyKey: `chaos-${this.seed}-${taskId}-${label}`, ...(text ? { text } : {}) };
    const r = (await this.api.call(`signalTask ${signal}`, DOCS.signal, { input })) as Answer;
    const code = r.errors?.[0]?.extensions?.code;
    if (!r.errors?.length) {
      s.applied++;
      return 'applied';
    }
    if (code === 'CONFLICT') {
      s.refused++; // the task had ended (or cannot take this signal now): a person shrugs
      return 'refused';
    }
    s.errors++;
    this.stats.errors.push(`signalTask ${signal} ${taskId}: ${JSON.stringify(r.errors).slice(0, 300)}`);
    return 'error';
  }

  /** Answers a card once, after a human pause. */
  answer(a: { id: string; kind: string; options: { id: string }[] }, via: 'stream' | 'sweep'): void {
    if (this.seenApprovals.has(a.id)) return;
    this.seenApprovals.add(a.id);
    if (via === 'sweep') this.stats.approvals.viaSweep++;
    this.later(this.rng.int(100, 1200), async () => {
      const input = { approvalId: toGid('Approval', a.id), decision: 'APPROVE', idempotencyKey: `chaos-${this.seed}-approve-${a.id}`, ...(a.options.length ? { choice: a.options[0]!.id } : {}) };
      const r = (await this.api.call(`resolveApproval ${a.kind}`, DOCS.resolve, { input })) as Answer;
      const code = r.errors?.[0]?.extensions?.code;
      if (!r.errors?.length) {
        this.stats.approvals.answered++;
        this.stats.approvals.byKind[a.kind] = (this.stats.approvals.byKind[a.kind] ?? 0) + 1;
      } else if (code === 'CONFLICT') this.stats.approvals.refused++; // cancelled with its task meanwhile
      else this.stats.approvals.errors.push(`${a.id} (${a.kind}): ${JSON.stringify(r.errors).slice(0, 300)}`);
    });
  }

  /** A person also glances at the list of open cards now and then (cards older than a few seconds). */
  async sweep(minAgeMs: number): Promise<number> {
    const r = (await this.api.call('pending approvals', DOCS.pending, { ws: this.workspaceGid })) as Answer;
    if (r.errors?.length || !r.data) return 0;
    const edges = r.data.workspace.approvals.edges as { node: { id: string; kind: string; createdAt: string; options: { id: string }[] } }[];
    let n = 0;
    for (const { node } of edges) {
      const id = fromGid(node.id);
      if (this.seenApprovals.has(id) || Date.now() - Date.parse(node.createdAt) < minAgeMs) continue;
      this.answer({ id, kind: node.kind, options: node.options }, 'sweep');
      n++;
    }
    return n;
  }

  private later(ms: number, fn: () => Promise<unknown> | unknown): void {
    // A planned action of the person, due `ms` from now.
    const p = pause(ms)
      .then(() => (this.stopped ? undefined : fn()))
      .catch((e) => this.stats.errors.push(String((e as Error).message).slice(0, 300)));
    this.pending.push(p);
  }

  private count(outcome: string): void {
    this.stats.outcomes[outcome] = (this.stats.outcomes[outcome] ?? 0) + 1;
  }

  private fail(msg: string): null {
    this.stats.errors.push(msg.slice(0, 400));
    return null;
  }

  /** Lets planned actions run out (a RESUME after a PAUSE must still be sent), then stops. */
  async finish(timeoutMs: number): Promise<void> {
    let ranOut = false;
    void Promise.allSettled(this.pending).then(() => (ranOut = true));
    await reached(() => ranOut, { timeoutMs, intervalMs: 50 });
    this.stopped = true;
  }
}
