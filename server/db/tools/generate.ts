// `prisma generate` without network: the CLI insists on resolving a native schema engine even though
// client generation does not use it, so point it at a stub (see ../shared/STACK.md, "Prisma 7 offline").
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const env = { ...process.env };
if (!env.PRISMA_SCHEMA_ENGINE_BINARY || !existsSync(env.PRISMA_SCHEMA_ENGINE_BINARY)) {
  const stub = join(mkdtempSync(join(tmpdir(), 'atelier-prisma-')), 'schema-engine-stub');
  writeFileSync(stub, '#!/bin/sh\nexit 1\n');
  chmodSync(stub, 0o755);
  env.PRISMA_SCHEMA_ENGINE_BINARY = stub;
}
env.PRISMA_HIDE_UPDATE_MESSAGE = '1';
execFileSync('npx', ['prisma', 'generate', '--config', 'prisma/prisma.config.ts'], { stdio: 'inherit', env });
