// Context benchmark: how big each model request is, how much of it is an unchanged prefix of the
// same task's previous request (what a provider's prompt cache can reuse), when compaction
// happened, and how the size grows with task length.
//   1. the scenario runs (test/scenarios, offline model): per task and step;
//   2. a synthetic long task (scripted model: alternating add_note and a tool with a ~6 KB output),
//      once with compaction and once without (the baseline, same run, same machine);
//   3. memory retrieval at 10,000 memories under load (./context/retrieval.ts): the worker's memory
//      context p50/p99 against a primary-key SELECT on the same pool, MEMORY_UNAVAILABLE count and
//      sequential scans of the memory tables;
//   4. background pickup (./context/pickup.ts): send → handler start per pg-boss queue on an idle
//      app, and a stated fact → retrievable from memory.
//
//   npm run bench:context               full run (6 scenarios, 200-step task)
//   npm run bench:context -- --quick    smoke run (2 scenarios, 60-step task)
//
// A request is its tool definitions (sent first) and its messages; the cacheable share of each is
// measured apart, and of the whole request (./context/checks.ts explains each). Block granularity of
// real provider caches is ignored.
//
// Prints tables, then the verdict and one line `BENCH_RESULT {json}`. Exits 1 when a scenario fails,
// a long task does not complete or its replay diverges, or a share or size ratio is past its bound.
import { z } from 'zod';
import type { Viewer } from '../../server/auth/viewer.ts';
import { canonicalJson } from '../../server/channel/payload.ts';
import type { PrismaClient } from '../../server/db/client.ts';
import { runTurn } from '../../server/runtime/engine.ts';
import { scriptedProvider } from '../../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../../server/runtime/models/scripted-model.ts';
import { replayTask } from '../../server/runtime/replay.ts';
import { defineTool } from '../../server/runtime/tools/types.ts';
import { createTask } from '../../server/services/tasks/create-task.ts';
import { startTestApp } from '../helpers/app.ts';
import { withScenario } from '../scenarios/harness.ts';
import { SCENARIOS } from '../scenarios/scenarios.ts';
import {
  checkContext, checkPickup, checkRetrieval, contextFigures, contextGates, FACT_TARGET_MS, longTasks, measureStep, pickupGates, PICKUP_TARGET_MS,
  plantContext, retrievalGates, RETRIEVAL_TARGET_MS, shares, type ContextResults, type LongRun, type StepStat,
} from './context/checks.ts';
import { benchPickup } from './context/pickup.ts';
import { benchMemoryRetrieval } from './context/retrieval.ts';
import { fmt, round, table } from './stats.ts';
import { plantRequested, verdict } from './verdict.ts';

const QUICK = process.argv.includes('--quick');
const CFG = QUICK ? { mode: 'quick', scenarios: 2, longSteps: 60 } : { mode: 'full', scenarios: SCENARIOS.length, longSteps: 200 };

type Registry = { forModel(): { function: { name: string } }[] };

/** The request as a provider sees it: the tool definitions (the recorded request keeps their names; the definitions come from the registry), then the messages. */
function requestOf(request: unknown, registry: Registry) {
  const r = (request ?? {}) as { tools?: string[]; messages?: unknown[] };
  const defs = new Map(registry.forModel().map((d) => [d.function.name, d]));
  return { tools: canonicalJson((r.tools ?? []).map((n) => defs.get(n) ?? n)), messages: (r.messages ?? []).map((m) => canonicalJson(m)) };
}

async function taskStats(prisma: PrismaClient, registry: Registry, taskId: string): Promise<StepStat[]> {
  const steps = await prisma.step.findMany({ where: { taskId }, include: { turn: { select: { number: true } } } });
  steps.sort((a, b) => a.turn.number - b.turn.number || a.index - b.index);
  const rows = await prisma.contextSummary.findMany({ where: { taskId }, orderBy: { version: 'asc' } });
  let prev: ReturnType<typeof requestOf> | null = null;
  return steps.map((s, ordinal) => {
    const cur = requestOf(s.request, registry);
    const m = measureStep(prev, cur);
    prev = cur;
    const routing = (s.routing ?? {}) as { role?: string };
    return { ordinal, ...m, compactions: rows.filter((r) => r.atStep === ordinal).map((r) => r.stage), model: s.model, role: routing.role ?? '?' };
  });
}

const kb = (n: number) => `${fmt(n / 1000, 1)}k`;
const pct = (x: number) => fmt(x * 100, 1);
const size = (s: StepStat) => s.toolChars + s.msgChars;

async function longTask(label: string, compactAtChars: number): Promise<LongRun & { ms: number }> {
  const BIG = 'reference material for the long task; '.repeat(160); // ≈ 6 KB
  const fetchRef = defineTool({
    name: 'fetch_reference',
    domain: 'core',
    description: 'Fetch a long reference text.',
    // The right the agent policy requires for it (a tool that is not built in declares its own).
    scope: 'objects:read',
    input: z.object({ n: z.number() }),
    output: z.object({ text: z.string() }),
    safety: 'READ_ONLY',
    async run(input) {
      return { text: `#${input.n} ${BIG}` };
    },
  });
  const model = new ScriptedChatModel(({ call }) => {
    if (call >= CFG.longSteps - 1) return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: `${call} steps` } }] };
    return call % 2 === 0
      ? { content: `reading reference ${call}`, toolCalls: [{ name: 'fetch_reference', args: { n: call } }] }
      : { content: `noting ${call}`, toolCalls: [{ name: 'add_note', args: { text: `note after reference ${call - 1}` } }] };
  });
  const t = await startTestApp(
    `ctxlong_${label}`,
    {
      runtime: {
        leaseMs: 60_000, watchdogMs: 1000, staleQueuedMs: 60_000, workerConcurrency: 1, maxStepsPerTurn: CFG.longSteps + 5, maxTurnsPerTask: 5, plugin: undefined,
        context: { compactAtChars, keepRecentSteps: 6 },
      },
    },
    { models: scriptedProvider(model), tools: [fetchRef] },
  );
  try {
    const viewer: Viewer = { userId: t.a.ownerId, credentialId: 'bench', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
    const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'Collect references' });
    const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id } });
    const started = Date.now();
    const outcome = (await runTurn(t.app.deps.runtime, turn.id, { workerId: 'bench' })).outcome;
    const ms = Date.now() - started;
    const stats = await taskStats(t.app.deps.prisma, t.app.deps.runtime.tools, task.id);
    const replay = await replayTask(t.app.deps.prisma, task.id);
    return { outcome, ms, stats, replayOk: replay.divergence === null };
  } finally {
    await t.close();
  }
}

async function main(): Promise<number> {
  // ---- 1. scenarios
  const scenarios: ContextResults['scenarios'] = [];
  for (const s of SCENARIOS.slice(0, CFG.scenarios)) {
    const entry: ContextResults['scenarios'][number] = { name: s.name, error: null, tasks: [] };
    scenarios.push(entry);
    try {
      await withScenario(`ctx_${s.name.split(':')[0]!.replace(/\W+/g, '_').slice(0, 8)}`, async (ctx) => {
        await s.run(ctx);
        const prisma = ctx.t.app.deps.prisma;
        const tasks = await prisma.task.findMany({ where: { workspaceId: ctx.t.a.workspaceId }, select: { id: true, title: true }, orderBy: { createdAt: 'asc' } });
        for (const task of tasks) {
          const stats = await taskStats(prisma, ctx.t.app.deps.runtime.tools, task.id);
          if (stats.length) entry.tasks.push({ label: `${s.name.slice(0, 28)} / ${task.title.slice(0, 24)}`, stats });
        }
      });
    } catch (e) {
      entry.error = (e as Error).message.slice(0, 200);
    }
  }
  // ---- 2. synthetic long task, with and without compaction
  const on = await longTask('on', 40_000);
  const off = await longTask('off', 1_000_000_000);
  let results: ContextResults = { scenarios, long: { on, off } };
  const planted = plantRequested();
  if (planted) results = plantContext(results, planted);
  const f = contextFigures(results);

  console.log(`context benchmark (${CFG.mode})\n`);
  console.log(`1. scenario runs: request size per step; cacheable share (%) vs the task's previous request, of the message part and of the whole request`);
  const rows: string[][] = [];
  for (const s of results.scenarios) {
    if (s.error) rows.push([`${s.name.slice(0, 40)} FAILED: ${s.error.slice(0, 80)}`, '', '', '', '', '', '', '']);
    for (const t of s.tasks) {
      const sh = shares(t.stats);
      const per = (g: (x: StepStat) => number) => t.stats.map((x, i) => (i === 0 ? '-' : `${Math.round(g(x) * 100)}`)).join(' ');
      rows.push([
        t.label, String(t.stats.length), t.stats.map((x) => kb(size(x))).join(' '), `${Math.round(sh.toolShareOfRequest * 100)}%`,
        per((x) => (x.msgChars ? x.msgPrefix / x.msgChars : 0)), per((x) => x.requestPrefix / size(x)),
        t.stats.flatMap((x) => x.compactions.map((st) => `${x.ordinal}:${st}`)).join(',') || '-', t.stats.map((x) => x.breakAt).join(' '),
      ]);
    }
  }
  console.log(table(['scenario / task', 'steps', 'size per step', 'tools of size', 'messages cacheable %', 'request cacheable %', 'compactions', 'first change (t=tools, m<i>)'], rows));
  const sc = f.scenarios;
  console.log(
    `tasks with ≥ 6 steps (${longTasks(results).length}): messages ${pct(sc.messages)}% cacheable; tool definitions ${pct(sc.tools)}% unchanged` +
      ` (${pct(sc.toolShareOfRequest)}% of each request); whole request ${pct(sc.request)}%\n`,
  );
  console.log(`2. synthetic task, ${CFG.longSteps} steps (add_note + a ~6 KB tool output every other step): request size by task length`);
  const checkpoints = [1, 10, 20, 40, 60, 80, 100, 120, 150, 180, 200].filter((c) => c <= CFG.longSteps).map((c) => c - 1);
  const share = (s: StepStat | undefined) => (s && s.msgChars ? fmt((s.msgPrefix / s.msgChars) * 100, 0) : 'n/a');
  console.log(
    table(
      ['step', 'compaction on', 'messages cacheable %', 'compaction off (baseline)', 'messages cacheable %', 'size ratio on/off'],
      checkpoints
        .filter((c) => results.long.on.stats[c] && results.long.off.stats[c])
        .map((c) => {
          const a = results.long.on.stats[c]!;
          const b = results.long.off.stats[c]!;
          return [String(c + 1), kb(size(a)), c ? share(a) : '-', kb(size(b)), c ? share(b) : '-', fmt(size(a) / size(b), 2)];
        }),
    ),
  );
  const max = (s: StepStat[]) => Math.max(0, ...s.map(size));
  console.log(
    `with compaction: max ${kb(max(on.stats))}, messages ${pct(f.on.messages)}% cacheable (whole request ${pct(f.on.request)}%), ` +
      `compactions ${on.stats.flatMap((x) => x.compactions.map((st) => `${x.ordinal}:${st}`)).join(', ') || 'none'}, replay ${results.long.on.replayOk ? 'ok' : 'DIVERGED'}, ${fmt(on.ms / 1000, 1)} s\n` +
      `baseline:        max ${kb(max(off.stats))}, messages ${pct(f.off.messages)}% cacheable (whole request ${pct(f.off.request)}%); size ratio at the end ${fmt(f.sizeRatioAtEnd, 3)}`,
  );
  // ---- 3. memory retrieval at 10,000 memories, under load
  const retrieval = await benchMemoryRetrieval({ quick: QUICK });
  const ms = (x: number) => fmt(x, 1);
  console.log(
    `\n3. memory retrieval p99 at ${retrieval.memories / 1000}k memories: ${ms(retrieval.p99)} ms (target ≤ ${RETRIEVAL_TARGET_MS} ms) — baseline ${ms(retrieval.baselineP99)} ms` +
      ` (p99 of a primary-key SELECT on the same pool under the same load; ×${fmt(retrieval.p99 / retrieval.baselineP99, 1)})\n` +
      `   under load p50 ${ms(retrieval.p50)} ms, max ${ms(retrieval.max)} ms over ${retrieval.samples} retrievals (baseline p50 ${ms(retrieval.baselineP50)} ms);` +
      ` alone p50/p99 ${ms(retrieval.idleP50)}/${ms(retrieval.idleP99)} ms\n` +
      `   load: ${retrieval.load.workers} other workers' step loops (retrieval + 3 event appends, back to back): ${retrieval.load.retrievals} retrievals, ${retrieval.load.appends} appends\n` +
      `   MEMORY_UNAVAILABLE: ${retrieval.unavailableCount} (budget ${retrieval.budgetMs} ms); seeded in ${fmt(retrieval.seedMs / 1000, 1)} s: ${Object.entries(retrieval.rows).map(([k, v]) => `${v} ${k}`).join(', ')} (both workspaces)\n` +
      `   sequential scans during the run: ${Object.entries(retrieval.seqScans).filter(([, v]) => v.scans).map(([k, v]) => `${k} ${v.scans} (${v.rows} rows)`).join(', ') || 'none'}`,
  );
  // ---- 4. background pickup
  const pickup = await benchPickup({ quick: QUICK });
  console.log(`\n4. background work: send → handler start on an idle app (target ≤ ${PICKUP_TARGET_MS} ms)`);
  console.log(table(['queue', 'jobs', 'p50 ms', 'p99 ms', 'max ms'], pickup.queues.map((q) => [q.queue, String(q.samples), ms(q.p50), ms(q.p99), ms(q.max)])));
  console.log(`stated fact → retrievable from memory: p50 ${ms(pickup.fact.p50)} ms, p99 ${ms(pickup.fact.p99)} ms over ${pickup.fact.samples} messages (target ≤ ${FACT_TARGET_MS} ms)`);

  const violations = [...checkContext(results), ...checkRetrieval(retrieval), ...checkPickup(pickup)];
  const gates = [...contextGates(results), ...retrievalGates(retrieval), ...pickupGates(pickup)];
  const code = verdict('bench:context', violations, gates, planted);
  const r3 = (x: number) => round(x, 3);
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      mode: CFG.mode,
      scenarios: results.scenarios.map((s) => ({ name: s.name, error: s.error, tasks: s.tasks.map((t) => ({ label: t.label, steps: t.stats.length, ...Object.fromEntries(Object.entries(shares(t.stats)).map(([k, x]) => [k, r3(x)])) })) })),
      scenarioTasksAtLeast6Steps: { messages: r3(sc.messages), tools: r3(sc.tools), request: r3(sc.request), toolShareOfRequest: r3(sc.toolShareOfRequest) },
      long: {
        steps: CFG.longSteps,
        on: { maxChars: max(on.stats), messages: r3(f.on.messages), request: r3(f.on.request), replayOk: results.long.on.replayOk, outcome: on.outcome },
        off: { maxChars: max(off.stats), messages: r3(f.off.messages), request: r3(f.off.request), outcome: off.outcome },
        sizeRatioAtEnd: r3(f.sizeRatioAtEnd),
      },
      memoryRetrieval: {
        memories: retrieval.memories, samples: retrieval.samples, p50: r3(retrieval.p50), p99: r3(retrieval.p99), max: r3(retrieval.max),
        idleP50: r3(retrieval.idleP50), idleP99: r3(retrieval.idleP99), baselineP50: r3(retrieval.baselineP50), baselineP99: r3(retrieval.baselineP99),
        unavailableCount: retrieval.unavailableCount, seqScans: retrieval.seqScans, load: retrieval.load,
      },
      pickup: { queues: pickup.queues.map((q) => ({ ...q, p50: r3(q.p50), p99: r3(q.p99), max: r3(q.max) })), fact: { ...pickup.fact, p50: r3(pickup.fact.p50), p99: r3(pickup.fact.p99), max: r3(pickup.fact.max) } },
      gates: gates.map((g) => ({ ...g, value: r3(g.value) })),
      violations,
    })}`,
  );
  return code;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
