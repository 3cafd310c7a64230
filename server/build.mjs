// The server as compiled JavaScript: `npm start`, `npm run worker`, the provider service and the
// processes tests and benchmarks spawn run `.build/*.mjs`, bundled by esbuild from the TypeScript
// sources, instead of transpiling ~300 files at every start (importing the app took 6.7 s under
// tsx and 2.8 s compiled on a loaded 2-core machine). Plain JavaScript, so it runs before anything
// is built.
//
// Invariants:
//  - A build is used only when it is fresh: built after the newest file under server/, after
//    package-lock.json and after this script. A stale or missing build is rebuilt (start.mjs, the
//    test driver) or, where nothing may write (a spawned process), passed over for tsx.
//  - Packages stay external (node_modules is resolved from .build/ as from server/), so the bundle
//    holds only our code; paths to the project's files come from server/paths.ts, never from the
//    bundle's own location.
//  - Writing is atomic: each entry is built into a temporary file and renamed, and the stamp last,
//    so concurrent starts never run half a file.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Entry points, by the name their bundle gets in .build/. */
export const SERVER_ENTRIES = { main: 'server/main.ts', provider: 'server/provider/main.ts', cli: 'server/cli.ts' };

const SOURCE_EXT = /\.(ts|mts|mjs|js|json)$/;

function newestSource(dir, newest = 0) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name);
    if (e.isDirectory()) newest = newestSource(p, newest);
    else if (SOURCE_EXT.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const stampPath = (root) => join(root, '.build', 'stamp.json');

/** Whether `.build/` is missing or older than the sources it is made from. */
export function serverBuildIsStale(root) {
  const stamp = stampPath(root);
  if (!existsSync(stamp)) return true;
  for (const name of Object.keys(SERVER_ENTRIES)) if (!existsSync(join(root, '.build', `${name}.mjs`))) return true;
  const built = statSync(stamp).mtimeMs;
  const inputs = [join(root, 'package-lock.json'), new URL(import.meta.url).pathname];
  const newest = Math.max(newestSource(join(root, 'server')), ...inputs.filter(existsSync).map((p) => statSync(p).mtimeMs));
  return newest > built;
}

/** Bundles every entry into `.build/`. Returns false (and says why) when esbuild fails. */
export async function buildServer(root, log = console) {
  let esbuild;
  try {
    esbuild = await import('esbuild');
  } catch (e) {
    log.error(`esbuild is not installed (${e.message}); the server runs from its TypeScript sources`);
    return false;
  }
  const out = join(root, '.build');
  mkdirSync(out, { recursive: true });
  const suffix = `${process.pid}-${Date.now()}`;
  try {
    for (const [name, entry] of Object.entries(SERVER_ENTRIES)) {
      const tmp = join(out, `${name}.${suffix}.tmp.mjs`);
      await esbuild.build({
        entryPoints: [join(root, entry)],
        outfile: tmp,
        bundle: true,
        platform: 'node',
        format: 'esm',
        target: 'node20',
        packages: 'external',
        sourcemap: 'inline',
        logLevel: 'error',
      });
      renameSync(tmp, join(out, `${name}.mjs`));
    }
    writeFileSync(stampPath(root), JSON.stringify({ builtAt: new Date().toISOString(), entries: SERVER_ENTRIES }));
    return true;
  } catch (e) {
    log.error(`the server build failed: ${e.message}`);
    for (const f of readdirSync(out)) if (f.includes(`.${suffix}.tmp.`)) rmSync(join(out, f), { force: true });
    return false;
  }
}

/** Builds when stale; true when a fresh build is there to run. */
export async function ensureServerBuild(root, log = console) {
  if (!serverBuildIsStale(root)) return true;
  return buildServer(root, log);
}

/**
 * The node arguments that run an entry (`main`, `provider`, `cli`): its compiled bundle when that
 * is fresh, else its TypeScript source through tsx (nothing is built here: a spawner may not write).
 */
export function serverEntryArgs(root, name) {
  if (!serverBuildIsStale(root)) return [join(root, '.build', `${name}.mjs`)];
  return ['--import', 'tsx', join(root, SERVER_ENTRIES[name])];
}
