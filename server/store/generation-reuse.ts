// Incremental production: a step whose inputs are unchanged reuses an earlier result instead of
// ordering again. "Unchanged" is exact: the same task, kind, provider, prompt and reference, and the
// same source objects at the same versions (what the result records it was made from). A fork
// counts as the same task as the tasks it was forked from (store/tasks/forks.ts forkLineage): it
// shares their history, so a step it orders with exactly their inputs reuses their result.
//
// Invariants: a result is reused only if it succeeded and its object still exists; never one a
// person declined on a card (new candidates after "none of these" are new); never one already
// linked to a step of the plan (a step that needs three results gets three different ones).
import type { Db } from '../db/client.ts';
import type { GenerationKind } from '../generation/types.ts';
import { assetIdForJob } from './objects/store.ts';
import type { Source } from './objects/derivations.ts';
import { forkLineage } from './tasks/forks.ts';

export type Reusable = { jobId: string; objectId: string; quoteCents: number };

const sameSources = (a: readonly Source[] | undefined, b: readonly Source[]) =>
  (a ?? []).length === b.length && (a ?? []).every((s, k) => s.objectId === b[k]!.objectId && s.version === b[k]!.version);

export async function findReusableResult(
  db: Db,
  q: { workspaceId: string; taskId: string; kind: GenerationKind; provider: string; prompt: string; referenceId?: string; sources: readonly Source[]; linked: ReadonlySet<string> },
): Promise<Reusable | null> {
  // The task itself first, then the tasks it was forked from, nearest first.
  const lineage = await forkLineage(db, q.taskId, q.workspaceId);
  const depth = new Map(lineage.map((id, k) => [id, k]));
  // generation_jobs (task_id, kind): the tasks' jobs of one kind, newest first.
  const jobs = (
    await db.generationJob.findMany({
      where: { workspaceId: q.workspaceId, taskId: { in: lineage }, kind: q.kind, provider: q.provider, prompt: q.prompt, status: 'SUCCEEDED' },
      select: { id: true, taskId: true, params: true, quoteCents: true },
      orderBy: { createdAt: 'desc' },
      take: 20,
    })
  ).sort((a, b) => (depth.get(a.taskId ?? '') ?? 0) - (depth.get(b.taskId ?? '') ?? 0));
  const fitting = jobs.filter((j) => {
    const p = j.params as { referenceId?: string; sources?: Source[] };
    return (p.referenceId ?? undefined) === q.referenceId && sameSources(p.sources, q.sources);
  });
  if (!fitting.length) return null;
  const declined = new Set(
    (await db.approval.findMany({ where: { taskId: { in: lineage }, status: 'REJECTED', kind: 'CHECKPOINT' }, select: { options: true } })).flatMap((a) =>
      ((a.options as { objectId?: string | null }[] | null) ?? []).map((o) => o.objectId).filter((x): x is string => !!x),
    ),
  );
  const alive = new Set(
    (await db.workspaceObject.findMany({ where: { workspaceId: q.workspaceId, id: { in: fitting.map((j) => assetIdForJob(j.id)) }, deletedAt: null }, select: { id: true } })).map((o) => o.id),
  );
  for (const j of fitting) {
    const objectId = assetIdForJob(j.id);
    if (!alive.has(objectId) || declined.has(objectId) || q.linked.has(objectId)) continue;
    return { jobId: j.id, objectId, quoteCents: j.quoteCents };
  }
  return null;
}
