// npm run scenarios [-- <name filter>] [--seed N] [--no-checks | --checks-only]
//
// Plays every scenario with a request drawn from its paraphrase pool (seeded: --seed, default
// random and printed; the same seed replays the same prompts, choices and provider faults), at the
// runtime's default timings, with provider faults injected, and prints per scenario the "continue"
// messages the user had to send, needless confirmations, duplicate generations, misrouted messages,
// stale object reads, forked copies, lost wake-ups, the faults met and the cost. Then runs every
// metric once against a planted fault (metric-checks.ts): each must report it.
//
// Exits 1 when a scenario fails, a target is missed (0 continue messages, needless confirmations,
// duplicate generations, stale reads, forked copies, lost wake-ups) or a metric misses its planted
// fault. Misrouted messages are reported, not a target here (the router has its own evaluation).
import { testConfig } from '../helpers/app.ts';
import { SCENARIO_FAULTS, withScenario, type Faults, type Metrics } from './harness.ts';
import { METRIC_CHECKS } from './metric-checks.ts';
import { SCENARIOS } from './scenarios.ts';

const args = process.argv.slice(2);
const seedArg = args.indexOf('--seed');
const seed = seedArg >= 0 ? Number(args[seedArg + 1]) : Math.floor(Math.random() * 1_000_000);
if (!Number.isInteger(seed)) throw new Error('--seed needs an integer');
const filter = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--seed');
const runScenarios = !args.includes('--checks-only');
const runChecks = !args.includes('--no-checks') && !filter;

const rt = testConfig().runtime;
console.log(`scenario runs, seed ${seed} (replay: npm run scenarios -- --seed ${seed})`);
console.log(`timings (defaults): lease ${rt.leaseMs} ms, watchdog ${rt.watchdogMs} ms, stale re-send ${rt.staleQueuedMs} ms`);
console.log(`provider faults: ${Object.entries(SCENARIO_FAULTS).map(([k, v]) => `${k} ${v}`).join(', ')}\n`);

type Row = { name: string; ok: boolean; error?: string; metrics?: Metrics; faults?: Faults; extra?: Record<string, string | number>; ms: number };
const rows: Row[] = [];
const chosen = runScenarios ? SCENARIOS.filter((s) => !filter || s.name.includes(filter)) : [];
for (const [i, s] of SCENARIOS.entries()) {
  if (!chosen.includes(s)) continue;
  const started = Date.now();
  try {
    const { value, metrics, faults } = await withScenario(s.name.split(':')[0]!.replace(/\W+/g, '_').slice(0, 12), (ctx) => s.run(ctx), {
      seed: seed * 31 + i,
      faults: SCENARIO_FAULTS,
    });
    rows.push({ name: s.name, ok: true, metrics, faults, extra: value, ms: Date.now() - started });
  } catch (e) {
    rows.push({ name: s.name, ok: false, error: String((e as Error).message).slice(0, process.env.SCENARIO_VERBOSE ? 20000 : 600), ms: Date.now() - started });
  }
  const r = rows.at(-1)!;
  console.error(`  ${r.ok ? 'ok' : 'FAILED'} ${r.name} (${(r.ms / 1000).toFixed(1)} s)`);
}

let failed = false;
if (rows.length) {
  const head = ['scenario', 'ok', 'continue msgs', 'needless confirms', 'dup generations', 'misrouted', 'stale reads', 'forked copies', 'lost wake-ups', 'cards', 'jobs', 'faults met', 'cost', 'time'];
  console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
  for (const r of rows) {
    const m = r.metrics;
    const f = r.faults;
    const faults = f ? `fail ${f.failed}, unknown ${f.unknownSubmit}, missing ${f.missingCallback}, dup ${f.duplicateCallback}, late ${f.lateCallback}` : '-';
    console.log(
      `| ${r.name} | ${r.ok ? 'yes' : 'NO'} | ${m ? [m.continues, m.needlessConfirmations, m.duplicateGenerations, m.misrouted, m.staleReads, m.forkedCopies, m.lostWakeups, m.cards, m.jobs, faults, `$${(m.costCents / 100).toFixed(2)}`].join(' | ') : '- | - | - | - | - | - | - | - | - | - | -'} | ${(r.ms / 1000).toFixed(1)} s |`,
    );
    if (r.extra) console.log(`    ${Object.entries(r.extra).map(([k, v]) => `${k}=${v}`).join(', ')}`);
    if (r.error) console.log(`    error: ${r.error}`);
  }
  const total = (k: keyof Metrics) => rows.reduce((n, r) => n + (r.metrics?.[k] ?? 0), 0);
  console.log(
    `\ntotal: ${rows.filter((r) => r.ok).length}/${rows.length} passed; continue messages ${total('continues')}, needless confirmations ${total('needlessConfirmations')}, duplicate generations ${total('duplicateGenerations')}, misrouted ${total('misrouted')}, stale reads ${total('staleReads')}, forked copies ${total('forkedCopies')}, lost wake-ups ${total('lostWakeups')}, cost $${(total('costCents') / 100).toFixed(2)}`,
  );
  const targets: (keyof Metrics)[] = ['continues', 'needlessConfirmations', 'duplicateGenerations', 'staleReads', 'forkedCopies', 'lostWakeups'];
  const missed = targets.filter((k) => total(k) > 0);
  if (missed.length) console.log(`missed targets (0 expected): ${missed.join(', ')}`);
  failed ||= rows.some((r) => !r.ok) || missed.length > 0;
}

if (runChecks) {
  console.log('\nmetric checks (each metric against a planted fault; it must report it, and its control must stay 0):');
  for (const c of METRIC_CHECKS) {
    const started = Date.now();
    try {
      const r = await c.run();
      const ok = r.value >= 1 && (r.control === undefined || r.control === 0);
      failed ||= !ok;
      console.log(`  ${ok ? 'ok  ' : 'BLIND'} ${c.metric}: ${r.value} for ${c.fault}${r.control !== undefined ? `; control ${r.control}` : ''}${r.note ? ` (${r.note})` : ''} [${((Date.now() - started) / 1000).toFixed(1)} s]`);
    } catch (e) {
      failed = true;
      console.log(`  ERROR ${c.metric}: ${(e as Error).message.slice(0, 400)}`);
    }
  }
}
process.exit(failed ? 1 : 0);
