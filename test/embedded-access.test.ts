// `npm start` without DATABASE_URL, as root: the embedded PostgreSQL runs as the system user
// "postgres", so a private directory above its data says what to do in one sentence instead of a
// bare `spawn … EACCES` stack.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { assertTraversable } from '../server/db/embedded.ts';

test('a private directory on the way is named, with the fix; an open one passes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-access-'));
  try {
    chmodSync(dir, 0o700);
    assert.throws(() => assertTraversable([dir]), (e: Error) => e.message.includes(dir) && /chmod o\+x/.test(e.message) && /DATABASE_URL/.test(e.message));
    chmodSync(dir, 0o755);
    assert.doesNotThrow(() => assertTraversable([dir]));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
