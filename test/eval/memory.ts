// npm run eval:memory [-- --quiet] — memory evaluation (LongMemEval-style) on a real PostgreSQL
// database, on two sets:
//   development  memory-cases.json    the set the extractor and retrieval were built on
//   held-out     memory-heldout.json  written apart, in other words; never used to change the
//                                     product (see its note)
// Categories: extraction, multi-session, temporal (dates, also those in the wording: "last spring"),
// knowledge update, abstention, one-off (an instruction for one piece of work vs a lasting one),
// stated-inferred (an observation, a hedge, someone else), restated (the same fact said again,
// the first saying forgotten), forgetting. Each
// case is a user of its own (scope isolation keeps them apart). Its sessions are stored as evidence
// with their dates and extracted (offline: the rule-based extractor; then again through the model
// extractor with a scripted model, see below), sources are forgotten when the
// case says so, then the question goes, as it is, to the retrieval the worker uses
// (retrieveMemories with a text, as worker-context.ts calls it; `asOf` when the case asks about a
// past date). The answer is the value of the top memory returned, or no answer when the retrieval
// returns nothing (relevance is the retrieval's decision, not this harness's). An answer is right
// when it equals the expected value after normalisation (case, whitespace, punctuation, diacritics)
// — not a substring of it; an abstention case is right when there is no answer.
// Exits 1 below a floor of test/eval/floors.ts (CI runs this as a gate).
import { readFileSync } from 'node:fs';
import type { BaseMessage } from '@langchain/core/messages';
import { AIMessageChunk } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { ScriptedChatModel, type Script } from '../../server/runtime/models/scripted-model.ts';
import { createPrisma, type PrismaClient } from '../../server/db/client.ts';
import { extractEvidence, type CandidateSource } from '../../server/services/memory/extract-memories.ts';
import { extractCandidates, type SourceKind } from '../../server/services/memory/extractor.ts';
import { createModelExtractor, EXTRACTION_TOOL, type ModelMemory } from '../../server/services/memory/model-extractor.ts';
import { forgetEvidenceNow } from '../../server/services/memory/forget.ts';
import { retrieveMemories } from '../../server/services/memory/retrieve-memories.ts';
import { recordEvidence } from '../../server/services/memory/store.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { MEMORY_FLOORS, MEMORY_MODEL_FLOORS, type MemoryFloors } from './floors.ts';

export type MemoryCase = {
  id: string;
  category: string;
  sessions: { at: string; messages: string[] }[];
  /** [session, message] of sources to forget before the question. */
  forget?: [number, number][];
  question: string;
  /** The question is about this date (the versions valid then). */
  asOf?: string;
  /** The value, or null: nothing is known, the right answer is no answer. */
  expect: string | null;
};

export const CATEGORIES = ['extraction', 'multi-session', 'temporal', 'knowledge-update', 'abstention', 'one-off', 'stated-inferred', 'restated', 'forgetting'] as const;

/**
 * A scripted chat model that answers as LangChain's chat models do (an AIMessageChunk), which the
 * base `withStructuredOutput` reads its tool call from.
 */
export class StructuredScriptedModel extends ScriptedChatModel {
  override async _generate(messages: BaseMessage[], options: this['ParsedCallOptions']): Promise<ChatResult> {
    const r = await super._generate(messages, options);
    const g = r.generations[0]!;
    const m = g.message as AIMessageChunk;
    return { generations: [{ text: g.text, message: new AIMessageChunk({ content: m.content, tool_calls: m.tool_calls, usage_metadata: m.usage_metadata, response_metadata: m.response_metadata }) }] };
  }
}

/** The message, its kind and its time, as the model extractor's prompt gives them. */
export function promptParts(messages: BaseMessage[]): { text: string; source: SourceKind; at: Date } {
  const system = String(messages[0]?.content ?? '');
  return {
    text: String(messages.at(-1)?.content ?? ''),
    source: system.includes('an observation of what the user did') ? 'OBSERVATION' : 'MESSAGE',
    at: new Date(/Message time: (\S+)/.exec(system)?.[1] ?? Date.now()),
  };
}

/**
 * The scripted model of the evaluation: it reads a message as the rules do and answers in the
 * model's schema, plus two answers the validation must refuse — a span that is not in the message
 * and the same subject marked temporary with another value (accepted, it would conflict with the
 * good one and take it down). What it measures is the model path end to end: prompt, tool call,
 * structured output, conversion, validation one by one, the model's version, dates, forgetting.
 */
export const rulesAsModel: Script = ({ messages }) => {
  const { text, source, at } = promptParts(messages);
  const memories: ModelMemory[] = (extractCandidates(text, source, at) as Record<string, unknown>[]).map((c) => ({
    subject: c.subjectKey as string,
    kind: c.kind as ModelMemory['kind'],
    scope: c.scope === 'TASK' ? 'USER' : (c.scope as 'USER' | 'WORKSPACE'),
    value: c.value as string,
    origin: c.origin === 'INFERRED' ? 'inferred' : 'stated',
    duration: 'lasting',
    validFrom: typeof c.validFrom === 'string' ? c.validFrom.slice(0, 10) : null,
    evidence: c.quote as string,
    confidence: null,
  }));
  const refused: ModelMemory[] = memories.length
    ? [
        { ...memories[0]!, value: 'Atlantis', evidence: 'I live in Atlantis' },
        { ...memories[0]!, value: `${memories[0]!.value} x`, duration: 'temporary' },
      ]
    : [];
  return { toolCalls: [{ name: EXTRACTION_TOOL, args: { memories: [...memories, ...refused] } }] };
};

/** The model extractor over the scripted model above. */
export const scriptedModelExtractor = (): CandidateSource => createModelExtractor({ model: new StructuredScriptedModel(rulesAsModel), modelName: 'eval-scripted' });

export const MEMORY_SETS = [
  { name: 'development', file: new URL('./memory-cases.json', import.meta.url), floors: MEMORY_FLOORS.development },
  { name: 'held-out', file: new URL('./memory-heldout.json', import.meta.url), floors: MEMORY_FLOORS.heldout },
] as const;

/** The cases of a file: a JSON array, or the `cases` of a `{ note, cases }` wrapper. */
export function loadMemoryCases(file: URL): MemoryCase[] {
  const raw = JSON.parse(readFileSync(file, 'utf8')) as MemoryCase[] | { cases: MemoryCase[] };
  const cases = Array.isArray(raw) ? raw : raw.cases;
  for (const c of cases) {
    if (!(CATEGORIES as readonly string[]).includes(c.category)) throw new Error(`${c.id}: unknown category ${c.category}`);
  }
  return cases;
}

/** Case, whitespace, punctuation and diacritics do not count; everything else does. */
export function normalizeAnswer(s: string): string {
  return s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

export type MemoryEvalResult = { perCategory: Record<string, { ok: number; all: number }>; ok: number; all: number; failures: string[] };

/**
 * Runs cases against a database; `extractor` replaces the rule-based one (e.g. a stub). Cases run
 * a few at a time: each is a workspace and user of its own, so they cannot meet.
 */
export async function runMemoryCases(prisma: PrismaClient, cases: MemoryCase[], opts: { prefix: string; extractor?: CandidateSource; concurrency?: number }): Promise<MemoryEvalResult> {
  const answers = new Array<string | null>(cases.length);
  let next = 0;
  const runOne = async (c: MemoryCase): Promise<string | null> => {
    const key = `${opts.prefix}-${c.id}`;
    const ws = await prisma.workspace.create({ data: { name: key, slug: `eval-${key}` } });
    const user = await prisma.user.create({ data: { email: `${key}@eval.test`, name: c.id } });
    const ids: string[][] = [];
    for (const [si, s] of c.sessions.entries()) {
      ids.push([]);
      for (const [mi, text] of s.messages.entries()) {
        const at = new Date(new Date(`${s.at}T10:00:00Z`).getTime() + mi * 60_000);
        const kind = /^The user /.test(text) ? 'OBSERVATION' : 'MESSAGE';
        const ev = await prisma.$transaction((tx) => recordEvidence(tx, { workspaceId: ws.id, userId: user.id, kind, text, occurredAt: at }));
        await extractEvidence({ prisma, extractor: opts.extractor }, ev.id);
        ids[si]!.push(ev.id);
      }
    }
    for (const [si, mi] of c.forget ?? []) await prisma.$transaction((tx) => forgetEvidenceNow(tx, { workspaceId: ws.id, evidenceId: ids[si]![mi]! }));
    // The worker's retrieval (worker-context.ts): the text as it is, its limit; the top memory answers.
    const found = await retrieveMemories(prisma, { workspaceId: ws.id, userId: user.id, text: c.question, asOf: c.asOf ? new Date(`${c.asOf}T00:00:00Z`) : undefined, limit: 8 });
    return found[0]?.value ?? null;
  };
  await Promise.all(
    Array.from({ length: Math.min(opts.concurrency ?? 4, cases.length) }, async () => {
      while (next < cases.length) {
        const i = next++;
        answers[i] = await runOne(cases[i]!);
      }
    }),
  );
  const r: MemoryEvalResult = { perCategory: {}, ok: 0, all: 0, failures: [] };
  for (const [i, c] of cases.entries()) {
    const answer = answers[i]!;
    const ok = c.expect === null ? answer === null : answer !== null && normalizeAnswer(answer) === normalizeAnswer(c.expect);
    const s = (r.perCategory[c.category] ??= { ok: 0, all: 0 });
    s.all++;
    r.all++;
    if (ok) {
      s.ok++;
      r.ok++;
    } else r.failures.push(`${c.id}: "${c.question}" expected ${JSON.stringify(c.expect)}, got ${JSON.stringify(answer)}`);
  }
  return r;
}

/** Every floor a set's figures miss, as sentences (empty when all are met). */
export function belowMemoryFloors(r: MemoryEvalResult, floors: MemoryFloors): string[] {
  const out: string[] = [];
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  for (const [cat, floor] of Object.entries(floors)) {
    const s = cat === 'overall' ? { ok: r.ok, all: r.all } : r.perCategory[cat];
    if (!s) continue;
    if (s.ok / s.all < floor) out.push(`${cat} ${pct(s.ok / s.all)} < ${pct(floor)}`);
  }
  return out;
}

/** A database of its own for one run of the evaluation. */
export async function withEvalDatabase<T>(label: string, fn: (prisma: PrismaClient) => Promise<T>): Promise<T> {
  const db = await createTestDatabase(label);
  const prisma = createPrisma(db.url);
  try {
    return await fn(prisma);
  } finally {
    await prisma.$disconnect();
    await db.drop();
  }
}

async function main() {
  const quiet = process.argv.includes('--quiet');
  const misses: string[] = [];
  const summary: Record<string, unknown> = {};
  console.log('memory evaluation — answers from retrieveMemories, the worker\'s retrieval; exact values');
  await withEvalDatabase('evalmem', async (prisma) => {
    const runs = [
      ...MEMORY_SETS.map((s) => ({ ...s, label: 'offline, rule-based extractor', key: s.name, extractor: undefined as CandidateSource | undefined })),
      ...MEMORY_SETS.map((s) => ({ ...s, floors: MEMORY_MODEL_FLOORS, label: 'model extractor, scripted model', key: `${s.name} (scripted model)`, extractor: scriptedModelExtractor() })),
    ];
    for (const s of runs) {
      const cases = loadMemoryCases(s.file);
      const r = await runMemoryCases(prisma, cases, { prefix: s.key.replace(/\W+/g, '-'), extractor: s.extractor });
      console.log(`\n${s.name} set, ${s.label} — ${s.file.pathname.split('/').pop()}: ${r.all} cases`);
      console.log('category            correct  accuracy  floor');
      const line = (cat: string, x: { ok: number; all: number }) => {
        const floor = (s.floors as MemoryFloors)[cat];
        console.log(`  ${cat.padEnd(18)} ${`${x.ok}/${x.all}`.padStart(6)}  ${`${((100 * x.ok) / x.all).toFixed(1)}%`.padStart(8)}  ${floor === undefined ? '' : `${Math.round(100 * floor)}%`.padStart(5)}`);
      };
      for (const cat of CATEGORIES) if (r.perCategory[cat]) line(cat, r.perCategory[cat]);
      line('overall', { ok: r.ok, all: r.all });
      if (!quiet) for (const f of r.failures) console.log(`  ✗ ${f}`);
      misses.push(...belowMemoryFloors(r, s.floors).map((m) => `${s.key}: ${m}`));
      summary[s.key] = { ok: r.ok, all: r.all, perCategory: r.perCategory };
    }
  });
  console.log(`\nEVAL_RESULT ${JSON.stringify(summary)}`);
  if (misses.length) {
    console.error(`\n✖ below the floors (test/eval/floors.ts):\n${misses.map((m) => `  - ${m}`).join('\n')}`);
    process.exit(1);
  }
  console.log('\n✓ every figure at or above its floor');
  // The product's stated targets, on every set (held-out included): offline ≥ 85% overall and
  // ≥ 95% on forgetting; through the model path, every forgetting case.
  type Figures = { ok: number; all: number; perCategory: Record<string, { ok: number; all: number }> };
  const pct = (x: { ok: number; all: number } | undefined) => (x && x.all ? x.ok / x.all : 1);
  const targets: { what: string; got: number; want: number }[] = [];
  for (const [key, f] of Object.entries(summary as Record<string, Figures>)) {
    if (key.includes('scripted model')) targets.push({ what: `${key}: forgetting`, got: pct(f.perCategory.forgetting), want: 1 });
    else {
      targets.push({ what: `${key}: overall`, got: pct(f), want: 0.85 });
      targets.push({ what: `${key}: forgetting`, got: pct(f.perCategory.forgetting), want: 0.95 });
    }
  }
  console.log('\ntargets');
  for (const t of targets) console.log(`  ${t.got >= t.want ? '✓' : '✗'} ${t.what.padEnd(42)} ${(100 * t.got).toFixed(1)}%  (target ≥ ${Math.round(100 * t.want)}%)`);
  if (targets.some((t) => t.got < t.want)) {
    console.error('\n✖ a target is not met');
    process.exit(1);
  }
  console.log('✓ every target met');
}

if (process.argv[1]?.endsWith('memory.ts')) {
  main().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
