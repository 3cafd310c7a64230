// The server's layers point down and nothing imports in a circle (.dependency-cruiser.cjs has the
// rules). The check runs on the real tree, and on a small tree with one of each kind of defect to
// show that it would catch them: a runtime module calling a service, configuration reaching into the
// runtime, a store module calling a service, GraphQL importing the HTTP layer or the Prisma client,
// and a cycle made only of type imports. Raw SQL is confined the same way: only the store layer's
// modules (server/store, server/channel) and the database tooling (server/db) send SQL text.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { test } from 'node:test';
import { cruise, type ICruiseOptions, type IViolation } from 'dependency-cruiser';

const require = createRequire(import.meta.url);
const config = require('../.dependency-cruiser.cjs') as { forbidden: NonNullable<ICruiseOptions['ruleSet']>['forbidden']; options: ICruiseOptions };

async function violations(baseDir: string, tsConfig?: string): Promise<IViolation[]> {
  const { tsConfig: _ignored, enhancedResolveOptions: _e, ...options } = config.options as ICruiseOptions & { tsConfig?: unknown; enhancedResolveOptions?: unknown };
  const result = await cruise(
    ['server'],
    { ...options, baseDir, validate: true, ruleSet: { forbidden: config.forbidden }, ...(tsConfig ? { tsConfig: { fileName: tsConfig } } : {}) },
  );
  if (typeof result.output === 'string') throw new Error(result.output);
  return result.output.summary.violations;
}

const describe = (v: IViolation) => `${v.rule.name}: ${v.from} → ${v.to}${v.cycle ? ` (${v.cycle.map((c) => c.name).join(' → ')})` : ''}`;

test('the server imports only downwards, and has no import cycle (type-only imports included)', async () => {
  const found = await violations(process.cwd(), 'tsconfig.json');
  assert.deepEqual(found.map(describe), []);
});

test('the check catches every kind of back-arrow and a type-only cycle', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'atelier-layers-'));
  const file = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  try {
    file('server/services/tasks/apply.ts', 'export const apply = 1;\n');
    file('server/runtime/journal.ts', "import { apply } from '../services/tasks/apply.ts';\nexport const j = apply;\n");
    file('server/runtime/compaction.ts', 'export type Options = { n: number };\n');
    file('server/config.ts', "import type { Options } from './runtime/compaction.ts';\nexport const c: Options = { n: 1 };\n");
    file('server/generation/jobs.ts', "import { apply } from '../services/tasks/apply.ts';\nexport const g = apply;\n");
    file('server/http/session.ts', 'export const s = 1;\n');
    file('server/graphql/yoga.ts', "import { s } from '../http/session.ts';\nexport const y = s;\n");
    file('server/db/client.ts', 'export const prisma = {};\n');
    file('server/graphql/types/task.ts', "import { prisma } from '../../db/client.ts';\nexport const t = prisma;\n");
    file('server/domain/a.ts', "import type { B } from './b.ts';\nexport type A = { b?: B };\n");
    file('server/domain/b.ts', "import type { A } from './a.ts';\nexport type B = { a?: A };\n");
    file('server/somewhere/new.ts', "import { apply } from '../services/tasks/apply.ts';\nexport const n = apply;\n");
    const found = (await violations(dir)).map(describe);
    const expect = [
      'layer-runtime: server/runtime/journal.ts → server/services/tasks/apply.ts',
      'layer-domain: server/config.ts → server/runtime/compaction.ts',
      'layer-store: server/generation/jobs.ts → server/services/tasks/apply.ts',
      'layer-graphql: server/graphql/yoga.ts → server/http/session.ts',
      'thin-graphql: server/graphql/types/task.ts → server/db/client.ts',
      'known-layer: server/somewhere/new.ts → server/services/tasks/apply.ts',
    ];
    for (const e of expect) assert.ok(found.includes(e), `expected "${e}" among:\n${found.join('\n')}`);
    assert.ok(found.some((f) => f.startsWith('no-cycles: server/domain/')), `a type-only cycle is reported:\n${found.join('\n')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** Prisma's raw-SQL methods and node-postgres' query on a pool or a client. */
const RAW_SQL = /\$(?:queryRaw|executeRaw)(?:Unsafe)?\b|\b(?:pool|client)\.query\(/;
const SQL_HOMES = /^server\/(store|channel|db)\//;

/** Server modules outside the store layer that send SQL text, with the first offending line of each. */
function rawSqlOutsideStore(root: string): string[] {
  const files = (readdirSync(join(root, 'server'), { recursive: true }) as string[])
    .map((f) => `server/${f.split('\\').join('/')}`)
    .filter((f) => f.endsWith('.ts') && !f.startsWith('server/db/generated/'))
    .sort();
  const found: string[] = [];
  for (const f of files) {
    if (SQL_HOMES.test(f)) continue;
    const lines = readFileSync(join(root, f), 'utf8').split('\n');
    const at = lines.findIndex((l) => RAW_SQL.test(l));
    if (at >= 0) found.push(`${f}:${at + 1}: ${lines[at]!.trim()}`);
  }
  return found;
}

test('raw SQL lives only in the store layer', () => {
  assert.deepEqual(rawSqlOutsideStore(process.cwd()), [], 'move these statements into a named statement of server/store/');
  // The scan itself catches each kind of call outside the store and none inside it.
  const dir = mkdtempSync(join(tmpdir(), 'atelier-sql-'));
  const file = (path: string, text: string) => {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  };
  try {
    file('server/services/a.ts', 'await tx.$queryRawUnsafe(`SELECT 1`);\n');
    file('server/runtime/b.ts', 'await prisma.$executeRaw`SELECT 1`;\n');
    file('server/http/c.ts', "await pool.query('SELECT 1');\n");
    file('server/routing/d.ts', "await client.query('LISTEN x');\n");
    file('server/store/ok.ts', 'await tx.$queryRawUnsafe(`SELECT 1`);\n');
    file('server/channel/ok.ts', "await client.query('LISTEN x');\n");
    file('server/db/ok.ts', 'await prisma.$executeRawUnsafe(`SELECT 1`);\n');
    file('server/db/generated/ok.ts', 'await prisma.$executeRawUnsafe(`SELECT 1`);\n');
    file('server/services/fine.ts', 'await tx.task.findMany({});\n');
    assert.deepEqual(
      rawSqlOutsideStore(dir).map((f) => f.split(':')[0]),
      ['server/http/c.ts', 'server/routing/d.ts', 'server/runtime/b.ts', 'server/services/a.ts'],
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
