// A workspace's agent principals: the main agent (no parent, one per workspace, created lazily) and
// its sub-agents. Invariants:
//  - Every statement names the workspace: a principal id of another workspace matches nothing.
//  - The main agent is created at most once per workspace, by an INSERT … ON CONFLICT on the
//    partial unique index (workspace_id) WHERE parent_id IS NULL, with its first history row, in
//    one statement — so concurrent first turns (or a turn and the API) agree on one principal.
//  - Every change bumps `version` and writes one agent_principal_versions row (actor, what changed,
//    the principal as it became) in the same transaction, under the principal's row lock.
import type { Actor } from '../../channel/types.ts';
import { rawQuery, type Db, type Tx } from '../../db/client.ts';
import type { AgentPrincipal as AgentPrincipalRow, Prisma } from '../../db/generated/client.ts';
import { DEFAULT_CEILING } from '../../domain/agent-policy.ts';

/** The main agent's name when it is created. */
export const MAIN_AGENT_NAME = 'Atelier';

export type AgentPrincipalView = {
  id: string;
  workspaceId: string;
  name: string;
  version: number;
  parentId: string | null;
  scopes: string[];
  createdAt: Date;
  updatedAt: Date;
};

export const toView = (r: AgentPrincipalRow): AgentPrincipalView => ({
  id: r.id,
  workspaceId: r.workspaceId,
  name: r.name,
  version: r.version,
  parentId: r.parentId,
  scopes: r.scopes ?? [],
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

type SqlPrincipal = { id: string; workspace_id: string; name: string; version: number; parent_id: string | null; scopes: string[]; created_at: Date; updated_at: Date };
const fromSql = (r: SqlPrincipal): AgentPrincipalView => ({
  id: r.id,
  workspaceId: r.workspace_id,
  name: r.name,
  version: r.version,
  parentId: r.parent_id,
  scopes: r.scopes ?? [],
  createdAt: r.created_at,
  updatedAt: r.updated_at,
});

const COLUMNS = 'id::text, workspace_id::text, name, version, parent_id::text, scopes, created_at, updated_at';

// One statement: create the main agent with its history row unless it exists, and return it. The
// outer read does not see the row the CTE inserts (one snapshot), hence the UNION of both.
const ENSURE_MAIN_SQL = `
WITH ins AS (
  INSERT INTO agent_principals (id, workspace_id, name, version, parent_id, scopes, created_at, updated_at)
  VALUES (gen_random_uuid(), $1::uuid, $2, 1, NULL, $3::text[], clock_timestamp(), clock_timestamp())
  ON CONFLICT DO NOTHING
  RETURNING ${COLUMNS}
), audit AS (
  INSERT INTO agent_principal_versions (id, principal_id, workspace_id, version, actor_kind, actor_id, change, snapshot, created_at)
  SELECT gen_random_uuid(), ins.id::uuid, ins.workspace_id::uuid, 1, 'SYSTEM', NULL, 'created: the main agent, with the default ceiling',
         jsonb_build_object('name', ins.name, 'parentId', NULL, 'scopes', to_jsonb(ins.scopes), 'version', 1), clock_timestamp()
    FROM ins
)
SELECT * FROM ins
UNION ALL
SELECT ${COLUMNS} FROM agent_principals WHERE workspace_id = $1::uuid AND parent_id IS NULL
LIMIT 1`;

/**
 * The workspace's main agent, created (with the default ceiling) the first time anyone asks. One
 * statement; a second one only when a concurrent creation committed after this statement's
 * snapshot (then neither insert nor read saw a row).
 */
export async function ensureMainPrincipal(db: Db, workspaceId: string): Promise<AgentPrincipalView> {
  for (let attempt = 0; attempt < 3; attempt++) {
    const rows = await rawQuery<SqlPrincipal>(db, ENSURE_MAIN_SQL, [workspaceId, MAIN_AGENT_NAME, [...DEFAULT_CEILING]]);
    if (rows[0]) return fromSql(rows[0]);
  }
  throw new Error(`the main agent of workspace ${workspaceId} could not be read`);
}

/** The workspace's principals, the main agent first, then by name. */
export async function listPrincipals(db: Db, workspaceId: string): Promise<AgentPrincipalView[]> {
  const rows = await db.agentPrincipal.findMany({ where: { workspaceId }, orderBy: [{ createdAt: 'asc' }, { name: 'asc' }] });
  return rows.map(toView).sort((a, b) => (a.parentId === null ? -1 : b.parentId === null ? 1 : a.name.localeCompare(b.name)));
}

/** Principals by id, of the given workspaces only (others are absent). */
export async function principalsByIds(db: Db, workspaceIds: readonly string[], ids: readonly string[]): Promise<AgentPrincipalView[]> {
  if (!ids.length || !workspaceIds.length) return [];
  const rows = await db.agentPrincipal.findMany({ where: { id: { in: [...ids] }, workspaceId: { in: [...workspaceIds] } } });
  return rows.map(toView);
}

/** The principal of the workspace, its row locked until the transaction ends; null when none. */
export async function lockPrincipal(tx: Tx, workspaceId: string, id: string): Promise<AgentPrincipalView | null> {
  const rows = await rawQuery<SqlPrincipal>(tx, `SELECT ${COLUMNS} FROM agent_principals WHERE workspace_id = $1::uuid AND id = $2::uuid FOR UPDATE`, [workspaceId, id]);
  return rows[0] ? fromSql(rows[0]) : null;
}

/**
 * The direct sub-agents of a principal, their rows locked. Lock order everywhere: parent → child, so
 * a parent narrowed while a child is widened cannot both commit (one waits and sees the other).
 */
export async function lockChildren(tx: Tx, workspaceId: string, parentId: string): Promise<AgentPrincipalView[]> {
  const rows = await rawQuery<SqlPrincipal>(tx, `SELECT ${COLUMNS} FROM agent_principals WHERE workspace_id = $1::uuid AND parent_id = $2::uuid ORDER BY name FOR UPDATE`, [workspaceId, parentId]);
  return rows.map(fromSql);
}

/** A principal's workspace and parent (neither ever changes), without a lock: to lock the parent first. */
export async function principalHead(db: Db, workspaceIds: readonly string[], id: string): Promise<{ workspaceId: string; parentId: string | null } | null> {
  return db.agentPrincipal.findFirst({ where: { id, workspaceId: { in: [...workspaceIds] } }, select: { workspaceId: true, parentId: true } });
}

export async function nameTaken(tx: Tx, workspaceId: string, name: string, except?: string): Promise<boolean> {
  const hit = await tx.agentPrincipal.findFirst({ where: { workspaceId, name, ...(except ? { NOT: { id: except } } : {}) }, select: { id: true } });
  return !!hit;
}

const snapshotOf = (p: AgentPrincipalView): Prisma.InputJsonValue => ({ name: p.name, parentId: p.parentId, scopes: p.scopes, version: p.version });

async function insertVersionRow(tx: Tx, p: AgentPrincipalView, actor: Actor, change: string): Promise<void> {
  await tx.agentPrincipalVersion.create({
    data: { principalId: p.id, workspaceId: p.workspaceId, version: p.version, actorKind: actor.kind, actorId: actor.id ?? null, change, snapshot: snapshotOf(p) },
  });
}

/** Inserts a sub-agent (version 1) with its first history row. */
export async function insertSubPrincipal(tx: Tx, p: { workspaceId: string; parentId: string; name: string; scopes: string[] }, actor: Actor, change: string): Promise<AgentPrincipalView> {
  const row = toView(await tx.agentPrincipal.create({ data: { workspaceId: p.workspaceId, parentId: p.parentId, name: p.name, scopes: p.scopes, version: 1 } }));
  await insertVersionRow(tx, row, actor, change);
  return row;
}

/** Applies a change to a locked principal: version + 1 and its history row. */
export async function updatePrincipalRow(
  tx: Tx,
  current: AgentPrincipalView,
  change: { name?: string; scopes?: string[] },
  actor: Actor,
  describe: string,
): Promise<AgentPrincipalView> {
  const row = toView(
    await tx.agentPrincipal.update({
      where: { id: current.id },
      data: { ...(change.name !== undefined ? { name: change.name } : {}), ...(change.scopes !== undefined ? { scopes: change.scopes } : {}), version: current.version + 1 },
    }),
  );
  await insertVersionRow(tx, row, actor, describe);
  return row;
}

export type PrincipalChangeRow = { principalId: string; version: number; actorKind: 'USER' | 'AGENT' | 'SYSTEM'; actorId: string | null; change: string; createdAt: Date };

/** The principals' history, newest first. */
export async function principalHistory(db: Db, workspaceId: string, principalIds: readonly string[]): Promise<PrincipalChangeRow[]> {
  if (!principalIds.length) return [];
  return db.agentPrincipalVersion.findMany({
    where: { workspaceId, principalId: { in: [...principalIds] } },
    orderBy: [{ createdAt: 'desc' }, { version: 'desc' }],
    select: { principalId: true, version: true, actorKind: true, actorId: true, change: true, createdAt: true },
  });
}
