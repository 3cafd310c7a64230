// A secret generated once and kept in a file (mode 0600), so every process on one data directory
// agrees on it without configuration.
import { closeSync, existsSync, fsyncSync, linkSync, mkdirSync, openSync, readFileSync, unlinkSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';

/**
 * Reads the secret kept at `path`, creating it with `make()` first when missing. Invariant: two
 * processes starting at once agree — it is written aside, then linked into place, and whoever
 * linked first wins.
 */
export function ensureSecretFile(path: string, make: () => string): string {
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w', 0o600);
  try {
    writeSync(fd, `${make()}\n`);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(tmp, path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  } finally {
    unlinkSync(tmp);
  }
  return readFileSync(path, 'utf8').trim();
}
