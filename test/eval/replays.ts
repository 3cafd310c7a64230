// npm run eval:replays — replays every saved replay fixture (test/fixtures/replays, saved with
// `npm run replay -- --save <taskId>` from a failed, escalated or otherwise telling run) and judges
// every policy of test/fixtures/policies against them.
//   - A fixture must replay with no divergence: today's context assembly and tool set would ask the
//     model exactly what was asked then (withheld steps — forgotten memories — are not compared).
//   - Each policy's findings over the fixtures must be the ones written down below (EXPECTED): a
//     change of the policy function, the scope tables or the fixtures that changes what a policy
//     would deny or escalate in the past fails the suite until the table is updated on purpose.
// Exits 1 on a divergence, an unreadable fixture or a finding that differs. Needs no database.
import { basename } from 'node:path';
import { fixtureFiles, readFixture, readPolicyFile } from '../../server/runtime/replay-cli.ts';
import { describeFinding, judgeFixture, replayFixture } from '../../server/runtime/replay-fixtures.ts';

const FIXTURES = 'test/fixtures/replays';
const POLICIES = 'test/fixtures/policies';
const quiet = process.argv.includes('--quiet');

/** Per policy file: the findings it must give over all fixtures, as "deny|escalate tool" sorted. */
const EXPECTED: Record<string, string[]> = {
  // The completed run's one charge was allowed then and would now be refused; the escalated run's
  // charges were refused then already (not news).
  'no-spending.json': ['deny charge'],
  // The charge that ran is listed for a person; the refused ones never ran.
  'charges-to-a-person.json': ['escalate charge'],
};

let failures = 0;
const fail = (msg: string) => {
  failures++;
  console.error(`✖ ${msg}`);
};

const files = fixtureFiles(FIXTURES);
if (!files.length) fail(`no fixtures in ${FIXTURES}`);
const fixtures = [];
for (const f of files) {
  try {
    const fixture = readFixture(f);
    const report = replayFixture(fixture);
    if (report.divergence) fail(`${basename(f)}: diverges at turn ${report.divergence.turn}, step ${report.divergence.step} (${report.divergence.kind}): ${report.divergence.detail}`);
    else if (!quiet) console.log(`✔ ${basename(f)}: ${report.steps} steps, ${report.toolCalls} tool calls replayed identically${report.withheld.length ? ` (${report.withheld.length} withheld)` : ''} — ${fixture.reason}`);
    fixtures.push(fixture);
  } catch (e) {
    fail((e as Error).message);
  }
}

const policies = fixtureFiles(POLICIES);
for (const p of policies) {
  const name = basename(p);
  const policy = readPolicyFile(p);
  const findings = fixtures.flatMap((f) => judgeFixture(f, policy));
  const got = findings.map((x) => `${x.now} ${x.tool}`).sort();
  const want = EXPECTED[name];
  if (!want) fail(`${name}: no expected findings written down in test/eval/replays.ts`);
  else if (JSON.stringify(got) !== JSON.stringify([...want].sort())) fail(`${name}: expected ${JSON.stringify(want)}, got ${JSON.stringify(got)}`);
  else if (!quiet) console.log(`✔ ${name} (${policy.description ?? 'no description'}): ${findings.length} finding(s) as expected`);
  if (!quiet) for (const x of findings) console.log(`    ${describeFinding(x)}`);
}
for (const name of Object.keys(EXPECTED)) if (!policies.some((p) => basename(p) === name)) fail(`${name}: expected findings for a policy file that does not exist`);

console.log(`eval:replays: ${files.length} fixture(s), ${policies.length} polic${policies.length === 1 ? 'y' : 'ies'}, ${failures ? `${failures} failure(s)` : 'all as expected'}`);
process.exit(failures ? 1 : 0);
