// The MCP server, measured two ways against the same in-process server:
//  - Its cost per read: tools/call get_task over Streamable HTTP (the SDK's client, one session)
//    against the equivalent GraphQL query over HTTP (the same fields: status, reason, checklist,
//    pending cards, result files with signed URLs), interleaved round by round after a warm-up.
//  - How fast a milestone reaches a client waiting in tasks/result: from appending a task event
//    (appendNow, the way progress and notes are appended) to the client's logging notification
//    carrying it, one event at a time.
//
//   npm run bench:mcp-server              full run (1,000 read rounds, 200 milestones)
//   npm run bench:mcp-server -- --quick   CI run (100 read rounds, 30 milestones, under 30 s with start-up)
//
// Exit 1 when an answer is wrong (another task, status or title than the database holds), a
// milestone is missing, repeated or out of order, or the MCP round trip's p50 is past ×4 the
// GraphQL one (a generous ceiling: both do the same reads; MCP adds JSON-RPC framing, an SSE
// response and output shaping). The milestone latency is printed, not judged. Prints p50/p99 of
// each, then `BENCH_RESULT {json}`.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, LoggingMessageNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { appendNow } from '../../server/channel/unit-of-work.ts';
import { signalTask } from '../../server/services/tasks/signal-task.ts';
import { createTask } from '../../server/services/tasks/create-task.ts';
import { authenticateToken } from '../../server/auth/viewer.ts';
import { startTestApp } from '../helpers/app.ts';
import { toGlobalId } from '../helpers/ids.ts';
import { waitFor } from '../helpers/wait.ts';
import { fmt, percentile, round } from './stats.ts';

const QUICK = process.argv.includes('--quick');
const ROUNDS = QUICK ? 100 : 1000;
const WARMUP = QUICK ? 10 : 50;
const MILESTONES = QUICK ? 30 : 200;
const CEILING = 4;

const QUERY = `query T($id: ID!) { node(id: $id) { ... on Task {
  id title goal status statusReason isTerminal summary lastEventSeq createdAt updatedAt endedAt
  checklist { version items { id title status } }
  approvals(statuses: [PENDING], first: 20) { edges { node { id kind title quoteCents createdAt } } }
  objects { id kind title currentVersion current { file { name mime bytes url urlExpiresAt } } }
} } }`;

async function main(): Promise<number> {
  const t = await startTestApp('benchmcp');
  const violations: string[] = [];
  const client = new Client({ name: 'bench', version: '1' });
  try {
    const viewer = await authenticateToken(t.app.deps.prisma, t.a.ownerToken);
    const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'Bench poster', goal: 'a poster' });
    const id = toGlobalId('Task', task.id);
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${t.a.ownerToken}` } } }));

    const viaMcp = async () => {
      const r = (await client.callTool({ name: 'get_task', arguments: { taskId: id } })) as CallToolResult;
      const got = (r.structuredContent as { task?: { id: string; title: string; status: string } } | undefined)?.task;
      if (r.isError || got?.id !== id || got.title !== task.title || got.status !== 'QUEUED') violations.push(`MCP answered ${JSON.stringify(r).slice(0, 200)}`);
    };
    const viaGraphQL = async () => {
      const res = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: `Bearer ${t.a.ownerToken}` },
        body: JSON.stringify({ query: QUERY, variables: { id } }),
      });
      const body = (await res.json()) as { data?: { node?: { id: string; title: string; status: string } }; errors?: unknown };
      const got = body.data?.node;
      if (body.errors || got?.id !== id || got.title !== task.title || got.status !== 'QUEUED') violations.push(`GraphQL answered ${JSON.stringify(body).slice(0, 200)}`);
    };
    const time = async (f: () => Promise<void>) => {
      const s = performance.now();
      await f();
      return performance.now() - s;
    };
    for (let i = 0; i < WARMUP; i++) {
      await viaMcp();
      await viaGraphQL();
    }
    const started = performance.now();
    const mcp: number[] = [];
    const graphql: number[] = [];
    // Interleaved, the order alternating: neither path always runs on a warmer machine.
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2) {
        mcp.push(await time(viaMcp));
        graphql.push(await time(viaGraphQL));
      } else {
        graphql.push(await time(viaGraphQL));
        mcp.push(await time(viaMcp));
      }
    }
    const p = (xs: number[], q: number) => percentile(xs, q);
    const ratio50 = p(mcp, 50) / p(graphql, 50);
    const ratio99 = p(mcp, 99) / p(graphql, 99);
    if (ratio50 > CEILING) violations.push(`MCP p50 is ×${fmt(ratio50, 2)} the GraphQL p50 (ceiling ×${CEILING})`);
    console.log(`bench:mcp-server (${QUICK ? 'quick' : 'full'}): ${ROUNDS} interleaved rounds in ${fmt((performance.now() - started) / 1000)} s`);
    console.log(`  get_task over MCP (tools/call)   p50 ${fmt(p(mcp, 50), 2)} ms   p99 ${fmt(p(mcp, 99), 2)} ms`);
    console.log(`  the same read over GraphQL/HTTP  p50 ${fmt(p(graphql, 50), 2)} ms   p99 ${fmt(p(graphql, 99), 2)} ms`);
    console.log(`  ratio MCP / GraphQL              p50 ×${fmt(ratio50, 2)}   p99 ×${fmt(ratio99, 2)}   (ceiling p50 ×${CEILING})`);

    // Milestones to a client waiting in tasks/result on the same task (QUEUED: no worker runs it).
    const waiting = new Map<string, () => void>();
    const seen: string[] = [];
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      const text = String((n.params.data as { text?: unknown }).text ?? '');
      const mark = /bench (milestone|warm-up) \d+/.exec(text);
      if (!mark) return;
      if (mark[1] === 'warm-up') return waiting.get('warm-up')?.();
      seen.push(mark[0]);
      waiting.get(mark[0])?.();
    });
    const result = client.experimental.tasks.getTaskResult(id, CallToolResultSchema, { timeout: 600_000 });
    result.catch(() => {});
    // The request reaches the server asynchronously: warm-up events until one arrives show the wait is open.
    const append = (mark: string) => appendNow(t.app.deps, task.id, [{ type: 'TASK_UPDATED', actor: { kind: 'SYSTEM' }, payload: { summary: mark } }]);
    let open = false;
    let warmups = 0;
    waiting.set('warm-up', () => (open = true));
    await waitFor(async () => open || (await append(`bench warm-up ${warmups++}`), null), 'tasks/result streaming a milestone', { timeoutMs: 20_000, intervalMs: 50 });
    const milestone = async (i: number) => {
      const mark = `bench milestone ${i}`;
      const arrived = new Promise<void>((resolve) => waiting.set(mark, resolve));
      const s = performance.now();
      await append(mark);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<'late'>((resolve) => (timer = setTimeout(() => resolve('late'), 10_000)));
      if ((await Promise.race([arrived, late])) === 'late') violations.push(`${mark} did not arrive within 10 s`);
      clearTimeout(timer);
      waiting.delete(mark);
      return performance.now() - s;
    };
    const latency: number[] = [];
    for (let i = 1; i <= MILESTONES; i++) latency.push(await milestone(i));
    const expected = Array.from({ length: MILESTONES }, (_, i) => `bench milestone ${i + 1}`);
    if (seen.join('|') !== expected.join('|')) violations.push(`milestones arrived as ${seen.length} notifications, not each once in order`);
    await signalTask(t.app.deps, viewer, { taskId: task.id, signal: 'CANCEL', reason: 'bench over' });
    const ended = (await result) as CallToolResult;
    if ((ended.structuredContent as { task?: { status?: string } } | undefined)?.task?.status !== 'CANCELLED') {
      violations.push(`tasks/result ended with ${JSON.stringify(ended).slice(0, 200)}`);
    }
    console.log(
      `  milestone → tasks/result waiter   p50 ${fmt(p(latency, 50), 2)} ms   p99 ${fmt(p(latency, 99), 2)} ms   max ${fmt(Math.max(...latency), 2)} ms   (${MILESTONES} events, from the append call to the client's notification)`,
    );
    for (const v of [...new Set(violations)].slice(0, 5)) console.log(`  ✖ ${v}`);
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        quick: QUICK,
        rounds: ROUNDS,
        mcp: { p50: round(p(mcp, 50)), p99: round(p(mcp, 99)) },
        graphql: { p50: round(p(graphql, 50)), p99: round(p(graphql, 99)) },
        ratio: { p50: round(ratio50), p99: round(ratio99) },
        milestone: { events: MILESTONES, p50: round(p(latency, 50)), p99: round(p(latency, 99)), max: round(Math.max(...latency)) },
        violations: violations.length,
      })}`,
    );
  } finally {
    await client.close().catch(() => {});
    await t.close();
  }
  return violations.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
