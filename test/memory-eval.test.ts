// The memory evaluation meets the floors of both sets (test/eval/floors.ts), through the worker's
// retrieval and exact values, and the floors can fail: with an extractor that extracts nothing
// (every abstention case then passes by itself) the figures are below them. Through the model
// extractor with the evaluation's scripted model, every forgetting case holds.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { createPrisma, type PrismaClient } from '../server/db/client.ts';
import type { CandidateSource } from '../server/services/memory/extract-memories.ts';
import { MEMORY_MODEL_FLOORS } from './eval/floors.ts';
import { belowMemoryFloors, loadMemoryCases, MEMORY_SETS, normalizeAnswer, runMemoryCases, scriptedModelExtractor } from './eval/memory.ts';
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
    // A few cases of each category are enough to show it (and keep this a quick smoke).
    const cases = loadMemoryCases(s.file).filter((c, i, all) => all.filter((d, j) => j < i && d.category === c.category).length < 3);
    const r = await runMemoryCases(prisma, cases, { prefix: `nothing-${s.name}`, extractor: nothing });
    assert.equal(r.perCategory.abstention!.ok, r.perCategory.abstention!.all, 'abstaining is free without memories');
    const misses = belowMemoryFloors(r, s.floors);
    for (const cat of ['extraction', 'multi-session', 'temporal', 'knowledge-update', 'overall']) assert.ok(misses.some((m) => m.startsWith(`${cat} `)), `${s.name}: ${cat} (${misses.join('; ')})`);
  }
});

test('through the model extractor (scripted model), every forgetting case of both sets holds, and the model did the extracting', async () => {
  for (const s of MEMORY_SETS) {
    const model = scriptedModelExtractor();
    const versions = new Set<string>();
    const counting: CandidateSource = {
      version: model.version,
      extract: async (...a) => {
        const got = await model.extract(...a);
        versions.add(Array.isArray(got) ? model.version : got.version);
        return got;
      },
    };
    const cases = loadMemoryCases(s.file).filter((c) => c.category === 'forgetting');
    const r = await runMemoryCases(prisma, cases, { prefix: `model-${s.name}`, extractor: counting });
    assert.deepEqual(belowMemoryFloors(r, MEMORY_MODEL_FLOORS), [], `${s.name}:\n${r.failures.join('\n')}`);
    assert.deepEqual([...versions], [model.version], 'no fall-back to the rules');
  }
});
