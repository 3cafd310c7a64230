// Generation results become workspace objects. Called once from applyUpdate (generation/jobs.ts)
// in the transaction that moves a job to SUCCEEDED, with the job row locked. The object id is
// derived from the job id and inserted with ON CONFLICT DO NOTHING, so duplicate callbacks, polls
// racing callbacks, or a replayed update create exactly one asset, at version 1.
import { opened } from '../sealing/open.ts';
import type { Emit } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import { parseContent, type ObjectKind } from '../../domain/object-content.ts';
import { assetIdForJob, createObjectTx } from './store.ts';
import { insertDerivations, type Source } from './derivations.ts';
import { clip } from '../../domain/replies/languages.ts';

type File = { path: string; mime: string; bytes: number; width?: number; height?: number };

export { assetIdForJob };

export async function createAssetForJob(tx: Tx, emit: Emit, jobId: string, files: File[] | null | undefined): Promise<string | null> {
  // The prompt of a task with memory in its context is sealed: the asset is named by what it says.
  const found = await tx.generationJob.findUnique({ where: { id: jobId } });
  const job = found ? (await opened(tx, [found]))[0]! : null;
  const file = files?.[0];
  if (!job || !file) return null;
  const kind = job.kind as ObjectKind;
  const content = parseContent(kind, {
    file: { path: file.path, mime: file.mime, bytes: file.bytes, ...(file.width ? { width: file.width } : {}), ...(file.height ? { height: file.height } : {}) },
    provenance: { prompt: job.prompt, provider: job.provider, jobId: job.id, taskId: job.taskId, ...(files!.length > 1 ? { moreFiles: files!.slice(1).map((f) => f.path) } : {}) },
  });
  // Named by what was asked for, cut at a word (the kind is shown beside the name, not in it).
  const name = clip(job.prompt, 100);
  const r = await createObjectTx(tx, emit, {
    workspaceId: job.workspaceId,
    kind,
    name,
    content,
    actor: { kind: 'SYSTEM', taskId: job.taskId },
    objectId: assetIdForJob(job.id),
    idempotencyKey: `job:${job.id}`,
  });
  // What it was made from, recorded when the order was placed (generation tool): the reference and
  // the results of the steps its step comes after, each at the version used.
  const params = (job.params ?? {}) as { sources?: Source[]; checklistItemId?: string };
  if (Array.isArray(params.sources) && params.sources.length) {
    await insertDerivations(tx, {
      workspaceId: job.workspaceId,
      objectId: r.object.id,
      objectVersion: 1,
      sources: params.sources.filter((x) => typeof x?.objectId === 'string' && Number.isInteger(x?.version)),
      taskId: job.taskId,
      stepId: typeof params.checklistItemId === 'string' ? params.checklistItemId : null,
      jobId: job.id,
    });
  }
  return r.object.id;
}
