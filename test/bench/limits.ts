// Expensive-document benchmark: the worst documents we can build at ~2 KB, ~100 KB and ~1 MB
// (fragment bombs, introspection alias floods, deep nesting, huge id lists, directive floods,
// token floods, mutation floods, …; ./limits/documents.ts) sent to the real server, in a process of
// its own, without a token, with a forged token and with a valid one (./limits/server.ts).
// Meanwhile a probe polls /health (./limits/measure.ts).
//
//   npm run bench:limits              full run (~1 min)
//   npm run bench:limits -- --quick   CI run (fewer repetitions)
//
// Floors: every document is refused (401 without a token, an error and no data otherwise) within
// 50 ms (2 KB), 500 ms (100 KB) and 2 s (1 MB); /health answers within 100 ms meanwhile. Exit 1
// when a floor is missed or a document is not refused (./limits/checks.ts). Each figure is the
// median over the repetitions (the slowest is printed too): a request that blocks the server does
// so every time, while the 2-core machine it shares with PostgreSQL (and whatever else runs) adds
// single spikes. Prints the report, then one line `BENCH_RESULT {json}` (./limits/report.ts).
//
// The server runs with its default settings, so the body limit (ATELIER_MAX_BODY_BYTES, 1,000,000)
// holds: the "1 MB" documents are just under it, which also puts them past every parser limit
// (the token limit stops parsing after 1,000 tokens of a million). Bigger bodies never reach
// GraphQL at all (413 before parsing, covered by test/http-errors.test.ts).
import { performance } from 'node:perf_hooks';
import { createTestDatabase } from '../helpers/db.ts';
import type { ServerProcess } from '../helpers/process.ts';
import { checkFloors } from './limits/checks.ts';
import { QUICK, REPS } from './limits/config.ts';
import { buildCases } from './limits/documents.ts';
import { measureAccepted, measureRefusals, warmUp, type Accepted, type Row } from './limits/measure.ts';
import { reportLines, resultJson } from './limits/report.ts';
import { callerTokens, createBenchTask, seedWorkspace, startLimitsServer } from './limits/server.ts';

async function main(): Promise<number> {
  const started = performance.now();
  const db = await createTestDatabase('benchlimits');
  let server: ServerProcess | undefined;
  let rows: Row[] = [];
  let accepted: Accepted[] = [];
  try {
    const seed = await seedWorkspace(db.url);
    server = await startLimitsServer(db.url);
    const url = server.url;
    const taskGid = await createBenchTask(url, seed);
    // Bodies are built before anything is timed.
    const cases = buildCases(taskGid);
    process.stderr.write(`bench:limits (${QUICK ? 'quick' : 'full'}): ${cases.length} documents × 3 callers × ${REPS} repetitions against ${url}\n`);
    await warmUp(url, seed.token, cases[0]!);
    rows = await measureRefusals(url, callerTokens(seed.token), cases);
    accepted = await measureAccepted(url, seed.token);
  } finally {
    await server?.stop();
    await db.drop();
  }
  const failures = checkFloors(rows);
  console.log(reportLines(rows, accepted, failures, (performance.now() - started) / 1000).join('\n'));
  console.log(`BENCH_RESULT ${JSON.stringify(resultJson(rows, accepted, failures))}`);
  return failures.length ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
