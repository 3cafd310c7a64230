// Statements on workspace_settings: one row per workspace holding the confirmation-free amounts,
// the autonomy level and the task budget cap. The row is also the lock that serialises a
// workspace's paid actions and changes to its settings.
import type { Db, Tx } from '../db/client.ts';
import type { AutonomyLevel } from '../domain/approval-policy.ts';

export type SettingsRow = {
  per_action_free_cents: number;
  daily_free_cents: number;
  autonomy: AutonomyLevel;
  task_budget_cap_cents: number | null;
  /** What a task does at its cap (END or PAUSE). */
  at_budget_cap: 'END' | 'PAUSE';
};

/** Creates the workspace's settings row with the defaults unless it exists. Invariant: at most one row per workspace. */
export function insertDefaultSettings(tx: Tx, workspaceId: string): Promise<number> {
  return tx.$executeRawUnsafe('INSERT INTO workspace_settings (workspace_id) VALUES ($1::uuid) ON CONFLICT DO NOTHING', workspaceId);
}

/**
 * Locks the workspace's settings row and reads it. Invariant: whoever holds this lock decides a
 * paid action (or changes the settings) against committed spending that no concurrent order of the
 * workspace can change until it commits.
 */
export function lockSettingsRow(tx: Tx, workspaceId: string): Promise<SettingsRow[]> {
  return tx.$queryRawUnsafe<SettingsRow[]>(
    `SELECT per_action_free_cents, daily_free_cents, autonomy, task_budget_cap_cents, at_budget_cap::text AS at_budget_cap
       FROM workspace_settings WHERE workspace_id = $1::uuid FOR UPDATE`,
    workspaceId,
  );
}

/** The workspace's settings, locked for the rest of the transaction (created with the defaults first if missing). */
export async function lockWorkspaceSettings(tx: Tx, workspaceId: string): Promise<SettingsRow> {
  await insertDefaultSettings(tx, workspaceId);
  const rows = await lockSettingsRow(tx, workspaceId);
  return rows[0]!;
}

/** Whether any of these workspaces accepts only trusted documents (one indexed read by key). */
export async function anyTrustedDocumentsOnly(db: Db, workspaceIds: readonly string[]): Promise<boolean> {
  if (workspaceIds.length === 0) return false;
  const row = await db.workspaceSettings.findFirst({ where: { workspaceId: { in: [...workspaceIds] }, trustedDocumentsOnly: true }, select: { workspaceId: true } });
  return row !== null;
}
