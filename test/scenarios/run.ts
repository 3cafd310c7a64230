// npm run scenarios [-- <name filter>]: plays every scenario and prints, per scenario, the
// "continue" messages the user had to send (target 0), needless confirmations, duplicate
// generations, misrouted messages, stale object reads, forked copies and total cost. Exits 1 when
// a scenario fails or the targets (0 continues, 0 duplicate generations) are missed.
import { withScenario, type Metrics } from './harness.ts';
import { SCENARIOS } from './scenarios.ts';

const filter = process.argv.slice(2).find((a) => !a.startsWith('--'));
const chosen = SCENARIOS.filter((s) => !filter || s.name.includes(filter));
const rows: { name: string; ok: boolean; error?: string; metrics?: Metrics; extra?: Record<string, string | number>; ms: number }[] = [];
for (const s of chosen) {
  const started = Date.now();
  try {
    const { value, metrics } = await withScenario(s.name.split(':')[0]!.replace(/\W+/g, '_').slice(0, 12), (ctx) => s.run(ctx));
    rows.push({ name: s.name, ok: true, metrics, extra: value, ms: Date.now() - started });
  } catch (e) {
    rows.push({ name: s.name, ok: false, error: String((e as Error).message).slice(0, process.env.SCENARIO_VERBOSE ? 20000 : 600), ms: Date.now() - started });
  }
}
const head = ['scenario', 'ok', 'continue msgs', 'needless confirms', 'dup generations', 'misrouted', 'stale reads', 'forked copies', 'cards', 'jobs', 'cost', 'time'];
console.log(`| ${head.join(' | ')} |\n|${head.map(() => '---').join('|')}|`);
for (const r of rows) {
  const m = r.metrics;
  console.log(
    `| ${r.name} | ${r.ok ? 'yes' : 'NO'} | ${m ? [m.continues, m.needlessConfirmations, m.duplicateGenerations, m.misrouted, m.staleReads, m.forkedCopies, m.cards, m.jobs, `$${(m.costCents / 100).toFixed(2)}`].join(' | ') : '- | - | - | - | - | - | - | - | -'} | ${(r.ms / 1000).toFixed(1)} s |`,
  );
  if (r.extra) console.log(`    ${Object.entries(r.extra).map(([k, v]) => `${k}=${v}`).join(', ')}`);
  if (r.error) console.log(`    error: ${r.error}`);
}
const total = (k: keyof Metrics) => rows.reduce((n, r) => n + (r.metrics?.[k] ?? 0), 0);
console.log(
  `\ntotal: ${rows.filter((r) => r.ok).length}/${rows.length} passed; continue messages ${total('continues')}, needless confirmations ${total('needlessConfirmations')}, duplicate generations ${total('duplicateGenerations')}, misrouted ${total('misrouted')}, stale reads ${total('staleReads')}, forked copies ${total('forkedCopies')}, cost $${(total('costCents') / 100).toFixed(2)}`,
);
const failed = rows.some((r) => !r.ok) || total('continues') > 0 || total('duplicateGenerations') > 0;
process.exit(failed ? 1 : 0);
