// Incremental production: a step whose inputs are unchanged reuses an earlier result instead of
// ordering again. "Unchanged" is exact: the same task, kind, provider, prompt and reference, and the
// same source objects at the same versions (what the result records it was made from).
//
// Invariants: a result is reused only if it succeeded and its object still exists; never one a
// person declined on a card (new candidates after "none of these" are new); never one already
// linked to a step of the plan (a step that needs three results gets three different ones).
import type { Db } from '../db/client.ts';
import type { GenerationKind } from '../generation/types.ts';
import { assetIdForJob } from './objects/store.ts';
import type { Source } from './objects/derivations.ts';

export type Reusable = { jobId: string; objectId: string; quoteCents: number };

const sameSources = (a: readonly Source[] | undefined, b: readonly Source[]) =>
  (a ?? []).length === b.length && (a ?? []).every((s, k) => s.objectId === b[k]!.objectId && s.version === b[k]!.version);

export async function findReusableResult(
  db: Db,
  q: { workspaceId: string; taskId: string; kind: GenerationKind; provider: string; prompt: string; referenceId?: string; sources: readonly Source[]; linked: ReadonlySet<string> },
): Promise<Reusable | null> {
  // generation_jobs (task_id, kind): a task's jobs of one kind, newest first.
  const jobs = await db.generationJob.findMany({
    where: { workspaceId: q.workspaceId, taskId: q.taskId, kind: q.kind, provider: q.provider, prompt: q.prompt, status: 'SUCCEEDED' },
    select: { id: true, params: true, quoteCents: true },
    orderBy: { createdAt: 'desc' },
    take: 20,
  });
  const fitting = jobs.filter((j) => {
    const p = j.params as { referenceId?: string; sources?: Source[] };
    return (p.referenceId ?? undefined) === q.referenceId && sameSources(p.sources, q.sources);
  });
  if (!fitting.length) return null;
  const declined = new Set(
    (await db.approval.findMany({ where: { taskId: q.taskId, status: 'REJECTED', kind: 'CHECKPOINT' }, select: { options: true } })).flatMap((a) =>
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
