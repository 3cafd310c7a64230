// Writes a new migration from the change between the last migrated schema and prisma/schema.prisma,
// using Prisma's own schema engine (the official wasm build) — the native engine that
// `prisma migrate dev` downloads is unreachable here (../shared/STACK.md, "Prisma 7 offline").
//
//   npm run db:diff -- <name>      write prisma/migrations/<timestamp>_<name>/migration.sql
//   npm run db:diff -- --check     exit 1 if schema.prisma has changes no migration covers
//
// The schema as of the last migration is kept in prisma/migrations/.schema-snapshot.prisma.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { PrismaPg } from '@prisma/adapter-pg';
import { bindMigrationAwareSqlAdapterFactory } from '@prisma/driver-adapter-utils';

const root = new URL('../../../', import.meta.url).pathname;
const schemaPath = join(root, 'prisma/schema.prisma');
const migrationsDir = join(root, 'prisma/migrations');
const snapshotPath = join(migrationsDir, '.schema-snapshot.prisma');

async function loadEngine() {
  // Node 20 cannot `import` a .wasm module: instantiate it by hand with the package's JS glue.
  const require = createRequire(import.meta.url);
  const pkgDir = dirname(require.resolve('@prisma/schema-engine-wasm/schema_engine_bg'));
  const glue = await import(join(pkgDir, 'schema_engine_bg.js'));
  const module = new WebAssembly.Module(readFileSync(join(pkgDir, 'schema_engine_bg.wasm')));
  const imports: WebAssembly.Imports = {};
  for (const imp of WebAssembly.Module.imports(module)) {
    (imports[imp.module] ??= {})[imp.name] = glue[imp.name];
  }
  const instance = new WebAssembly.Instance(module, imports);
  glue.__wbg_set_wasm(instance.exports);
  (instance.exports.__wbindgen_start as () => void)();
  return glue;
}

async function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const name = args.find((a) => !a.startsWith('--')) ?? 'change';
  if (!/^[a-z0-9_]+$/.test(name)) throw new Error('migration name: lowercase letters, digits, _');
  const url = process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/test';
  const glue = await loadEngine();
  const adapter = bindMigrationAwareSqlAdapterFactory(new PrismaPg({ connectionString: url }));
  const engine = await glue.SchemaEngine.new({ datamodels: undefined }, () => {}, adapter);
  const current = readFileSync(schemaPath, 'utf8');
  const from = existsSync(snapshotPath)
    ? { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: readFileSync(snapshotPath, 'utf8') }] }
    : { tag: 'empty' };
  const result = await engine.diff({
    from,
    to: { tag: 'schemaDatamodel', files: [{ path: 'schema.prisma', content: current }] },
    script: true,
    exitCode: true,
    filters: { externalTables: [], externalEnums: [] },
  });
  const sql: string = result.stdout ?? '';
  const empty = result.exitCode === 0 || /^-- This is an empty migration\.?\s*$/.test(sql.trim());
  if (check) {
    if (!empty) {
      console.error('prisma/schema.prisma has changes without a migration. Run: npm run db:diff -- <name>');
      console.error(sql);
      process.exit(1);
    }
    console.log('migrations cover prisma/schema.prisma');
    return;
  }
  if (empty) {
    console.log('No schema changes.');
    return;
  }
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  const dir = join(migrationsDir, `${stamp}_${name}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'migration.sql'), sql);
  writeFileSync(snapshotPath, current);
  if (!existsSync(join(migrationsDir, 'migration_lock.toml'))) {
    writeFileSync(join(migrationsDir, 'migration_lock.toml'), 'provider = "postgresql"\n');
  }
  console.log(`wrote ${dir}/migration.sql`);
}

main().then(
  () => process.exit(0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
