// Shared-workspace benchmark: accepted edits per second and conflict rate with 20 concurrent
// editors on one document and on one flow (disjoint vs overlapping nodes), each beside a warm single
// editor baseline measured in the same run on the same database: every case is warmed up first, then
// the six cases run in rounds whose order alternates (ABC…, …CBA), each round on fresh objects, and
// the figures are medians over rounds. Every editor reads the current version and then writes
// through the service, as an editor or the agent would.
//
//   npm run bench:workspace               full run (~1.5 min)
//   npm run bench:workspace -- --quick    smoke run (< 1 min)
//   (--smoke: one short round, used by test/bench-anomaly.test.ts with ATELIER_BENCH_PLANT)
//
// Prints a table, then the verdict and one line `BENCH_RESULT {json}`. Exits 1 when an invariant is
// violated (a lost or doubled write, a version gap, a failed write) or a ratio is below its floor
// (./workspace/checks.ts).
import { performance } from 'node:perf_hooks';
import type { Viewer } from '../../server/auth/viewer.ts';
import type { AppError } from '../../server/errors.ts';
import { readObjectOp } from '../../server/store/objects/operations.ts';
import { createObject, editDocument, editFlow, updateObject } from '../../server/services/objects/write-object.ts';
import { startTestApp } from '../helpers/app.ts';
import { fmt, round, table } from './stats.ts';
import { plantRequested, verdict } from './verdict.ts';
import { checkWorkspace, plantWorkspace, workspaceFigures, workspaceGates, type CaseKind, type CaseRun, type NodeWrite } from './workspace/checks.ts';

const QUICK = process.argv.includes('--quick');
// --smoke: one short round, for the checker's self-test (test/bench-anomaly.test.ts); figures meaningless.
const SMOKE = process.argv.includes('--smoke');
const CFG = SMOKE
  ? { mode: 'smoke', editors: 20, rounds: 1, attemptsPerRun: 40, maxRunMs: 300, warmupMs: 0 }
  : QUICK
    ? { mode: 'quick', editors: 20, rounds: 3, attemptsPerRun: 200, maxRunMs: 1_000, warmupMs: 400 }
    : { mode: 'full', editors: 20, rounds: 5, attemptsPerRun: 1_500, maxRunMs: 2_500, warmupMs: 1_000 };
const ORDER: CaseKind[] = ['doc-base', 'doc-own', 'doc-rewrite', 'flow-base', 'flow-own', 'flow-shared'];

type Attempt = (editor: number, i: number) => Promise<boolean>;

async function main(): Promise<number> {
  const t = await startTestApp('benchws');
  const viewer: Viewer = { userId: t.a.ownerId, credentialId: 'bench', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
  const deps = t.app.deps;
  const ws = t.a.workspaceId;
  const read = (objectId: string) => readObjectOp(deps.prisma, { workspaceId: ws, objectId });
  try {
    const newDoc = async () =>
      (await createObject(deps, viewer, { workspaceId: ws, kind: 'DOCUMENT', name: 'bench doc', content: { markdown: Array.from({ length: CFG.editors }, (_, i) => `# Shot ${i}\nline-${i}: 0`).join('\n') } })).object.id;
    const newFlow = async () =>
      (await createObject(deps, viewer, { workspaceId: ws, kind: 'FLOW', name: 'bench flow', content: { nodes: Array.from({ length: CFG.editors }, (_, i) => ({ id: `n${i}`, kind: 'step', params: { v: 0 } })), edges: [] } }))
        .object.id;

    /** One case on a fresh object: the editors' loops, then what the database holds. */
    async function runCase(kind: CaseKind, round: number, maxMs: number, attemptsCap: number): Promise<CaseRun> {
      const editors = kind.endsWith('base') ? 1 : CFG.editors;
      const isDoc = kind.startsWith('doc');
      const objectId = isDoc ? await newDoc() : await newFlow();
      const acceptedByEditor = Array.from({ length: CFG.editors }, () => 0);
      const acceptedByNode: Record<string, NodeWrite[]> = {};
      const errors: string[] = [];
      /** A refusal (CONFLICT / BAD_USER_INPUT) counts as a conflict; anything else is a bug, recorded. */
      const attemptOf = (write: () => Promise<unknown>) => write().then(() => true, (e) => {
        const code = (e as AppError).code;
        if (code !== 'CONFLICT' && code !== 'BAD_USER_INPUT') errors.push(String((e as Error).message).slice(0, 160));
        return false;
      });
      const nodeOf = (e: number) => (kind === 'flow-shared' ? `n${e % 3}` : `n${e}`);
      const attempt: Attempt =
        kind === 'doc-base' || kind === 'doc-own'
          ? async (e) => {
              // Find/replace on the editor's own line (the find holds whatever the version).
              const { version } = await read(objectId);
              const m = new RegExp(`line-${e}: (\\d+)$`, 'm').exec((version.content as { markdown: string }).markdown)!;
              const ok = await attemptOf(() => editDocument(deps, viewer, { objectId, edits: [{ find: m[0], replace: `line-${e}: ${Number(m[1]) + 1}` }] }));
              if (ok) acceptedByEditor[e]!++;
              return ok;
            }
          : kind === 'doc-rewrite'
            ? async (e, i) => {
                // Full rewrites with a base version (any concurrent write makes the others stale).
                const { version } = await read(objectId);
                const md = (version.content as { markdown: string }).markdown.replace(new RegExp(`^line-${e}: \\d+$`, 'm'), `line-${e}: ${i}`);
                return attemptOf(() => updateObject(deps, viewer, { objectId, baseVersion: version.version, content: { markdown: md } }));
              }
            : async (e, i) => {
                // Flow: each editor updates one node, based on the version it read.
                const { version } = await read(objectId);
                const node = nodeOf(e);
                const ok = await attemptOf(() => editFlow(deps, viewer, { objectId, baseVersion: version.version, ops: [{ op: 'update_node', nodeId: node, params: { v: i, by: e } }] }));
                if (ok) (acceptedByNode[node] ??= []).push({ v: i, by: e });
                return ok;
              };
      let attempts = 0;
      let accepted = 0;
      const start = performance.now();
      await Promise.all(
        Array.from({ length: editors }, async (_, e) => {
          for (let i = 1; attempts < attemptsCap && performance.now() - start < maxMs; i++) {
            attempts++;
            if (await attempt(e, i)) accepted++;
          }
        }),
      );
      const ms = performance.now() - start;
      const versions = (await deps.prisma.objectVersion.findMany({ where: { objectId }, select: { version: true } })).map((x) => x.version);
      const feedVersions = (await deps.prisma.objectChange.findMany({ where: { objectId }, select: { version: true } })).map((x) => x.version);
      const { object, version } = await read(objectId);
      const run: CaseRun = { kind, round, editors, attempts, accepted, ms, errors, versions, currentVersion: object.currentVersion, feedVersions };
      if (kind === 'doc-base' || kind === 'doc-own') {
        const md = (version.content as { markdown: string }).markdown;
        run.acceptedByEditor = acceptedByEditor;
        run.finalCounters = acceptedByEditor.map((_, e) => Number(new RegExp(`^line-${e}: (\\d+)$`, 'm').exec(md)?.[1] ?? NaN));
      } else if (!isDoc) {
        const nodes = (version.content as { nodes: { id: string; params: { v: number; by?: number } }[] }).nodes;
        run.acceptedByNode = acceptedByNode;
        run.finalNodes = Object.fromEntries(nodes.map((n) => [n.id, n.params.by === undefined ? null : { v: n.params.v, by: n.params.by }]));
      }
      return run;
    }

    // Warm-up of every case (not measured): JIT, the pool, plans, caches.
    if (CFG.warmupMs) for (const kind of ORDER) await runCase(kind, -1, CFG.warmupMs, CFG.attemptsPerRun);
    let runs: CaseRun[] = [];
    for (let r = 0; r < CFG.rounds; r++) {
      for (const kind of r % 2 === 0 ? ORDER : [...ORDER].reverse()) runs.push(await runCase(kind, r, CFG.maxRunMs, CFG.attemptsPerRun));
      process.stderr.write(`  round ${r + 1}/${CFG.rounds} done\n`);
    }
    const planted = plantRequested();
    if (planted) runs = plantWorkspace(runs, planted);

    const figures = workspaceFigures(runs);
    console.log(`shared workspace benchmark (${CFG.mode}): ${CFG.editors} concurrent editors, read-then-write through the services;`);
    console.log(`${CFG.rounds} rounds of the six cases (order alternating, fresh objects, up to ${CFG.attemptsPerRun} attempts or ${CFG.maxRunMs / 1000} s each) after a warm-up of each;`);
    console.log(`accepted/s are medians over rounds; × baseline = ÷ the warm single editor of the same family.\n`);
    console.log(
      table(
        ['case', 'attempts', 'accepted', 'accepted/s', 'x baseline', 'conflict rate'],
        figures.map((f) => [f.name, String(f.attempts), String(f.accepted), fmt(f.perSec), fmt(f.ratio, 2), `${fmt(f.conflictRate * 100)}%`]),
      ),
    );
    const violations = checkWorkspace(runs);
    const gates = workspaceGates(runs);
    const code = verdict('bench:workspace', violations, gates, planted);
    console.log(
      `BENCH_RESULT ${JSON.stringify({
        mode: CFG.mode,
        editors: CFG.editors,
        rounds: CFG.rounds,
        cases: figures.map((f) => ({ name: f.name, attempts: f.attempts, accepted: f.accepted, acceptedPerSec: round(f.perSec), ratioToBaseline: round(f.ratio), conflictRate: round(f.conflictRate, 3) })),
        gates: gates.map((g) => ({ ...g, value: round(g.value, 3) })),
        violations,
      })}`,
    );
    return code;
  } finally {
    await t.close();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
