// The compiled server (server/build.mjs): a build is used only while it is fresh, a failed build
// leaves the previous one whole, and the bundle finds the project's files from wherever it runs.
// On a throw-away project folder, so the real build used by other tests is never touched.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { buildServer, serverBuildIsStale, serverEntryArgs } from '../server/build.mjs';

const repo = new URL('../', import.meta.url).pathname;
let root: string;
const silent = { error: () => {} };

before(() => {
  root = mkdtempSync(join(tmpdir(), 'atelier-build-'));
  mkdirSync(join(root, 'server', 'provider'), { recursive: true });
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'atelier', type: 'module' }));
  writeFileSync(join(root, 'package-lock.json'), '{}');
  copyFileSync(join(repo, 'server', 'paths.ts'), join(root, 'server', 'paths.ts'));
  writeFileSync(join(root, 'server', 'main.ts'), "import { fromRoot } from './paths.ts';\nconsole.log(JSON.stringify({ web: fromRoot('web') }));\n");
  writeFileSync(join(root, 'server', 'provider', 'main.ts'), "console.log('provider');\n");
  writeFileSync(join(root, 'server', 'cli.ts'), "console.log('cli');\n");
});
after(() => rmSync(root, { recursive: true, force: true }));

/** Moves a file's mtime `ms` into the future, as an edit after the build would. */
const touch = (path: string, ms = 5_000) => utimesSync(path, new Date(), new Date(Date.now() + ms));

test('a missing build is stale; after building, every entry runs from .build/ and finds the project from there', async () => {
  assert.equal(serverBuildIsStale(root), true);
  assert.deepEqual(serverEntryArgs(root, 'main'), ['--import', 'tsx', join(root, 'server/main.ts')], 'no build: the sources through tsx');
  assert.equal(await buildServer(root, silent), true);
  assert.equal(serverBuildIsStale(root), false);
  assert.deepEqual(serverEntryArgs(root, 'main'), [join(root, '.build', 'main.mjs')]);
  const out = JSON.parse(execFileSync(process.execPath, serverEntryArgs(root, 'main'), { encoding: 'utf8' })) as { web: string };
  assert.equal(out.web, join(root, 'web'), 'paths come from the project root, not from the bundle beside it');
  assert.equal(execFileSync(process.execPath, serverEntryArgs(root, 'provider'), { encoding: 'utf8' }).trim(), 'provider');
});

test('an edited source, a new lockfile or a removed bundle make the build stale; a rebuild makes it fresh again', async () => {
  assert.equal(await buildServer(root, silent), true);
  // Each edit is dated later than the build before it (k × 10 s ahead), each rebuild after it.
  const changes = [(ms: number) => touch(join(root, 'server', 'provider', 'main.ts'), ms), (ms: number) => touch(join(root, 'package-lock.json'), ms), () => rmSync(join(root, '.build', 'cli.mjs'))];
  for (const [k, change] of changes.entries()) {
    assert.equal(serverBuildIsStale(root), false, `fresh before change ${k}`);
    change((k + 1) * 10_000);
    assert.equal(serverBuildIsStale(root), true, `stale after change ${k}`);
    assert.equal(serverEntryArgs(root, 'main')[0], '--import', 'a stale build is never run');
    assert.equal(await buildServer(root, silent), true);
    touch(join(root, '.build', 'stamp.json'), (k + 1) * 10_000 + 5_000);
  }
});

test('a build that fails leaves the previous bundle whole and reports false; no temporary file stays', async () => {
  assert.equal(await buildServer(root, silent), true);
  const before = readFileSync(join(root, '.build', 'main.mjs'), 'utf8');
  writeFileSync(join(root, 'server', 'cli.ts'), 'export const = broken;\n');
  const errors: string[] = [];
  assert.equal(await buildServer(root, { error: (m: string) => errors.push(m) }), false);
  assert.match(errors.join('\n'), /server build failed/);
  assert.equal(readFileSync(join(root, '.build', 'main.mjs'), 'utf8'), before);
  assert.deepEqual(execFileSync('ls', [join(root, '.build')], { encoding: 'utf8' }).split('\n').filter((f) => f.includes('.tmp.')), []);
  writeFileSync(join(root, 'server', 'cli.ts'), "console.log('cli');\n");
});
