// Atelier needs Node.js 22.12 or newer. The npm scripts that run it check first, with a plain
// script (server/node-version.cjs) that any Node can parse, and on an older Node stop with one
// sentence and exit code 1. The running version is stood in for by ATELIER_NODE_VERSION_UNDER_TEST.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';

const require = createRequire(import.meta.url);
const root = new URL('../', import.meta.url).pathname;
const script = `${root}server/node-version.cjs`;
const { nodeVersionProblem } = require(script) as { nodeVersionProblem: (v: string) => string | null };

const run = (version: string) =>
  spawnSync(process.execPath, [script], { cwd: root, encoding: 'utf8', env: { ...process.env, ATELIER_NODE_VERSION_UNDER_TEST: version } });

test('an older Node stops at once: one sentence on stderr, exit code 1', () => {
  const r = run('20.20.2');
  assert.equal(r.status, 1);
  assert.equal(r.stdout, '');
  assert.equal(r.stderr, 'Atelier needs Node.js 22.12 or newer; this is Node 20.20.2. Install Node 22 LTS from https://nodejs.org and run the command again.\n');
  for (const old of ['22.11.0', '22.9.3', '18.20.4', 'v16.0.0']) {
    const o = run(old);
    assert.equal(o.status, 1, old);
    assert.equal(o.stderr.trim().split('\n').length, 1, `${old}: one line`);
    assert.match(o.stderr, new RegExp(`this is Node ${old.replace(/^v/, '').replace(/\./g, '\\.')}\\. `), old);
  }
});

test('Node 22.12 and newer pass silently', () => {
  for (const ok of ['22.12.0', '22.23.5', '23.0.0', '24.1.0']) {
    const r = run(ok);
    assert.equal(r.status, 0, ok);
    assert.equal(r.stdout + r.stderr, '', ok);
    assert.equal(nodeVersionProblem(ok), null, ok);
  }
  assert.match(nodeVersionProblem('22.11.9')!, /^Atelier needs Node\.js 22\.12 or newer; this is Node 22\.11\.9\. /);
});

test('the check parses as ES5, so even a very old Node reaches the sentence', async () => {
  // acorn comes with dependency-cruiser (the layer check); ES5 has no modules, arrows or templates.
  const { parse } = (await import('acorn')) as { parse: (src: string, o: { ecmaVersion: 5; sourceType: 'script' }) => unknown };
  assert.doesNotThrow(() => parse(readFileSync(script, 'utf8'), { ecmaVersion: 5, sourceType: 'script' }));
  assert.throws(() => parse('const f = () => `x`;', { ecmaVersion: 5, sourceType: 'script' }), 'the parser does refuse newer syntax');
});

test('package.json asks for Node 22.12+, and every npm script that runs Atelier checks first', () => {
  const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as { engines: { node: string }; scripts: Record<string, string> };
  assert.equal(pkg.engines.node, '>=22.12');
  const runsAtelier = ['start', 'worker', 'web:dev', 'provider', 'atelier', 'db:migrate', 'replay', 'scenarios', 'chaos', ...Object.keys(pkg.scripts).filter((s) => /^(bench|eval):/.test(s))];
  for (const name of runsAtelier) assert.match(pkg.scripts[name]!, /^node server\/node-version\.cjs && /, name);
  // `npm test` (test/run.sh) checks before it installs anything.
  const runSh = readFileSync(`${root}test/run.sh`, 'utf8').split('\n').filter((l) => l.trim() && !l.startsWith('#'));
  assert.equal(pkg.scripts.test, 'bash test/run.sh');
  assert.deepEqual(runSh.slice(0, 3), ['set -euo pipefail', 'cd "$(dirname "$0")/.."', 'node server/node-version.cjs']);
});
