// bench:limits' server and its clients: the real server in a process of its own, the workspace and
// task the documents point at, one request timed to its refusal, and the /health probe that runs
// meanwhile.
import { performance } from 'node:perf_hooks';
import { createPrisma } from '../../../server/db/client.ts';
import { initWorkspace } from '../../../server/services/workspaces/init-workspace.ts';
import { toGlobalId } from '../../helpers/ids.ts';
import { startServerProcess, type ServerProcess } from '../../helpers/process.ts';
import { pause, waitFor } from '../../helpers/wait.ts';
import type { Who } from './config.ts';

export type Sample = { ms: number; status: number; refused: boolean; what: string };

/** A workspace in the bench database; its owner's token is the valid one. */
export async function seedWorkspace(dbUrl: string): Promise<{ token: string; workspaceId: string }> {
  const prisma = createPrisma(dbUrl, { max: 1 });
  const init = await initWorkspace(prisma, { workspaceName: 'Bench' });
  await prisma.$disconnect();
  return { token: init.token, workspaceId: init.workspace.id };
}

/**
 * The real server in a process of its own (default limits), so that building the documents and
 * probing here never share its event loop: a stall /health sees is the server's. The rate limit
 * is lifted so the bench measures the document limits, not the token bucket.
 */
export function startLimitsServer(dbUrl: string): Promise<ServerProcess> {
  return startServerProcess({ DATABASE_URL: dbUrl, ATELIER_RATE_LIMIT_PER_MINUTE: '100000000' }, 60_000, ['--api-only']);
}

/** The one task of the bench database (the mutation flood updates it); its global id. */
export async function createBenchTask(url: string, seed: { token: string; workspaceId: string }): Promise<string> {
  const created = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${seed.token}` },
    body: JSON.stringify({
      query: 'mutation($input: CreateTaskInput!) { createTask(input: $input) { task { id } } }',
      variables: { input: { workspaceId: toGlobalId('Workspace', seed.workspaceId), title: 'bench' } },
    }),
  }).then((r) => r.json() as Promise<{ data: { createTask: { task: { id: string } } } }>);
  return created.data.createTask.task.id;
}

/** The token each caller sends: none, one that looks right but is unknown, the owner's. */
export function callerTokens(validToken: string): Record<Who, string | null> {
  return { 'no token': null, 'forged token': 'atl_forged_token_for_the_bench', 'valid token': validToken };
}

export async function send(url: string, token: string | null, body: string): Promise<Sample> {
  const started = performance.now();
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
  const text = await res.text();
  const ms = performance.now() - started;
  let json: { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] } = {};
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: not refused the way we expect */
  }
  const errors = json.errors ?? [];
  // Refused: an error and no data at all (nothing executed, or its one field failed).
  const refused = errors.length > 0 && (json.data === undefined || json.data === null);
  const first = errors[0];
  const what = first ? `${first.extensions?.code ?? '?'}: ${first.message}` : `status ${res.status}, no error`;
  return { ms, status: res.status, refused, what };
}

/** Polls /health every 10 ms until stopped; returns the latencies. */
export function healthProbe(url: string) {
  const samples: number[] = [];
  let running = true;
  let started = 0;
  let done = 0;
  const loop = (async () => {
    while (running) {
      started++;
      const s = performance.now();
      try {
        await fetch(`${url}/health`).then((r) => r.text());
        samples.push(performance.now() - s);
      } catch {
        samples.push(Infinity);
      } finally {
        done++;
      }
      // The probe's pace: one /health round trip every ~10 ms measures the event loop meanwhile.
      await pause(10);
    }
  })();
  return {
    take: () => samples.splice(0),
    /** Resolves once the round in flight now (one that overlapped the last request) has its sample. */
    caughtUp: () => {
      const inFlight = started;
      return waitFor(() => done >= inFlight, 'the health probe round in flight', { timeoutMs: 30_000, intervalMs: 1 });
    },
    stop: async () => {
      running = false;
      await loop;
    },
  };
}
