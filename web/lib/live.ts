// The live connection: one graphql-ws socket for every subscription of the page. Each subscription
// is (re)started from its own cursor, read at (re)subscribe time, so after a network drop, a
// server restart or a laptop's sleep the stream resumes after the last event seen — nothing missed;
// consumers dedupe by seq/cursor, so nothing doubles either. Dead sockets are found by ping/pong.
import { createClient, type Client } from 'graphql-ws';
import type { TypedDocumentString } from '../gql/graphql';
import { trustedDocument } from './client';

export type LiveState = 'connecting' | 'live' | 'reconnecting' | 'offline';

type Sub = {
  make: () => { query: string; variables: Record<string, unknown>; extensions?: Record<string, unknown> };
  onData: (data: unknown) => void;
  onError?: (message: string) => void;
  stop?: () => void;
};

const PING_MS = 8_000;
const PONG_TIMEOUT_MS = 4_000;

class Live {
  state: LiveState = 'connecting';
  private listeners = new Set<() => void>();
  private subs = new Set<Sub>();
  private client: Client | undefined;
  private socket: WebSocket | undefined;
  private attempt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private started = false;
  /** How many times the connection came back (shown for transparency, used by tests). */
  reconnects = 0;
  private everConnected = false;

  private setState(s: LiveState) {
    if (this.state === s) return;
    this.state = s;
    for (const l of this.listeners) l();
  }

  onChange(l: () => void) {
    this.listeners.add(l);
    return () => void this.listeners.delete(l);
  }

  private start() {
    if (this.started || typeof window === 'undefined') return;
    this.started = true;
    window.addEventListener('offline', () => this.drop('offline'));
    window.addEventListener('online', () => this.reconnectNow());
    document.addEventListener('visibilitychange', () => {
      // Back from sleep/background: make sure the socket still answers.
      if (document.visibilityState === 'visible' && this.state !== 'live') this.reconnectNow();
    });
    this.connect();
  }

  private connect() {
    clearTimeout(this.timer);
    if (typeof navigator !== 'undefined' && navigator.onLine === false) return this.setState('offline');
    let pongTimer: ReturnType<typeof setTimeout> | undefined;
    const url = `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}/graphql`;
    const client: Client = createClient({
      url,
      lazy: false,
      retryAttempts: 0,
      keepAlive: PING_MS,
      on: {
        connected: (socket) => {
          if (this.client !== client) return;
          this.socket = socket as WebSocket;
          if (this.everConnected) this.reconnects++;
          this.everConnected = true;
          this.attempt = 0;
          this.setState('live');
          for (const s of this.subs) this.run(s);
        },
        ping: (received) => {
          if (received) return;
          pongTimer = setTimeout(() => {
            if (this.socket?.readyState === WebSocket.OPEN) this.socket.close(4408, 'Request Timeout');
          }, PONG_TIMEOUT_MS);
        },
        pong: (received) => {
          if (received) clearTimeout(pongTimer);
        },
        closed: () => {
          clearTimeout(pongTimer);
          if (this.client !== client) return;
          this.halt();
          this.client = undefined;
          this.socket = undefined;
          if (this.state !== 'offline') {
            this.setState('reconnecting');
            this.schedule();
          }
        },
      },
    });
    this.client = client;
  }

  private schedule() {
    clearTimeout(this.timer);
    const delay = Math.min(500 * 2 ** this.attempt, 8_000) + Math.random() * 250;
    this.attempt++;
    this.timer = setTimeout(() => this.connect(), delay);
  }

  private halt() {
    for (const s of this.subs) {
      const stop = s.stop;
      s.stop = undefined;
      try {
        stop?.();
      } catch {
        /* the socket is gone already */
      }
    }
  }

  /** Closes the socket now (offline, or a test dropping the connection). */
  drop(next: 'offline' | 'reconnecting' = 'reconnecting') {
    const c = this.client;
    this.client = undefined;
    this.socket = undefined;
    this.halt();
    void c?.dispose();
    this.setState(next);
    if (next === 'reconnecting') this.schedule();
  }

  reconnectNow() {
    this.attempt = 0;
    if (this.client && this.state === 'live') return;
    const c = this.client;
    this.client = undefined;
    void c?.dispose();
    this.setState('reconnecting');
    this.connect();
  }

  private run(s: Sub) {
    if (!this.client || this.state !== 'live') return;
    s.stop?.();
    const client = this.client;
    s.stop = client.subscribe(s.make(), {
      next: (r) => {
        if (r.errors?.length) s.onError?.(r.errors[0]!.message);
        else if (r.data) s.onData(r.data);
      },
      // A socket error ends every subscription; the reconnect restarts them from their cursors.
      error: (e) => {
        if (Array.isArray(e) && e[0]?.message) s.onError?.(String(e[0].message));
      },
      complete: () => {},
    });
  }

  subscribe<TResult, TVars extends Record<string, unknown>>(
    doc: TypedDocumentString<TResult, TVars>,
    variables: () => TVars,
    onData: (data: TResult) => void,
    onError?: (message: string) => void,
  ): () => void {
    this.start();
    // The socket names the trusted document by its id (the server runs the text it holds for it).
    const id = trustedDocument(doc);
    const persisted = 'documentId' in id ? { persistedQuery: { version: 1, sha256Hash: id.documentId.replace(/^sha256:/, '') } } : undefined;
    const sub: Sub = {
      make: () => ({ query: 'documentId' in id ? '' : id.query, variables: variables(), ...(persisted ? { extensions: persisted } : {}) }),
      onData: onData as (d: unknown) => void,
      onError,
    };
    this.subs.add(sub);
    this.run(sub);
    return () => {
      this.subs.delete(sub);
      sub.stop?.();
      sub.stop = undefined;
    };
  }
}

export const live = new Live();

if (typeof window !== 'undefined') (window as unknown as { __atelierLive?: Live }).__atelierLive = live;
