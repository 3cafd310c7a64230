// `npm start` / `npm run worker` entry, in plain JavaScript so it runs on a fresh clone: installs the
// dependencies when they are missing (npm ci), builds what is stale (web app, server bundle), then
// runs the compiled server/main.ts in this same process.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ensureServerBuild } from './build.mjs';
import { buildWeb, webBuildIsStale } from './web-build.mjs';

const root = fileURLToPath(new URL('../', import.meta.url));
const installed = existsSync(`${root}node_modules/.bin/tsx`);
const stale =
  installed &&
  existsSync(`${root}node_modules/.package-lock.json`) &&
  statSync(`${root}package-lock.json`).mtimeMs > statSync(`${root}node_modules/.package-lock.json`).mtimeMs;
if (!installed || stale) {
  console.log('› installing dependencies (npm ci) …');
  const r = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}
// The web app is served by the same server (one URL); build it first when missing or stale.
const web = process.env.ATELIER_WEB ?? 'on';
if (web === 'on' && !process.argv.includes('--worker-only') && webBuildIsStale(root)) {
  console.log('› building the web app (next build web) …');
  if (!buildWeb(root)) {
    console.error('✖ the web app did not build; starting the API only (ATELIER_WEB=off)');
    process.env.ATELIER_WEB = 'off';
  }
}
// The server runs in THIS process, compiled (build.mjs bundles it when the sources changed, in
// about a second): killing the process npm started kills the server, with nothing orphaned — no
// child to outlive its parent. If the build fails it runs from the sources through tsx's loader.
if (await ensureServerBuild(root)) {
  await import(pathToFileURL(`${root}.build/main.mjs`).href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  globalThis.__atelierTsx = true;
  await import('./main.ts');
}
