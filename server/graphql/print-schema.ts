// schema.graphql is generated from the Pothos schema and committed.
//   --write  regenerate it     --check  fail when it differs from the code (CI)
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { lexicographicSortSchema, printSchema } from 'graphql';
import { schema } from './schema.ts';

const path = new URL('../../schema.graphql', import.meta.url).pathname;
const printed = printSchema(lexicographicSortSchema(schema)) + '\n';

if (process.argv.includes('--check')) {
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (current !== printed) {
    console.error('schema.graphql is out of date with the code. Run: npm run schema:print');
    process.exit(1);
  }
  console.log('schema.graphql matches the code');
} else {
  writeFileSync(path, printed);
  console.log(`wrote ${path}`);
}
