// Where the project's own files are (web/, prisma/migrations/, .data/…). Found by walking up from
// this module to the directory whose package.json is Atelier's, so it is the same whether the
// server runs from its TypeScript sources (server/…) or from its compiled bundle (.build/…).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(from: string): string {
  for (let dir = from; ; ) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg)) {
      try {
        if ((JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'atelier') return dir;
      } catch {
        // not ours: keep walking
      }
    }
    const up = dirname(dir);
    if (up === dir) throw new Error(`cannot find Atelier's package.json above ${from}`);
    dir = up;
  }
}

/** The project's root directory, without a trailing slash. */
export const ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));

/** A path inside the project. */
export const fromRoot = (...parts: string[]): string => join(ROOT, ...parts);
