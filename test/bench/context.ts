// Context benchmark (issue 9): how big each model request is, how much of it is an unchanged prefix
// of the same task's previous request (what a provider's prompt cache can reuse), when compaction
// happened, and how the size grows with task length.
//   1. the scenario runs (test/scenarios, offline model): per task and step;
//   2. a synthetic long task (scripted model: alternating add_note and a tool with a ~6 KB output),
//      once with compaction and once without (the baseline, same run, same machine).
//
//   npm run bench:context               full run (6 scenarios, 200-step task)
//   npm run bench:context -- --quick    smoke run (2 scenarios, 60-step task)
//
// Sizes are characters of the request as sent: tool definitions (JSON schema) first, then the
// messages. The cacheable share of a step is the longest common prefix with the task's previous
// request over the step's size (providers cache exact prefixes; block granularity is ignored).
//
// Prints tables, then one line `BENCH_RESULT {json}`. Never asserts.
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
import { fmt, round, table } from './stats.ts';

const QUICK = process.argv.includes('--quick');
const CFG = QUICK ? { mode: 'quick', scenarios: 2, longSteps: 60 } : { mode: 'full', scenarios: SCENARIOS.length, longSteps: 200 };

type StepStat = { ordinal: number; chars: number; prefix: number; share: number; compactions: number[]; model: string; role: string; breakAt: string };

/** Where the request first differs from the previous one: t = tool definitions, m<i> = message i. */
function breakAt(a: string[] | null, b: string[]): string {
  if (!a) return '-';
  let i = 0;
  while (i < Math.min(a.length, b.length) && a[i] === b[i]) i++;
  return i === 0 ? 't' : `m${i - 1}`;
}

type Registry = { forModel(): { function: { name: string } }[] };

/**
 * The request as a provider sees it, in order: the tool definitions (the recorded request keeps
 * only their names; the definitions come from the registry), then the messages.
 */
function parts(request: unknown, registry: Registry): string[] {
  const r = (request ?? {}) as { tools?: string[]; messages?: unknown[] };
  const defs = new Map(registry.forModel().map((d) => [d.function.name, d]));
  return [canonicalJson((r.tools ?? []).map((n) => defs.get(n) ?? n)), ...(r.messages ?? []).map((m) => canonicalJson(m))];
}

function commonPrefix(a: string[], b: string[]): number {
  let n = 0;
  for (let i = 0; i < Math.min(a.length, b.length); i++) {
    if (a[i] === b[i]) {
      n += a[i]!.length;
      continue;
    }
    const x = a[i]!;
    const y = b[i]!;
    let k = 0;
    while (k < x.length && k < y.length && x[k] === y[k]) k++;
    return n + k;
  }
  return n;
}

async function taskStats(prisma: PrismaClient, registry: Registry, taskId: string): Promise<StepStat[]> {
  const steps = await prisma.step.findMany({ where: { taskId }, include: { turn: { select: { number: true } } } });
  steps.sort((a, b) => a.turn.number - b.turn.number || a.index - b.index);
  const rows = await prisma.contextSummary.findMany({ where: { taskId }, orderBy: { version: 'asc' } });
  let prev: string[] | null = null;
  return steps.map((s, ordinal) => {
    const p = parts(s.request, registry);
    const chars = p.reduce((n, x) => n + x.length, 0);
    const prefix = prev ? commonPrefix(prev, p) : 0;
    const brk = breakAt(prev, p);
    prev = p;
    const routing = (s.routing ?? {}) as { role?: string };
    return { ordinal, chars, prefix, share: chars ? prefix / chars : 0, compactions: rows.filter((r) => r.atStep === ordinal).map((r) => r.stage), model: s.model, role: routing.role ?? '?', breakAt: brk };
  });
}

const kb = (n: number) => `${fmt(n / 1000, 1)}k`;

function summarize(label: string, stats: StepStat[]) {
  const later = stats.slice(1);
  const weighted = later.reduce((n, s) => n + s.prefix, 0) / Math.max(1, later.reduce((n, s) => n + s.chars, 0));
  return {
    label,
    steps: stats.length,
    firstChars: stats[0]?.chars ?? 0,
    lastChars: stats.at(-1)?.chars ?? 0,
    maxChars: Math.max(0, ...stats.map((s) => s.chars)),
    cacheableShare: later.length ? weighted : NaN,
    compactions: stats.flatMap((s) => s.compactions.map((st) => `${s.ordinal}:${st}`)),
    smallModelShare: stats.length ? stats.filter((s) => s.role === 'router').length / stats.length : 0,
  };
}

// ---- 1. scenarios ----
const scenarioRows: string[][] = [];
const scenarioSummaries: ReturnType<typeof summarize>[] = [];
for (const s of SCENARIOS.slice(0, CFG.scenarios)) {
  try {
    await withScenario(`ctx_${s.name.split(':')[0]!.replace(/\W+/g, '_').slice(0, 8)}`, async (ctx) => {
      await s.run(ctx);
      const prisma = ctx.t.app.deps.prisma;
      const tasks = await prisma.task.findMany({ where: { workspaceId: ctx.t.a.workspaceId }, select: { id: true, title: true }, orderBy: { createdAt: 'asc' } });
      for (const task of tasks) {
        const stats = await taskStats(prisma, ctx.t.app.deps.runtime.tools, task.id);
        if (!stats.length) continue;
        const sum = summarize(`${s.name.slice(0, 28)} / ${task.title.slice(0, 24)}`, stats);
        scenarioSummaries.push(sum);
        scenarioRows.push([
          sum.label,
          String(sum.steps),
          stats.map((x) => kb(x.chars)).join(' '),
          stats.map((x, i) => (i === 0 ? '-' : `${Math.round(x.share * 100)}`)).join(' '),
          sum.compactions.join(',') || '-',
          `${Math.round(sum.smallModelShare * 100)}%`,
          stats.map((x) => x.breakAt).join(' '),
        ]);
      }
    });
  } catch (e) {
    scenarioRows.push([`${s.name} FAILED: ${(e as Error).message.slice(0, 80)}`, '', '', '', '', '', '']);
  }
}
console.log(`context benchmark (${CFG.mode})\n\n1. scenario runs: request size per step, cacheable prefix share (%) vs the task's previous request`);
console.log(table(['scenario / task', 'steps', 'size per step', 'cacheable % per step', 'compactions (step:stage)', 'small model', 'first change (t=tools, m<i>=message)'], scenarioRows));
const longer = scenarioSummaries.filter((x) => x.steps >= 6);
const pooled = (xs: typeof scenarioSummaries) => (xs.length ? xs.reduce((n, x) => n + x.cacheableShare * (x.steps - 1), 0) / xs.reduce((n, x) => n + x.steps - 1, 0) : NaN);
console.log(`cacheable share, tasks with ≥ 6 steps: ${fmt(pooled(longer) * 100, 1)}% (target ≥ 80%); all tasks with ≥ 2 steps: ${fmt(pooled(scenarioSummaries.filter((x) => x.steps >= 2)) * 100, 1)}%\n`);

// ---- 2. synthetic long task ----
async function longTask(label: string, compactAtChars: number) {
  const BIG = 'reference material for the long task; '.repeat(160); // ≈ 6 KB
  const fetchRef = defineTool({
    name: 'fetch_reference',
    domain: 'core',
    description: 'Fetch a long reference text.',
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

const withCompaction = await longTask('on', 40_000);
const baseline = await longTask('off', 1_000_000_000);
const checkpoints = [1, 10, 20, 40, 60, 80, 100, 120, 150, 180, 200].filter((c) => c <= CFG.longSteps).map((c) => c - 1);
console.log(`2. synthetic task, ${CFG.longSteps} steps (add_note + a ~6 KB tool output every other step): request size by task length`);
console.log(
  table(
    ['step', 'compaction on', 'cacheable %', 'compaction off (baseline)', 'cacheable %', 'size ratio on/off'],
    checkpoints
      .filter((c) => withCompaction.stats[c] && baseline.stats[c])
      .map((c) => {
        const a = withCompaction.stats[c]!;
        const b = baseline.stats[c]!;
        return [String(c + 1), kb(a.chars), fmt(a.share * 100, 0), kb(b.chars), fmt(b.share * 100, 0), fmt(a.chars / b.chars, 2)];
      }),
  ),
);
const on = summarize('on', withCompaction.stats);
const off = summarize('off', baseline.stats);
console.log(
  `with compaction: max ${kb(on.maxChars)}, last ${kb(on.lastChars)}, cacheable ${fmt(on.cacheableShare * 100, 1)}%, compactions ${on.compactions.join(', ') || 'none'}, replay ${withCompaction.replayOk ? 'ok' : 'DIVERGED'}, ${fmt(withCompaction.ms / 1000, 1)} s\n` +
    `baseline:        max ${kb(off.maxChars)}, last ${kb(off.lastChars)}, cacheable ${fmt(off.cacheableShare * 100, 1)}%; size ratio at the end ${fmt(on.lastChars / off.lastChars, 3)}`,
);
console.log(
  `BENCH_RESULT ${JSON.stringify({
    mode: CFG.mode,
    scenarios: scenarioSummaries.map((x) => ({ ...x, cacheableShare: round(x.cacheableShare, 3), smallModelShare: round(x.smallModelShare, 2) })),
    scenarioCacheableShareLongTasks: round(pooled(longer), 3),
    long: {
      steps: CFG.longSteps,
      on: { maxChars: on.maxChars, lastChars: on.lastChars, cacheableShare: round(on.cacheableShare, 3), compactions: on.compactions, replayOk: withCompaction.replayOk, outcome: withCompaction.outcome },
      off: { maxChars: off.maxChars, lastChars: off.lastChars, cacheableShare: round(off.cacheableShare, 3), outcome: baseline.outcome },
      sizeRatioAtEnd: round(on.lastChars / off.lastChars, 3),
    },
  })}`,
);
process.exit(0);
