// Is the web app's production build missing or older than its sources? Plain JavaScript: used by
// server/start.mjs before tsx is available, and by the test set-up.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(dir) {
  let t = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === '.next' || e.name === 'node_modules' || e.name === 'gql') continue;
    const p = join(dir, e.name);
    t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
  }
  return t;
}

/** root: the repository root (with a trailing slash or not). */
export function webBuildIsStale(root) {
  const id = join(root, 'web/.next/BUILD_ID');
  if (!existsSync(id)) return true;
  const built = statSync(id).mtimeMs;
  const sources = Math.max(newest(join(root, 'web')), statSync(join(root, 'schema.graphql')).mtimeMs);
  return sources > built;
}

/** Generates the typed documents and builds the web app; returns true on success. */
export function buildWeb(root, stdio = 'inherit') {
  const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1' };
  const bin = (n) => join(root, 'node_modules/.bin', n);
  const cg = spawnSync(bin('graphql-codegen'), ['--config', 'codegen.ts', '--silent'], { cwd: root, stdio, env });
  if (cg.status !== 0) return false;
  const b = spawnSync(bin('next'), ['build', 'web'], { cwd: root, stdio, env });
  return b.status === 0;
}
