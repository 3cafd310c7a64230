// A2A push-notification configs (one row per task and client-chosen config id). Invariants:
//  - Every read names the task; the caller has authorised the task for the viewer first, so a
//    config of another workspace's task is never reached.
//  - `lastSeq` only moves forward (the update is conditional), so two followers of one config
//    (two API processes) never move it back; each callback is identified by `<config>:<seq>`.
import type { Db } from '../../db/client.ts';
import type { A2aPushConfig } from '../../db/generated/client.ts';

export type PushConfigRow = A2aPushConfig;

export type PushConfigFields = { workspaceId: string; taskId: string; configId: string; url: string; secret: string; credentialId: string; lastSeq: number };

/** Creates the config, or replaces the URL and secret of the one with that id (A2A: set is an upsert). */
export function upsertPushConfig(db: Db, f: PushConfigFields): Promise<PushConfigRow> {
  return db.a2aPushConfig.upsert({
    where: { taskId_configId: { taskId: f.taskId, configId: f.configId } },
    create: f,
    update: { url: f.url, secret: f.secret, credentialId: f.credentialId },
  });
}

export function findPushConfig(db: Db, taskId: string, configId: string): Promise<PushConfigRow | null> {
  return db.a2aPushConfig.findUnique({ where: { taskId_configId: { taskId, configId } } });
}

export function pushConfigsOf(db: Db, taskId: string): Promise<PushConfigRow[]> {
  return db.a2aPushConfig.findMany({ where: { taskId }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] });
}

export async function deletePushConfig(db: Db, taskId: string, configId: string): Promise<boolean> {
  const { count } = await db.a2aPushConfig.deleteMany({ where: { taskId, configId } });
  return count > 0;
}

/** Records that the callback for `seq` was delivered; never moves back. */
export async function advancePushConfig(db: Db, id: string, seq: number): Promise<void> {
  await db.a2aPushConfig.updateMany({ where: { id, lastSeq: { lt: seq } }, data: { lastSeq: seq } });
}

