// MCP tool bus benchmark: what a call costs through the bus — the tool definition the model is
// given, run through the tool registry (input checked against the pinned schema, the server's
// record, the pooled connection, `_meta` with the call's key, the result shaped for the model)
// — against the same call made directly with an SDK client (client.callTool) to the same local
// server, in the same run, in interleaved rounds.
//
//   npm run bench:mcp                 full run
//   npm run bench:mcp -- --quick      CI smoke run (< 30 s)
//
// Target: bus p50 ≤ 1.5 × direct p50. Exits 1 past 3 × (p50) or on a wrong result.
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Viewer } from '../../server/auth/viewer.ts';
import { registerMcpServer } from '../../server/services/mcp/register-server.ts';
import type { ToolContext } from '../../server/runtime/tools/types.ts';
import { startTestApp } from '../helpers/app.ts';
import { startMcpTestServer } from '../fixtures/mcp-test-server.ts';
import { fmt, percentile, table } from './stats.ts';

const quick = process.argv.includes('--quick');
const ROUNDS = quick ? 5 : 20;
const PER_ROUND = quick ? 40 : 100;
const TARGET = 1.5;
const FLOOR = 3;

async function main(): Promise<number> {
  const srv = await startMcpTestServer();
  const t = await startTestApp('benchmcp');
  try {
    const viewer = { userId: t.a.ownerId, credentialId: 'bench', principal: 'HUMAN', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) } as Viewer;
    await registerMcpServer(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'bench', title: 'Bench server', transport: 'HTTP', url: srv.url });
    const rt = t.app.deps.runtime;
    const registry = await rt.mcp!.registryFor(t.a.workspaceId, rt.tools);
    const def = registry.get('bench__add');
    if (!def) throw new Error('bench__add is not offered');
    const ctx = (i: number): ToolContext => ({ idempotencyKey: `bench:0:${i}`, taskId: '00000000-0000-0000-0000-000000000000', workspaceId: t.a.workspaceId, turnId: '00000000-0000-0000-0000-000000000000', uow: rt, signal: new AbortController().signal });

    const direct = new Client({ name: 'bench-direct', version: '1.0.0' });
    await direct.connect(new StreamableHTTPClientTransport(new URL(srv.url)));
    await direct.listTools();

    let wrong = 0;
    const viaBus = async (i: number) => {
      const r = (await registry.run(def, { a: i, b: 1 }, ctx(i))) as { structured?: { sum?: number } };
      if (r.structured?.sum !== i + 1) wrong++;
    };
    const viaSdk = async (i: number) => {
      const r = await direct.callTool({ name: 'add', arguments: { a: i, b: 1 } });
      if ((r.structuredContent as { sum?: number } | undefined)?.sum !== i + 1) wrong++;
    };
    // Warm-up: connections, compiled validators, JIT.
    for (let i = 0; i < 30; i++) {
      await viaBus(i);
      await viaSdk(i);
    }
    const bus: number[] = [];
    const sdk: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      // Interleaved, the order alternating per round, so drift hits both alike.
      const order = round % 2 === 0 ? ['bus', 'sdk'] : ['sdk', 'bus'];
      for (const which of order) {
        for (let i = 0; i < PER_ROUND; i++) {
          const t0 = performance.now();
          if (which === 'bus') await viaBus(i);
          else await viaSdk(i);
          (which === 'bus' ? bus : sdk).push(performance.now() - t0);
        }
      }
    }
    await direct.close();
    const p = (xs: number[], q: number) => percentile(xs, q);
    const ratio50 = p(bus, 50) / p(sdk, 50);
    const ratio99 = p(bus, 99) / p(sdk, 99);
    process.stdout.write(
      `bench:mcp (${quick ? 'quick' : 'full'}): ${ROUNDS} interleaved rounds × ${PER_ROUND} calls each way, tool "add" of a local Streamable HTTP server\n\n` +
        table(
          ['path', 'calls', 'p50 ms', 'p99 ms'],
          [
            ['direct SDK client.callTool (baseline)', String(sdk.length), fmt(p(sdk, 50), 3), fmt(p(sdk, 99), 3)],
            ['tool bus: registry.run(ToolDef)', String(bus.length), fmt(p(bus, 50), 3), fmt(p(bus, 99), 3)],
            ['ratio bus ÷ direct', '', `${fmt(ratio50, 2)} ×`, `${fmt(ratio99, 2)} ×`],
          ],
        ) +
        `\n\ntarget p50 ≤ ${TARGET} × direct: ${ratio50 <= TARGET ? 'met' : 'not met'}; gate ${FLOOR} ×: ${ratio50 <= FLOOR ? 'passed' : 'FAILED'}; wrong results: ${wrong}\n`,
    );
    process.stdout.write(`BENCH_RESULT ${JSON.stringify({ mode: quick ? 'quick' : 'full', calls: bus.length, busP50: p(bus, 50), busP99: p(bus, 99), directP50: p(sdk, 50), directP99: p(sdk, 99), ratioP50: ratio50, ratioP99: ratio99, wrong })}\n`);
    return ratio50 > FLOOR || wrong > 0 ? 1 : 0;
  } finally {
    await t.close();
    await srv.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    process.stderr.write(`bench:mcp failed: ${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  },
);
