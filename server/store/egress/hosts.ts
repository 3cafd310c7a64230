// Statements on egress_hosts: the hosts a workspace's outbound calls may reach. Invariants:
//  - Every statement names the workspace: an entry id of another workspace matches nothing, and a
//    workspace's list never allows another workspace's calls.
//  - At most one entry per (workspace, host, port); recording a host that is already listed keeps
//    the first entry (its source and note stay what the owner first saw).
//  - Hosts are stored in the canonical form of domain/egress-policy.ts, so a lookup by the
//    destination of a URL finds its entry.
import type { Db, Tx } from '../../db/client.ts';
import type { EgressHostSource } from '../../db/generated/client.ts';
import { destinationOf, type EgressDestination } from '../../domain/egress-policy.ts';

export type EgressHostRow = {
  id: string;
  workspaceId: string;
  host: string;
  port: number;
  source: EgressHostSource;
  note: string;
  createdById: string | null;
  createdAt: Date;
};

/** The most entries one workspace may hold (a list longer than this is a mistake, not a policy). */
export const MAX_EGRESS_HOSTS = 500;

export function listEgressHosts(db: Db, workspaceId: string): Promise<EgressHostRow[]> {
  return db.egressHost.findMany({ where: { workspaceId }, orderBy: [{ host: 'asc' }, { port: 'asc' }] });
}

/** The workspace's destinations only (what the gate checks against). */
export async function allowedDestinations(db: Db, workspaceId: string): Promise<EgressDestination[]> {
  return db.egressHost.findMany({ where: { workspaceId }, select: { host: true, port: true } });
}

export function countEgressHosts(db: Db, workspaceId: string): Promise<number> {
  return db.egressHost.count({ where: { workspaceId } });
}

/** Adds an entry unless the host and port are listed already; returns the entry either way. */
export async function upsertEgressHost(
  tx: Tx,
  e: { workspaceId: string; host: string; port: number; source: EgressHostSource; note: string; createdById: string | null },
): Promise<{ row: EgressHostRow; created: boolean }> {
  const existing = await tx.egressHost.findFirst({ where: { workspaceId: e.workspaceId, host: e.host, port: e.port } });
  if (existing) return { row: existing, created: false };
  const inserted = await tx.egressHost.createManyAndReturn({ data: [e], skipDuplicates: true });
  if (inserted[0]) return { row: inserted[0], created: true };
  // Added concurrently by another transaction that committed first.
  return { row: await tx.egressHost.findFirstOrThrow({ where: { workspaceId: e.workspaceId, host: e.host, port: e.port } }), created: false };
}

/**
 * Records the host of an address the owner registered (an MCP server, a webhook endpoint, a remote
 * agent), in the transaction that registers it: from then on the owner sees it on the list and can
 * revoke it. A URL that is not http(s) records nothing.
 */
export async function recordRegisteredHost(
  tx: Tx,
  input: { workspaceId: string; url: string; source: Exclude<EgressHostSource, 'OWNER'>; note: string; createdById: string | null },
): Promise<void> {
  let url: URL;
  try {
    url = new URL(input.url);
  } catch {
    return;
  }
  const dest = destinationOf(url);
  if (!dest) return;
  await upsertEgressHost(tx, { workspaceId: input.workspaceId, ...dest, source: input.source, note: input.note.slice(0, 200), createdById: input.createdById });
}

/** Removes an entry; false when the workspace has no entry of that id. */
export async function deleteEgressHost(db: Db, workspaceId: string, id: string): Promise<EgressHostRow | null> {
  const row = await db.egressHost.findFirst({ where: { workspaceId, id } });
  if (!row) return null;
  const { count } = await db.egressHost.deleteMany({ where: { workspaceId, id } });
  return count ? row : null;
}
