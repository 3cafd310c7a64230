// The workspace's allowed hosts for outbound calls (owners only): listed, added, revoked. A host an
// owner registered with an MCP server or a webhook endpoint is on the list too (recorded with it),
// so everything the workspace reaches is seen — and revocable — in one place. A revoked host is
// refused from the next request on, in every process (the gate reads the list per request).
import { z } from 'zod';
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { parseEgressEntry } from '../../domain/egress-policy.ts';
import { badInput, forbidden, notFound } from '../../errors.ts';
import { countEgressHosts, deleteEgressHost, listEgressHosts, MAX_EGRESS_HOSTS, upsertEgressHost, type EgressHostRow } from '../../store/egress/hosts.ts';
import type { Deps } from '../deps.ts';
import { parseInput } from '../validate.ts';

export type { EgressHostRow } from '../../store/egress/hosts.ts';

/** Who may see and change where the workspace's calls go: its owners. */
export function requireEgressAdmin(viewer: Viewer, workspaceId: string, mode: 'read' | 'write'): void {
  const role = requireWorkspace(viewer, workspaceId, mode);
  if (role !== 'OWNER') throw forbidden("Only a workspace owner can see and change the hosts the workspace's calls may reach");
}

export async function listWorkspaceEgressHosts(deps: Pick<Deps, 'prisma'>, viewer: Viewer, workspaceId: string): Promise<EgressHostRow[]> {
  requireEgressAdmin(viewer, workspaceId, 'read');
  return listEgressHosts(deps.prisma, workspaceId);
}

export const AllowHostInput = z.object({
  workspaceId: z.string().uuid(),
  host: z.string().max(1000),
  port: z.number().int().nullable().optional(),
  note: z.string().max(200, 'note must be at most 200 characters').optional(),
});

export async function allowEgressHost(deps: Pick<Deps, 'prisma'>, viewer: Viewer, raw: z.input<typeof AllowHostInput>): Promise<EgressHostRow> {
  const input = parseInput(AllowHostInput, raw);
  requireEgressAdmin(viewer, input.workspaceId, 'write');
  const parsed = parseEgressEntry(input.host, input.port ?? null);
  if ('problem' in parsed) throw badInput(parsed.problem, { argument: 'host' });
  if (/[\u0000-\u001f\u007f]/.test(input.note ?? '')) throw badInput('note must not contain control characters', { argument: 'note' });
  return deps.prisma.$transaction(async (tx) => {
    if ((await countEgressHosts(tx, input.workspaceId)) >= MAX_EGRESS_HOSTS) {
      throw badInput(`The workspace already allows ${MAX_EGRESS_HOSTS} hosts; revoke some first`, { argument: 'host' });
    }
    const { row } = await upsertEgressHost(tx, { workspaceId: input.workspaceId, host: parsed.host, port: parsed.port, source: 'OWNER', note: (input.note ?? '').trim(), createdById: viewer.userId });
    return row;
  });
}

export const RevokeHostInput = z.object({ entryId: z.string().uuid() });

/** Removes an entry of a workspace the viewer owns; NOT_FOUND for an id the viewer cannot see. */
export async function revokeEgressHost(deps: Pick<Deps, 'prisma'>, viewer: Viewer, raw: z.input<typeof RevokeHostInput>): Promise<EgressHostRow> {
  const input = parseInput(RevokeHostInput, raw);
  const entry = await deps.prisma.egressHost.findFirst({ where: { id: input.entryId, workspaceId: { in: [...viewer.memberships.keys()] } }, select: { workspaceId: true } });
  if (!entry) throw notFound('Allowed host');
  requireEgressAdmin(viewer, entry.workspaceId, 'write');
  const removed = await deleteEgressHost(deps.prisma, entry.workspaceId, input.entryId);
  if (!removed) throw notFound('Allowed host');
  return removed;
}
