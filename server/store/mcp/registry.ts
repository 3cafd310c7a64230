// The workspace's MCP servers as the runtime reads them, and quarantine (the runtime's one write).
// Invariants:
//  - Every statement names the workspace: a server id of another workspace matches nothing.
//  - `version` is bumped by every change and every change writes one immutable mcp_server_versions
//    row (actor, what changed, the server as it became, without its secret) in the same transaction.
//  - The bearer token is stored sealed (secret-box.ts); only these reads open it, for the runtime's
//    connection. Nothing here logs it.
//  - Quarantine is idempotent for the same observation: a second discovery that saw the same thing
//    changes nothing and files no second card; a stale observation (the server changed since it
//    was read) changes nothing either.
import { canonicalJson } from '../../domain/canonical-json.ts';
import type { McpPin, McpSafety, PinnedTool } from '../../domain/mcp-safety.ts';
import type { Actor } from '../../channel/types.ts';
import type { Db, PrismaClient, Tx } from '../../db/client.ts';
import type { McpServer as McpServerRow, Prisma } from '../../db/generated/client.ts';
import { insertApproval } from '../approvals/statements.ts';
import { openMcpSecret } from './secret-box.ts';

export type { McpPin, McpSafety, PinnedTool } from '../../domain/mcp-safety.ts';

export type McpToolOverrides = Record<string, { safety?: McpSafety; destructive?: boolean; priceCents?: number }>;

export type McpServerRecord = {
  id: string;
  workspaceId: string;
  name: string;
  title: string;
  transport: 'HTTP' | 'STDIO';
  url: string | null;
  command: string | null;
  args: string[];
  trust: 'TRUSTED' | 'UNTRUSTED';
  status: 'ACTIVE' | 'QUARANTINED' | 'DISABLED';
  pinned: McpPin | null;
  allowedTools: string[] | null;
  toolOverrides: McpToolOverrides;
  priceCentsPerCall: number | null;
  domains: string[];
  version: number;
  /** decrypted */
  authSecret: string | null;
};

/** The approval action of a quarantine card (resolved by services/mcp/approve-change.ts). */
export const MCP_CHANGE_ACTION = 'mcp.server.change';

/** A server row as the owner's API reads it: the record without the secret, plus what the API shows. */
export type McpServerView = Omit<McpServerRecord, 'authSecret'> & {
  hasAuthSecret: boolean;
  quarantineReason: string | null;
  observed: McpPin | null;
  createdAt: Date;
  updatedAt: Date;
};

export function toView(row: McpServerRow): McpServerView {
  return {
    id: row.id,
    workspaceId: row.workspaceId,
    name: row.name,
    title: row.title,
    transport: row.transport,
    url: row.url,
    command: row.command,
    args: row.args ?? [],
    trust: row.trust,
    status: row.status,
    pinned: (row.pinned as McpPin | null) ?? null,
    allowedTools: (row.allowedTools as string[] | null) ?? null,
    toolOverrides: (row.toolOverrides as McpToolOverrides | null) ?? {},
    priceCentsPerCall: row.priceCentsPerCall,
    domains: row.domains ?? [],
    version: row.version,
    hasAuthSecret: row.authSecretCipher != null,
    quarantineReason: row.quarantineReason,
    observed: (row.observed as McpPin | null) ?? null,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

function toRecord(row: McpServerRow): McpServerRecord {
  const { hasAuthSecret: _h, quarantineReason: _q, observed: _o, createdAt: _c, updatedAt: _u, ...rest } = toView(row);
  return { ...rest, authSecret: row.authSecretCipher ? openMcpSecret(row.authSecretCipher) : null };
}

/** What a version row keeps of the server: everything but the secret (only whether there is one). */
export function snapshotOf(row: McpServerRow): Prisma.InputJsonValue {
  const { createdAt: _c, updatedAt: _u, ...view } = toView(row);
  return JSON.parse(JSON.stringify(view)) as Prisma.InputJsonValue;
}

/** Writes the audit row of the change that made `row` what it is now (row.version). */
export async function insertVersionRow(tx: Tx, row: McpServerRow, actor: Actor, change: string): Promise<void> {
  await tx.mcpServerVersion.create({
    data: {
      serverId: row.id,
      workspaceId: row.workspaceId,
      version: row.version,
      actorKind: actor.kind,
      actorId: actor.id ?? null,
      change,
      snapshot: snapshotOf(row),
    },
  });
}

/** Runs `work` in the caller's transaction, or in a new one for a plain client. */
export async function inTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return '$transaction' in db ? (db as PrismaClient).$transaction(work) : work(db as Tx);
}

/** The server of the workspace, its row locked until the transaction ends; null when none. */
export async function lockMcpServer(tx: Tx, workspaceId: string, id: string): Promise<McpServerRow | null> {
  const rows = await tx.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM mcp_servers WHERE workspace_id = ${workspaceId}::uuid AND id = ${id}::uuid FOR UPDATE`;
  if (!rows.length) return null;
  return tx.mcpServer.findUniqueOrThrow({ where: { id } });
}

/** The workspace's servers whose tools may be offered now (status ACTIVE), by name. */
export async function listActiveMcpServers(db: Db, workspaceId: string): Promise<McpServerRecord[]> {
  const rows = await db.mcpServer.findMany({ where: { workspaceId, status: 'ACTIVE' }, orderBy: { name: 'asc' } });
  return rows.map(toRecord);
}

export async function getMcpServer(db: Db, workspaceId: string, id: string): Promise<McpServerRecord | null> {
  const row = await db.mcpServer.findFirst({ where: { id, workspaceId } });
  return row ? toRecord(row) : null;
}

/**
 * Discovery saw a different server version or tool schema: QUARANTINED + observed + an approval
 * card for the owners (kind CHECKPOINT, taskId null, action { type: 'mcp.server.change', serverId,
 * version }) + a version row, in one transaction; idempotent for the same observation and version.
 * A pending card of an earlier observation is cancelled: only the newest one can be approved.
 */
export async function quarantineMcpServer(
  db: Db,
  args: { serverId: string; workspaceId: string; expectedVersion: number; observed: McpPin; reason: string },
): Promise<void> {
  await inTransaction(db, async (tx) => {
    const row = await lockMcpServer(tx, args.workspaceId, args.serverId);
    if (!row) return;
    const seen = canonicalJson(args.observed);
    // The same observation again (another run, another process): already quarantined for it.
    if (row.status === 'QUARANTINED' && row.observed != null && canonicalJson(row.observed) === seen) return;
    // Read before a change by someone else: that change decides; the next discovery looks again.
    if (row.version !== args.expectedVersion) return;
    // Nothing differs from the pin after all.
    if (row.pinned != null && canonicalJson(row.pinned) === seen) return;
    await cancelPendingChangeCards(tx, args.workspaceId, args.serverId, 'A newer change of this server replaced it');
    const updated = await tx.mcpServer.update({
      where: { id: row.id },
      data: {
        status: 'QUARANTINED',
        observed: args.observed as unknown as Prisma.InputJsonValue,
        quarantineReason: args.reason,
        version: { increment: 1 },
      },
    });
    await insertVersionRow(tx, updated, { kind: 'SYSTEM', id: null }, `quarantined: ${args.reason}`);
    await insertApproval(tx, {
      workspaceId: args.workspaceId,
      taskId: null,
      kind: 'CHECKPOINT',
      title: `“${row.title}” changed its tools: use the new version?`,
      reasons: [{ code: 'CHECKPOINT', message: `${args.reason}. Its tools are not offered until an owner approves the change.` }],
      quoteCents: null,
      action: { type: MCP_CHANGE_ACTION, serverId: row.id, version: updated.version },
      requestKey: `${MCP_CHANGE_ACTION}:${row.id}:${updated.version}`,
      requestedBy: { kind: 'SYSTEM', id: null },
    });
  });
}

/** Cancels the server's change cards still waiting (the server changed again, or was removed). */
export async function cancelPendingChangeCards(tx: Tx, workspaceId: string, serverId: string, note: string): Promise<void> {
  await tx.$executeRaw`
    UPDATE approvals SET status = 'CANCELLED', note = ${note}, resolved_at = now()
     WHERE workspace_id = ${workspaceId}::uuid AND status = 'PENDING' AND task_id IS NULL
       AND action->>'type' = ${MCP_CHANGE_ACTION} AND action->>'serverId' = ${serverId}`;
}

/** The id of the server's change card still waiting for an owner, if any. */
export async function pendingChangeCardId(db: Db, workspaceId: string, serverId: string): Promise<string | null> {
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT id::text FROM approvals
     WHERE workspace_id = ${workspaceId}::uuid AND status = 'PENDING' AND task_id IS NULL
       AND action->>'type' = ${MCP_CHANGE_ACTION} AND action->>'serverId' = ${serverId}
     ORDER BY created_at DESC LIMIT 1`;
  return rows[0]?.id ?? null;
}
