// Prisma CLI configuration. Lives in prisma/ (the top level is reserved); pass
// `--config prisma/prisma.config.ts` to the prisma CLI.
import { defineConfig } from 'prisma/config';

export default defineConfig({
  schema: 'schema.prisma',
  migrations: { path: 'migrations' },
  datasource: {
    // env() would throw when unset, even for `generate`; a placeholder keeps offline tools working.
    url: process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/atelier',
  },
});
