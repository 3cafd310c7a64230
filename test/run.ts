// The test driver behind `npm test`:
//  1. a PostgreSQL server for the tests: TEST_DATABASE_URL, else the local one on 127.0.0.1:5432,
//     else an embedded PostgreSQL started here (so a machine with only Node can run the tests);
//  2. generated code (Prisma client, GraphQL documents) and the drift checks (schema.graphql,
//     migrations vs prisma/schema.prisma), then the type check and the server's bundle (the
//     processes tests spawn run it, as npm start does);
//  3. every test file under node's test runner, each file with its own database; then the browser
//     tests (test/web-*.test.ts), one file at a time, after installing Debian's chromium when it is
//     missing and building the web app when its build is missing or stale.
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { reachable } from '../server/db/migrate.ts';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../server/db/embedded.ts';
import { createLogger } from '../server/log.ts';
import { buildServer, serverBuildIsStale } from '../server/build.mjs';
import { buildWeb, webBuildIsStale } from '../server/web-build.mjs';
import { ensureChromium } from './helpers/chromium.ts';

const root = new URL('../', import.meta.url).pathname;
const LOCAL = 'postgresql://postgres@127.0.0.1:5432/postgres';

function step(title: string, cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): void {
  console.log(`› ${title}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env });
  if (r.status !== 0) {
    console.error(`✖ ${title} failed`);
    process.exit(r.status ?? 1);
  }
}

async function main() {
  let embedded: EmbeddedPostgres | undefined;
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    if (await reachable(LOCAL)) serverUrl = LOCAL;
    else {
      console.log('› no PostgreSQL on 127.0.0.1:5432: starting an embedded one for the tests');
      const dataDir = resolve(root, '.data/test');
      mkdirSync(dataDir, { recursive: true });
      chmodSync(dataDir, 0o755);
      embedded = await startEmbeddedPostgres({ dataDir, port: 54339, log: createLogger('warn') });
      serverUrl = embedded.connectionString.replace(/\/atelier$/, '/postgres');
    }
  }
  const env = { ...process.env, TEST_DATABASE_URL: serverUrl, DATABASE_URL: serverUrl };
  try {
    step('prisma generate', process.execPath, ['--import', 'tsx', 'server/db/tools/generate.ts']);
    step('graphql codegen', 'npx', ['graphql-codegen', '--config', 'codegen.ts', '--silent']);
    step('schema.graphql matches the code', process.execPath, ['--import', 'tsx', 'server/graphql/print-schema.ts', '--check']);
    step('migrations cover prisma/schema.prisma', process.execPath, ['--import', 'tsx', 'server/db/tools/diff-migration.ts', '--check'], env);
    step('typecheck', 'npx', ['tsc', '-p', 'tsconfig.json']);
    // The processes tests spawn run the compiled server, as npm start does (server/build.mjs).
    if (serverBuildIsStale(root)) {
      console.log('› server build (esbuild)');
      if (!(await buildServer(root))) {
        console.error('✖ server build failed');
        process.exit(1);
      }
    }
    const args = process.argv.slice(2);
    const files = args.some((a) => a.endsWith('.ts'))
      ? args
      : [...readdirSync(resolve(root, 'test')).filter((f) => f.endsWith('.test.ts')).sort().map((f) => `test/${f}`), ...args];
    // Browser tests (test/web-*.test.ts: Chromium + Next + the product each) run after the others,
    // one file at a time: on a 2-vCPU machine three at once starve each other.
    const isBrowser = (f: string) => /(^|\/)web-[^/]*\.test\.ts$/.test(f);
    const options = files.filter((f) => !f.endsWith('.ts'));
    const plain = files.filter((f) => f.endsWith('.ts') && !isBrowser(f));
    const browser = files.filter(isBrowser);
    if (browser.length) ensureChromium();
    if (browser.length && webBuildIsStale(root)) {
      console.log('› web build (next build web)');
      if (!buildWeb(root)) {
        console.error('✖ web build failed');
        process.exit(1);
      }
    }
    // The timeout also bounds each file as a whole (its own process): files that start processes
    // (crash points, chaos-like runs) need minutes on a loaded 2-core machine; each test inside still
    // waits on conditions with its own bounds.
    if (plain.length) {
      step(
        `tests (${plain.length} files)`,
        process.execPath,
        ['--import', 'tsx', '--test', '--test-concurrency=3', '--test-timeout=600000', '--test-reporter=spec', ...options, ...plain],
        env,
      );
    }
    if (browser.length) {
      step(
        `browser tests (${browser.length} files, headless Chromium; screenshots in test-results/web/)`,
        process.execPath,
        ['--import', 'tsx', '--test', '--test-concurrency=1', '--test-timeout=300000', '--test-reporter=spec', ...options, ...browser],
        env,
      );
    }
  } finally {
    await embedded?.stop();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
