// The generation_jobs table. A job is one paid order, unique per (workspace, idempotency key) — the
// tool call's id — so two workers placing the same call make one order. Its status only moves
// forward (generation/status.ts decides; these statements write what was decided under the row lock
// taken by lockJob/lockJobForUpdate), and the upstream id, once known, is never replaced.
import { sealForTask } from './sealing/scope.ts';
import { opened, openOne as openOneOpened } from './sealing/open.ts';
import type { Db, Tx } from '../db/client.ts';
import type { Prisma } from '../db/generated/client.ts';
import type { JobStatus } from '../generation/status.ts';
import type { GeneratedFile } from '../generation/types.ts';

/** The columns a status change is decided from, read under the job's row lock. */
export type LockedJob = { id: string; task_id: string | null; status: JobStatus; progress: number; upstream_job_id: string | null };

export type NewOrder = {
  workspaceId: string;
  taskId: string | null;
  kind: string;
  provider: string;
  idempotencyKey: string;
  prompt: string;
  params: unknown;
  quoteCents: number;
  workerId: string | null;
  turnGeneration: number | null;
};

/**
 * Places an order as SUBMITTING, or nothing when one exists for its (workspace, key): returns the new
 * job's id, or null. Submission happens after the commit, so a placed order may exist without an
 * upstream job (its placer died): reconciliation and takeovers submit it by the same key.
 */
export async function insertOrder(tx: Tx, o: NewOrder): Promise<string | null> {
  const rows = await tx.$queryRawUnsafe<{ id: string }[]>(
    `INSERT INTO generation_jobs (id, workspace_id, task_id, kind, provider, idempotency_key, prompt, params, status, quote_cents, worker_id, turn_generation, created_at, updated_at, last_seen_at)
     VALUES (gen_random_uuid(), $1::uuid, $2::uuid, $3::"GenerationKind", $4, $5, $6, $7::jsonb, 'SUBMITTING', $8, $9, $10, now(), now(), now())
     ON CONFLICT (workspace_id, idempotency_key) DO NOTHING RETURNING id`,
    o.workspaceId,
    o.taskId,
    o.kind,
    o.provider,
    o.idempotencyKey,
    await sealForTask(tx, o.taskId, o.prompt),
    JSON.stringify(await sealForTask(tx, o.taskId, o.params ?? {})),
    o.quoteCents,
    o.workerId,
    o.turnGeneration,
  );
  return rows[0]?.id ?? null;
}

const byKey = (workspaceId: string, idempotencyKey: string) => ({ workspaceId_idempotencyKey: { workspaceId, idempotencyKey } });

/** Whether the order for this key exists; read under the gate's lock, so the answer holds to commit. */
export async function orderExists(tx: Tx, workspaceId: string, idempotencyKey: string): Promise<boolean> {
  return (await tx.generationJob.findUnique({ where: byKey(workspaceId, idempotencyKey), select: { id: true } })) !== null;
}

/** The order placed for this key (it must exist: the caller placed it or found it). */
export async function readOrderByKey(db: Db, workspaceId: string, idempotencyKey: string) {
  return openRow(db, await db.generationJob.findUniqueOrThrow({ where: byKey(workspaceId, idempotencyKey) }));
}

/** A job by id (it must exist). */
export async function readJob(db: Db, id: string) {
  return openRow(db, await db.generationJob.findUniqueOrThrow({ where: { id } }));
}

/** A job's status as it is now (it must exist), for deciding on the job rather than on an older copy. */
export async function readJobStatus(db: Db, id: string): Promise<{ id: string; status: JobStatus }> {
  return db.generationJob.findUniqueOrThrow({ where: { id }, select: { id: true, status: true } });
}

/** Locks a job row by id: every status change of a job is decided under this lock. */
export async function lockJob(tx: Tx, id: string): Promise<LockedJob | undefined> {
  const rows = await tx.$queryRawUnsafe<LockedJob[]>('SELECT id, task_id, status, progress, upstream_job_id FROM generation_jobs WHERE id = $1::uuid FOR UPDATE', id);
  return rows[0];
}

/**
 * Locks the job a provider update is about: by its upstream id, or — for a callback that beats
 * submit()'s answer — by our idempotency key on a job that has no upstream id yet. One row at most.
 */
export async function lockJobForUpdate(tx: Tx, provider: string, upstreamJobId: string, idempotencyKey: string | null): Promise<LockedJob | undefined> {
  const rows = await tx.$queryRawUnsafe<LockedJob[]>(
    `SELECT id, task_id, status, progress, upstream_job_id FROM generation_jobs
      WHERE provider = $1 AND (upstream_job_id = $2 OR ($3::text IS NOT NULL AND upstream_job_id IS NULL AND idempotency_key = $3))
      ORDER BY upstream_job_id NULLS LAST LIMIT 1 FOR UPDATE`,
    provider,
    upstreamJobId,
    idempotencyKey,
  );
  return rows[0];
}

/**
 * Records a submission's answer on the locked job: the status only when it moves forward (`advance`
 * said so), the upstream id only when none is known yet, and always that the job was seen.
 */
export async function recordSubmissionAnswer(
  tx: Tx,
  id: string,
  set: { status?: JobStatus; error?: string | null; upstreamJobId?: string },
): Promise<void> {
  await tx.generationJob.update({
    where: { id },
    data: {
      ...(set.status ? { status: set.status, error: set.error ?? null } : {}),
      ...(set.upstreamJobId ? { upstreamJobId: set.upstreamJobId } : {}),
      lastSeenAt: new Date(),
    },
  });
}

/** Attaches the upstream id a callback brought before submit()'s answer did (the job had none). */
export async function attachUpstreamId(tx: Tx, id: string, upstreamJobId: string): Promise<void> {
  await tx.$executeRawUnsafe('UPDATE generation_jobs SET upstream_job_id = $2 WHERE id = $1::uuid', id, upstreamJobId);
}

/** A callback or poll that changed nothing (duplicate, stale, regressive): counted and seen, nothing else. */
export async function countIdleCallback(tx: Tx, id: string): Promise<void> {
  await tx.$executeRawUnsafe('UPDATE generation_jobs SET callbacks = callbacks + 1, last_seen_at = now() WHERE id = $1::uuid', id);
}

/**
 * Writes the forward move `advance` decided on the locked job, with the result's files and error;
 * a final status stamps completed_at, which is never written again (a final state is final).
 */
export async function applyJobProgress(
  tx: Tx,
  id: string,
  next: { status: JobStatus; progress: number; terminal: boolean },
  u: { files?: GeneratedFile[]; error?: string },
): Promise<void> {
  await tx.generationJob.update({
    where: { id },
    data: {
      status: next.status,
      progress: next.progress,
      callbacks: { increment: 1 },
      lastSeenAt: new Date(),
      ...(next.terminal ? { completedAt: new Date() } : {}),
      ...(u.files ? { result: { files: u.files } as unknown as Prisma.InputJsonValue } : {}),
      ...(u.error ? { error: u.error } : {}),
    },
  });
}

/** How many rows one reconciliation pass takes of each kind: a backlog drains over passes. */
const BATCH = 200;

// A job ordered by a task with memory in its context has its prompt and params sealed
// (store/sealing): the readers here open them for submission and display.
const openRow = async <T>(db: Db, row: T): Promise<T> => (await openOneOpened(db, row)).value;

/** Orders still SUBMITTING that were placed before `placedBefore` (their placer may have died). */
export async function stuckSubmissions(db: Db, provider: string, placedBefore: Date) {
  return opened(db, await db.generationJob.findMany({ where: { provider, status: 'SUBMITTING', createdAt: { lt: placedBefore } }, take: BATCH }));
}

/** Running jobs not heard of since `silentSince`: their callbacks may be lost, so they are polled. */
export async function silentJobs(db: Db, provider: string, silentSince: Date) {
  return opened(db, await db.generationJob.findMany({ where: { provider, status: { in: ['QUEUED', 'RUNNING'] }, lastSeenAt: { lt: silentSince } }, take: BATCH }));
}

/** Submissions whose outcome is unknown: looked up by key, never resubmitted blindly. */
export async function unknownSubmissions(db: Db, provider: string) {
  return opened(db, await db.generationJob.findMany({ where: { provider, status: 'UNKNOWN' }, take: BATCH }));
}

export type UnwantedJob = { id: string; task_id: string; status: string; upstream_job_id: string | null; idempotency_key: string };

/**
 * Live jobs nobody wants any more, in one statement: their task was cancelled (or failed, or ran over
 * its budget), or the checklist step they were ordered for was re-opened in a later round or removed
 * (a change of direction). Invariant it serves: no money stays held for work nobody will use.
 */
export async function unwantedJobs(db: Db, provider: string, where: { taskId?: string; status?: string } = {}): Promise<UnwantedJob[]> {
  return db.$queryRawUnsafe<UnwantedJob[]>(
    `SELECT j.id, j.task_id, j.status, j.upstream_job_id, j.idempotency_key
       FROM generation_jobs j
       JOIN tasks k ON k.id = j.task_id
       LEFT JOIN task_checklists c ON c.task_id = k.id AND c.version = k.checklist_version
      WHERE j.provider = $1
        AND j.status IN ('SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN')
        AND ($2::uuid IS NULL OR j.task_id = $2::uuid)
        AND ($3::text IS NULL OR j.status::text = $3)
        AND (k.status IN ('CANCELLED', 'FAILED', 'BUDGET_EXCEEDED')
             OR (j.params ? 'checklistItemId' AND c.items IS NOT NULL AND NOT EXISTS (
                   SELECT 1 FROM jsonb_array_elements(c.items) it
                    WHERE it->>'id' = j.params->>'checklistItemId'
                      AND COALESCE((it->>'round')::int, 0) <= COALESCE((j.params->>'checklistRound')::int, 0))))
      LIMIT ${BATCH}`,
    provider,
    where.taskId ?? null,
    where.status ?? null,
  );
}
