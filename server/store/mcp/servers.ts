// The owners' writes on the workspace's MCP servers. Invariants:
//  - Every write names the workspace and holds the server's row lock; a change given with a version
//    that is not the current one changes nothing (the caller reports CONFLICT).
//  - Every change bumps `version` and writes its mcp_server_versions row (registry.ts) in the same
//    transaction; the bearer token is written only sealed.
import type { Actor } from '../../channel/types.ts';
import type { Db, Tx } from '../../db/client.ts';
import { Prisma, type McpServer as McpServerRow } from '../../db/generated/client.ts';
import { cancelPendingChangeCards, insertVersionRow, lockMcpServer, type McpPin, type McpServerRecord, type McpToolOverrides } from './registry.ts';
import { sealMcpSecret } from './secret-box.ts';

/** What a registration stores: the record's own fields, pinned by discovery, the token in the clear (sealed here). */
export type NewMcpServer = Pick<
  McpServerRecord,
  'workspaceId' | 'name' | 'title' | 'transport' | 'url' | 'command' | 'args' | 'trust' | 'priceCentsPerCall' | 'domains' | 'authSecret'
> & { pinned: McpPin };

/** Inserts a registered server (ACTIVE, version 1) and its first history row; null when the name is taken. */
export async function insertMcpServer(tx: Tx, s: NewMcpServer, actor: Actor): Promise<McpServerRow | null> {
  const taken = await tx.mcpServer.findFirst({ where: { workspaceId: s.workspaceId, name: s.name }, select: { id: true } });
  if (taken) return null;
  const row = await tx.mcpServer.create({
    data: {
      workspaceId: s.workspaceId,
      name: s.name,
      title: s.title,
      transport: s.transport,
      url: s.url,
      command: s.command,
      args: s.args,
      trust: s.trust,
      status: 'ACTIVE',
      pinned: s.pinned as unknown as Prisma.InputJsonValue,
      priceCentsPerCall: s.priceCentsPerCall,
      domains: s.domains,
      authSecretCipher: s.authSecret ? sealMcpSecret(s.authSecret) : null,
      version: 1,
    },
  });
  await insertVersionRow(tx, row, actor, 'registered');
  return row;
}

export type McpServerChange = {
  title?: string;
  trust?: 'TRUSTED' | 'UNTRUSTED';
  /** null: every pinned tool. */
  allowedTools?: string[] | null;
  toolOverrides?: McpToolOverrides;
  priceCentsPerCall?: number | null;
  domains?: string[];
  /** A string sets the token, null clears it. */
  authSecret?: string | null;
  status?: 'ACTIVE' | 'DISABLED';
};

export type UpdateOutcome = { kind: 'updated'; row: McpServerRow } | { kind: 'missing' } | { kind: 'stale'; current: number };

/**
 * Applies the change when the server is still at `baseVersion`. `check` runs on the locked current
 * row before anything is written (the caller's rules that need it: allowed tools in the pin, a
 * quarantined server cannot be made active by an edit) and throws to refuse.
 */
export async function updateMcpServerRow(
  tx: Tx,
  a: { workspaceId: string; id: string; baseVersion: number; change: McpServerChange; describe: string; actor: Actor; check?: (current: McpServerRow) => void },
): Promise<UpdateOutcome> {
  const current = await lockMcpServer(tx, a.workspaceId, a.id);
  if (!current) return { kind: 'missing' };
  if (current.version !== a.baseVersion) return { kind: 'stale', current: current.version };
  a.check?.(current);
  const c = a.change;
  const data: Prisma.McpServerUpdateInput = { version: { increment: 1 } };
  if (c.title !== undefined) data.title = c.title;
  if (c.trust !== undefined) data.trust = c.trust;
  if (c.allowedTools !== undefined) data.allowedTools = c.allowedTools === null ? Prisma.DbNull : c.allowedTools;
  if (c.toolOverrides !== undefined) data.toolOverrides = c.toolOverrides as Prisma.InputJsonValue;
  if (c.priceCentsPerCall !== undefined) data.priceCentsPerCall = c.priceCentsPerCall;
  if (c.domains !== undefined) data.domains = c.domains;
  if (c.authSecret !== undefined) data.authSecretCipher = c.authSecret === null ? null : sealMcpSecret(c.authSecret);
  if (c.status !== undefined) data.status = c.status;
  const row = await tx.mcpServer.update({ where: { id: current.id }, data });
  await insertVersionRow(tx, row, a.actor, a.describe);
  return { kind: 'updated', row };
}

/** Deletes the server with its history; its waiting change card is cancelled. False when it did not exist. */
export async function deleteMcpServerRow(tx: Tx, workspaceId: string, id: string): Promise<boolean> {
  if (!(await lockMcpServer(tx, workspaceId, id))) return false;
  await cancelPendingChangeCards(tx, workspaceId, id, 'The server was removed');
  const r = await tx.mcpServer.deleteMany({ where: { id, workspaceId } });
  return r.count > 0;
}

export type RepinOutcome = { kind: 'repinned'; row: McpServerRow } | { kind: 'gone' } | { kind: 'moved'; status: string; version: number };

/**
 * An owner approved the change seen at `version`: the observed pin becomes the pin and the server
 * ACTIVE. Allowed tools that the new pin no longer has are dropped from the list. Nothing happens
 * when the server is gone or has changed since the card was filed.
 */
export async function repinMcpServer(tx: Tx, a: { workspaceId: string; id: string; version: number; actor: Actor }): Promise<RepinOutcome> {
  const current = await lockMcpServer(tx, a.workspaceId, a.id);
  if (!current) return { kind: 'gone' };
  if (current.status !== 'QUARANTINED' || current.version !== a.version || current.observed == null) {
    return { kind: 'moved', status: current.status, version: current.version };
  }
  const observed = current.observed as unknown as McpPin;
  const names = new Set(observed.tools.map((t) => t.name));
  const allowed = current.allowedTools as string[] | null;
  const row = await tx.mcpServer.update({
    where: { id: current.id },
    data: {
      pinned: observed as unknown as Prisma.InputJsonValue,
      observed: Prisma.DbNull,
      status: 'ACTIVE',
      quarantineReason: null,
      ...(allowed ? { allowedTools: allowed.filter((n) => names.has(n)) } : {}),
      version: { increment: 1 },
    },
  });
  await insertVersionRow(tx, row, a.actor, `change approved: now version ${observed.serverVersion || '(none)'}`);
  return { kind: 'repinned', row };
}

/** The server's history, newest first. */
export async function mcpServerHistory(db: Db, workspaceId: string, serverIds: readonly string[]) {
  if (!serverIds.length) return [];
  return db.mcpServerVersion.findMany({ where: { workspaceId, serverId: { in: [...serverIds] } }, orderBy: [{ serverId: 'asc' }, { version: 'desc' }] });
}
