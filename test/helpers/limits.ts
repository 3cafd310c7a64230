// The app and the helpers the query-limit tests share (test/limits-*.test.ts): a timed POST, /health
// latency while work runs, and the expensive documents.
import { after, before } from 'node:test';
import { startTestApp, type TestApp } from './app.ts';
import { gqlOk, toGlobalId } from './clients.ts';
import { CreateTask } from './documents.ts';
import { pause } from './wait.ts';

export let t: TestApp;
export let taskGid: string;

/** One app per test file, with a task whose title the mutation-flood tests check is unchanged. */
export function useLimitsApp(): void {
  before(async () => {
    t = await startTestApp('limits');
    const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'original' } });
    taskGid = d.createTask.task.id;
  });
  after(async () => {
    await t.close();
  });
}

export type Res = { status: number; ms: number; headers: Headers; json: { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] } };

export async function post(url: string, token: string | null, query: string, variables?: Record<string, unknown>): Promise<Res> {
  const started = performance.now();
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const json = (await res.json()) as Res['json'];
  return { status: res.status, ms: performance.now() - started, headers: res.headers, json };
}

/** /health latencies while `work` runs: the event loop must stay free. */
export async function healthDuring<T>(url: string, work: Promise<T>): Promise<{ result: T; worstHealthMs: number }> {
  let done = false;
  let worst = 0;
  const probe = (async () => {
    while (!done) {
      const s = performance.now();
      await fetch(`${url}/health`).then((r) => r.text());
      worst = Math.max(worst, performance.now() - s);
      // The probe's pace: a /health request every few ms measures the event loop while `work` runs.
      await pause(5);
    }
  })();
  try {
    return { result: await work, worstHealthMs: worst };
  } finally {
    done = true;
    await probe;
  }
}

export const codes = (r: Res) => (r.json.errors ?? []).map((e) => e.extensions?.code);
export const messages = (r: Res) => (r.json.errors ?? []).map((e) => e.message).join(' | ');

/** 26 fragments, each spreading the next twice: 2^26 fields once expanded, 1 KB of text. */
export function fragmentBomb(levels = 26): string {
  let doc = '{ ...F0 }\n';
  for (let i = 0; i < levels; i++) doc += `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }\n`;
  return doc + `fragment F${levels} on Query { __typename }`;
}

export const introspectionAliases = (n: number) =>
  '{' + Array.from({ length: n }, (_, i) => `a${i}: __schema { types { name fields { name args { name } type { name ofType { name } } } } }`).join(' ') + '}';

export const fakeIds = (n: number) => Array.from({ length: n }, (_, i) => toGlobalId('Task', `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`));

// Generous bounds for a loaded 2-core CI machine; before the limits these documents took 10–20 s.
export const FAST_MS = 2_000;
