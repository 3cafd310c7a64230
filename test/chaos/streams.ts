// Subscribers over graphql-ws, each on a random live API. Every session records the position it
// starts after and every event it receives; when its socket dies (an API was killed) or it decides
// to move (a rotation), a new session starts from the last cursor received — on any live API. At the
// end each session is compared with the stored log: what it got must be exactly the events after its
// start, in order, with no gap and no duplicate.
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { Cluster } from './cluster.ts';
import { fromGid } from './api.ts';
import { pause, reached, waitFor } from '../helpers/wait.ts';
import type { Rng } from './rng.ts';

export type StreamEvent = { pos: number; cursor: string; taskId: string; seq: number; type: string; actorKind: string; payload: Record<string, unknown> | null };
export type Session = {
  n: number;
  subscriber: string;
  field: 'workspaceFeed' | 'workspaceEvents';
  api: string;
  after: string | null;
  /** The position the session starts after (from its cursor, or from FeedStarted). */
  startPos: number | null;
  received: { pos: number; taskId: string; seq: number; type: string }[];
  problems: string[];
  openedAt: number;
  endedAt: number | null;
  endReason: string | null;
};

export function decodeCursor(cursor: string): { workspaceId: string; position: number } {
  const m = /^v1:([0-9a-f-]{36}):(\d+)$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw new Error(`not a workspace cursor: ${cursor}`);
  return { workspaceId: m[1]!, position: Number(m[2]) };
}

const EVENT_FIELDS = `cursor seq type payload actor { kind } task { id }`;
const FEED = `subscription ChaosFeed($after: String) { workspaceFeed(after: $after) {
  __typename ... on FeedStarted { cursor resumed } ... on TaskEvent { ${EVENT_FIELDS} } } }`;
const EVENTS = `subscription ChaosEvents($after: String) { workspaceEvents(after: $after) { __typename ${EVENT_FIELDS} } }`;

type Item = { __typename: string; cursor: string; resumed?: boolean; seq?: number; type?: string; payload?: unknown; actor?: { kind: string }; task?: { id: string } };

export class Subscriber {
  readonly sessions: Session[] = [];
  lastCursor: string | null = null;
  lastPos = -1;
  reconnects = 0;
  private stopped = false;
  private current: { client: Client; end: (reason: string) => void } | null = null;
  private loop: Promise<void> | null = null;

  constructor(
    readonly name: string,
    private readonly cluster: Cluster,
    private readonly rng: Rng,
    /** workspaceFeed on every session, or workspaceEvents(after) once a cursor is known. */
    private readonly mode: 'feed' | 'events',
    /** A session moves to another API after this long (ms), besides the moves kills force. */
    private readonly rotateMs: [number, number],
    private readonly onEvent: (e: StreamEvent) => void = () => {},
  ) {}

  start(): void {
    this.loop = (async () => {
      let counter = 0;
      while (!this.stopped) {
        const urls = this.cluster.liveApiUrls();
        if (urls.length === 0) {
          // No bound of its own: stop() ends the wait.
          await waitFor(() => this.stopped || this.cluster.liveApiUrls().length > 0, 'an API process to connect to', { timeoutMs: Infinity, intervalMs: 100 });
          continue;
        }
        await this.session(++counter, this.rng.pick(urls));
        if (this.stopped) break;
        this.reconnects++;
        // A client's jittered pause before it reconnects.
        await pause(this.rng.int(20, 300));
      }
    })();
  }

  private session(n: number, url: string): Promise<void> {
    const field = this.mode === 'feed' || this.lastCursor === null ? 'workspaceFeed' : 'workspaceEvents';
    const s: Session = { n, subscriber: this.name, field, api: url, after: this.lastCursor, startPos: this.lastCursor ? decodeCursor(this.lastCursor).position : null, received: [], problems: [], openedAt: Date.now(), endedAt: null, endReason: null };
    this.sessions.push(s);
    return new Promise<void>((resolve) => {
      const client = createClient({
        url: url.replace(/^http/, 'ws') + '/graphql',
        webSocketImpl: WebSocket,
        connectionParams: { authorization: `Bearer ${this.cluster.ownerToken}` },
        lazy: true,
        retryAttempts: 0,
        keepAlive: 3000,
      });
      let done = false;
      const end = (reason: string) => {
        if (done) return;
        done = true;
        clearTimeout(rotation);
        s.endedAt = Date.now();
        s.endReason = reason;
        this.current = null;
        void client.dispose();
        resolve();
      };
      const rotation = setTimeout(() => end('rotate'), this.rng.int(...this.rotateMs));
      this.current = { client, end };
      client.subscribe<Record<string, Item>>(
        { query: field === 'workspaceFeed' ? FEED : EVENTS, variables: { after: this.lastCursor } },
        {
          next: (r) => {
            if (done) return;
            if (r.errors?.length) {
              s.problems.push(`errors: ${JSON.stringify(r.errors).slice(0, 300)}`);
              return end('errors');
            }
            const item = r.data?.[field];
            if (!item) return;
            if (item.__typename === 'FeedStarted') {
              const pos = decodeCursor(item.cursor).position;
              if (s.after !== null && (pos !== s.startPos || !item.resumed)) s.problems.push(`FeedStarted at ${pos} (resumed ${item.resumed}) for a session after ${s.startPos}`);
              if (s.received.length) s.problems.push('FeedStarted after events');
              s.startPos ??= pos;
              if (this.lastCursor === null) {
                this.lastCursor = item.cursor;
                this.lastPos = pos;
              }
              return;
            }
            const pos = decodeCursor(item.cursor).position;
            const ev: StreamEvent = { pos, cursor: item.cursor, taskId: fromGid(item.task!.id), seq: item.seq!, type: item.type!, actorKind: item.actor?.kind ?? '', payload: (item.payload as Record<string, unknown> | null) ?? null };
            s.received.push({ pos, taskId: ev.taskId, seq: ev.seq, type: ev.type });
            if (s.startPos === null) s.problems.push('an event before FeedStarted');
            if (pos !== this.lastPos + 1) s.problems.push(`position ${pos} after ${this.lastPos}`);
            if (pos > this.lastPos) {
              this.lastPos = pos;
              this.lastCursor = item.cursor;
            }
            try {
              this.onEvent(ev);
            } catch (e) {
              s.problems.push(`handler: ${(e as Error).message}`);
            }
          },
          error: (e) => end(`closed: ${(e as { code?: number }).code ?? (e as Error).message ?? 'error'}`),
          complete: () => end('completed'),
        },
      );
    });
  }

  /** Waits until this subscriber has received everything up to `pos` (a live session is needed). */
  async catchUp(pos: number, timeoutMs: number): Promise<boolean> {
    return reached(() => this.lastPos >= pos, { timeoutMs, intervalMs: 100 });
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.end('stopped');
    await this.loop;
  }
}

/** Compares every session with the stored log (position → event). Returns the problems found. */
export function checkSessions(subs: Subscriber[], stored: Map<number, { taskId: string; seq: number; type: string }>): { sessions: number; events: number; problems: string[] } {
  const problems: string[] = [];
  let sessions = 0;
  let events = 0;
  for (const sub of subs) {
    for (const s of sub.sessions) {
      sessions++;
      events += s.received.length;
      const label = `${sub.name} session ${s.n} (${s.field} on ${s.api}, after ${s.startPos}, ${s.received.length} events, ended: ${s.endReason})`;
      for (const p of s.problems) problems.push(`${label}: ${p}`);
      if (s.startPos === null) {
        if (s.received.length) problems.push(`${label}: events without a start`);
        continue;
      }
      for (let i = 0; i < s.received.length; i++) {
        const got = s.received[i]!;
        const want = stored.get(s.startPos + 1 + i);
        if (!want || got.pos !== s.startPos + 1 + i || want.taskId !== got.taskId || want.seq !== got.seq || want.type !== got.type) {
          problems.push(`${label}: item ${i + 1} is ${JSON.stringify(got)}, stored at position ${s.startPos + 1 + i}: ${JSON.stringify(want ?? null)}`);
          break;
        }
      }
    }
  }
  return { sessions, events, problems };
}
