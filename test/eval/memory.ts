// Memory evaluation (LongMemEval-style): multi-session cases (extraction, multi-session, temporal,
// knowledge update, abstention) plus forgetting, on a real PostgreSQL database. Each case is a user
// of its own (scope isolation keeps them apart). Sessions are stored as evidence with their dates,
// extracted (offline: the rule-based extractor), optionally forgotten, then the question is
// answered by a structured retrieval (question → subject, optional as-of date).
// Usage: npm run eval:memory [-- --quiet]
import { readFileSync } from 'node:fs';
import { createPrisma } from '../../server/db/client.ts';
import { normalizeValue } from '../../server/services/memory/extractor.ts';
import { extractEvidence } from '../../server/services/memory/extract-memories.ts';
import { forgetEvidenceNow } from '../../server/services/memory/forget.ts';
import { questionToQuery, retrieveMemories } from '../../server/services/memory/retrieve-memories.ts';
import { recordEvidence } from '../../server/services/memory/store.ts';
import { createTestDatabase } from '../helpers/db.ts';

type Case = { id: string; category: string; sessions: { at: string; messages: string[] }[]; forget?: [number, number][]; question: string; asOf?: string; expect: string | null };

const quiet = process.argv.includes('--quiet');
const cases = JSON.parse(readFileSync(new URL('./memory-cases.json', import.meta.url), 'utf8')) as Case[];
const db = await createTestDatabase('evalmem');
const prisma = createPrisma(db.url);
try {
  const perCat = new Map<string, { ok: number; all: number }>();
  const failures: string[] = [];
  for (const c of cases) {
    const ws = await prisma.workspace.create({ data: { name: c.id, slug: `eval-${c.id}` } });
    const user = await prisma.user.create({ data: { email: `${c.id}@eval.test`, name: c.id } });
    const ids: string[][] = [];
    for (const [si, s] of c.sessions.entries()) {
      ids.push([]);
      for (const [mi, text] of s.messages.entries()) {
        const at = new Date(new Date(`${s.at}T10:00:00Z`).getTime() + mi * 60_000);
        const kind = /^The user /.test(text) ? 'OBSERVATION' : 'MESSAGE';
        const ev = await prisma.$transaction((tx) => recordEvidence(tx, { workspaceId: ws.id, userId: user.id, kind, text, occurredAt: at }));
        await extractEvidence({ prisma }, ev.id);
        ids[si]!.push(ev.id);
      }
    }
    for (const [si, mi] of c.forget ?? []) await prisma.$transaction((tx) => forgetEvidenceNow(tx, { workspaceId: ws.id, evidenceId: ids[si]![mi]! }));
    const q = questionToQuery(c.question);
    const found = await retrieveMemories(prisma, { workspaceId: ws.id, userId: user.id, ...q, asOf: c.asOf ? new Date(`${c.asOf}T00:00:00Z`) : undefined, limit: 1 });
    // Abstention: only stated memories answer questions about the user.
    const answer = found.find((f) => f.origin === 'USER_STATED')?.value ?? null;
    const ok = c.expect === null ? answer === null : answer !== null && normalizeValue(answer).includes(normalizeValue(c.expect));
    const s = perCat.get(c.category) ?? { ok: 0, all: 0 };
    s.all++;
    if (ok) s.ok++;
    else failures.push(`${c.id}: "${c.question}" expected ${JSON.stringify(c.expect)}, got ${JSON.stringify(answer)}`);
    perCat.set(c.category, s);
  }
  let ok = 0;
  console.log(`memory evaluation: ${cases.length} cases, extractor: rule-based (offline)`);
  for (const [cat, s] of [...perCat].sort()) {
    ok += s.ok;
    console.log(`  ${cat.padEnd(18)} ${s.ok}/${s.all}  ${((100 * s.ok) / s.all).toFixed(1)}%`);
  }
  console.log(`  ${'overall'.padEnd(18)} ${ok}/${cases.length}  ${((100 * ok) / cases.length).toFixed(1)}%`);
  if (!quiet) for (const f of failures) console.log(`  ✗ ${f}`);
} finally {
  await prisma.$disconnect();
  await db.drop();
}
