// Shared-workspace benchmark: accepted edits per second and conflict rate with 20 concurrent
// editors on one document and on one flow (disjoint vs overlapping nodes), each beside a single
// editor baseline measured in the same run on the same database (the machine is small and shared,
// so absolute figures drift; the ratios are the point). Every editor reads the current version and
// then writes through the service, as an editor or the agent would.
//
//   npm run bench:workspace               full run (~1 min)
//   npm run bench:workspace -- --quick    smoke run (< 30 s)
//
// Prints a table, then one line `BENCH_RESULT {json}`. Never asserts timings.
import { performance } from 'node:perf_hooks';
import type { Viewer } from '../../server/auth/viewer.ts';
import type { AppError } from '../../server/errors.ts';
import { readObjectOp } from '../../server/services/objects/operations.ts';
import { createObject, editDocument, editFlow, updateObject } from '../../server/services/objects/write-object.ts';
import { startTestApp } from '../helpers/app.ts';
import { fmt, round, table } from './stats.ts';

const QUICK = process.argv.includes('--quick');
const CFG = QUICK ? { mode: 'quick', editors: 20, attemptsPerCase: 300, maxCaseMs: 2_500 } : { mode: 'full', editors: 20, attemptsPerCase: 3_000, maxCaseMs: 6_000 };

type CaseResult = { name: string; editors: number; attempts: number; accepted: number; refused: number; ms: number; perSec: number; conflictRate: number };

async function runCase(name: string, editors: number, attempt: (editor: number, i: number) => Promise<boolean>): Promise<CaseResult> {
  let attempts = 0;
  let accepted = 0;
  let refused = 0;
  const start = performance.now();
  const deadline = start + CFG.maxCaseMs;
  await Promise.all(
    Array.from({ length: editors }, async (_, e) => {
      for (let i = 0; attempts < CFG.attemptsPerCase && performance.now() < deadline; i++) {
        attempts++;
        if (await attempt(e, i)) accepted++;
        else refused++;
      }
    }),
  );
  const ms = performance.now() - start;
  return { name, editors, attempts, accepted, refused, ms, perSec: (accepted / ms) * 1000, conflictRate: attempts ? refused / attempts : 0 };
}

/** A refusal (CONFLICT / BAD_USER_INPUT) counts as a conflict; anything else is a bug. */
async function refusedOk(p: Promise<unknown>): Promise<boolean> {
  try {
    await p;
    return true;
  } catch (e) {
    const code = (e as AppError).code;
    if (code === 'CONFLICT' || code === 'BAD_USER_INPUT') return false;
    throw e;
  }
}

async function main() {
  const t = await startTestApp('benchws');
  const viewer: Viewer = { userId: t.a.ownerId, credentialId: 'bench', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
  const deps = t.app.deps;
  const ws = t.a.workspaceId;
  const read = (objectId: string) => readObjectOp(deps.prisma, { workspaceId: ws, objectId });
  try {
    const newDoc = async () =>
      (
        await createObject(deps, viewer, {
          workspaceId: ws,
          kind: 'DOCUMENT',
          name: 'bench doc',
          content: { markdown: Array.from({ length: CFG.editors }, (_, i) => `# Shot ${i}\nline-${i}: 0`).join('\n') },
        })
      ).object.id;
    const newFlow = async () =>
      (
        await createObject(deps, viewer, {
          workspaceId: ws,
          kind: 'FLOW',
          name: 'bench flow',
          content: { nodes: Array.from({ length: CFG.editors }, (_, i) => ({ id: `n${i}`, kind: 'step', params: { v: 0 } })), edges: [] },
        })
      ).object.id;

    // Document: find/replace on the editor's own line (the find holds whatever the version).
    const docEdit = (objectId: string) => async (e: number) => {
      const { version } = await read(objectId);
      const m = new RegExp(`line-${e}: (\\d+)`).exec((version.content as { markdown: string }).markdown)!;
      return refusedOk(editDocument(deps, viewer, { objectId, edits: [{ find: m[0], replace: `line-${e}: ${Number(m[1]) + 1}` }] }));
    };
    // Document: full rewrites with a base version (any concurrent write makes the others stale).
    const docRewrite = (objectId: string) => async (e: number, i: number) => {
      const { version } = await read(objectId);
      const md = (version.content as { markdown: string }).markdown.replace(`line-${e}: `, `line-${e}: ${i}`);
      return refusedOk(updateObject(deps, viewer, { objectId, baseVersion: version.version, content: { markdown: md } }));
    };
    // Flow: each editor updates one node, based on the version it read.
    const flowEdit = (objectId: string, nodeOf: (e: number) => string) => async (e: number, i: number) => {
      const { version } = await read(objectId);
      return refusedOk(editFlow(deps, viewer, { objectId, baseVersion: version.version, ops: [{ op: 'update_node', nodeId: nodeOf(e), params: { v: i, by: e } }] }));
    };

    const results: CaseResult[] = [];
    results.push(await runCase('document find/replace, 1 editor (baseline)', 1, docEdit(await newDoc())));
    results.push(await runCase('document find/replace, 20 editors, own sections', CFG.editors, docEdit(await newDoc())));
    results.push(await runCase('document full rewrite, 20 editors', CFG.editors, docRewrite(await newDoc())));
    results.push(await runCase('flow node edit, 1 editor (baseline)', 1, flowEdit(await newFlow(), () => 'n0')));
    results.push(await runCase('flow node edit, 20 editors, disjoint nodes', CFG.editors, flowEdit(await newFlow(), (e) => `n${e}`)));
    results.push(await runCase('flow node edit, 20 editors, 3 shared nodes', CFG.editors, flowEdit(await newFlow(), (e) => `n${e % 3}`)));

    const docBase = results[0]!.perSec;
    const flowBase = results[3]!.perSec;
    const baseOf = (r: CaseResult) => (r.name.startsWith('document') ? docBase : flowBase);
    console.log(`shared workspace benchmark (${CFG.mode}): ${CFG.editors} concurrent editors, read-then-write through the services\n`);
    console.log(
      table(
        ['case', 'attempts', 'accepted', 'accepted/s', 'x baseline', 'conflict rate'],
        results.map((r) => [r.name, String(r.attempts), String(r.accepted), fmt(r.perSec), fmt(r.perSec / baseOf(r), 2), `${fmt(r.conflictRate * 100)}%`]),
      ),
    );
    const result = {
      mode: CFG.mode,
      editors: CFG.editors,
      cases: results.map((r) => ({
        name: r.name,
        attempts: r.attempts,
        accepted: r.accepted,
        acceptedPerSec: round(r.perSec),
        ratioToBaseline: round(r.perSec / baseOf(r)),
        conflictRate: round(r.conflictRate, 3),
      })),
    };
    console.log(`\nBENCH_RESULT ${JSON.stringify(result)}`);
  } finally {
    await t.close();
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
