// The memory evaluation meets the floors of both sets (test/eval/floors.ts), through the worker's
// retrieval and exact values, and the floors can fail: with an extractor that extracts nothing
// (every abstention case then passes by itself) the figures are below them.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createPrisma, type PrismaClient } from '../server/db/client.ts';
import type { CandidateSource } from '../server/services/memory/extract-memories.ts';
import { belowMemoryFloors, loadMemoryCases, MEMORY_SETS, normalizeAnswer, runMemoryCases } from './eval/memory.ts';
import { createTestDatabase } from './helpers/db.ts';

let db: Awaited<ReturnType<typeof createTestDatabase>>;
let prisma: PrismaClient;
before(async () => {
  db = await createTestDatabase('memeval');
  prisma = createPrisma(db.url);
});
after(async () => {
  await prisma.$disconnect();
  await db.drop();
});

const nothing: CandidateSource = { version: 'eval-nothing', extract: async () => [] };

test('answers are compared exactly, up to case, whitespace, punctuation and diacritics', () => {
  assert.equal(normalizeAnswer('  Joaquín! '), normalizeAnswer('joaquin'));
  assert.equal(normalizeAnswer('Fern & Finch'), normalizeAnswer('fern finch'));
  assert.notEqual(normalizeAnswer('Porto since last spring'), normalizeAnswer('Porto'));
});

test('the rule-based extractor meets every floor of both sets', async () => {
  for (const s of MEMORY_SETS) {
    const r = await runMemoryCases(prisma, loadMemoryCases(s.file), { prefix: `rules-${s.name}` });
    assert.deepEqual(belowMemoryFloors(r, s.floors), [], `${s.name}:\n${r.failures.join('\n')}`);
  }
});

test('the floors catch an extractor that extracts nothing', async () => {
  for (const s of MEMORY_SETS) {
    const r = await runMemoryCases(prisma, loadMemoryCases(s.file), { prefix: `nothing-${s.name}`, extractor: nothing });
    assert.equal(r.perCategory.abstention!.ok, r.perCategory.abstention!.all, 'abstaining is free without memories');
    const misses = belowMemoryFloors(r, s.floors);
    for (const cat of ['extraction', 'multi-session', 'temporal', 'knowledge-update', 'overall']) assert.ok(misses.some((m) => m.startsWith(`${cat} `)), `${s.name}: ${cat} (${misses.join('; ')})`);
  }
});
