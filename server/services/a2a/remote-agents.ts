// The remote A2A agents a workspace's agent may delegate to (delegate_to_agent). Only an owner
// registers one: it names the agent's base URL, the key its agent card must be signed with (a JWKS
// URL or one public JWK — without one the card could be anyone's), and the skills a delegation may
// ask for. Registering records the agent's host (and the JWKS host) on the workspace's egress list
// in the same transaction, so the owner sees it there and can revoke it.
import { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import { requireWorkspace } from '../../auth/access.ts';
import type { Prisma } from '../../db/generated/client.ts';
import { badInput, forbidden, notFound } from '../../errors.ts';
import { deleteRemoteAgent, listRemoteAgents as listRows, upsertRemoteAgent, type RemoteAgentRow } from '../../store/a2a/remote-agents.ts';
import { recordRegisteredHost } from '../../store/egress/hosts.ts';
import type { Deps } from '../deps.ts';
import { parseInput } from '../validate.ts';
import { WebhookUrl } from '../webhooks/endpoint-input.ts';

const PublicJwk = z
  .object({ kty: z.literal('EC'), crv: z.literal('P-256'), x: z.string().min(1), y: z.string().min(1), kid: z.string().optional(), alg: z.string().optional() })
  .refine((k) => !('d' in k), 'publicJwk must be a public key (no "d")');

export type { RemoteAgentRow } from '../../store/a2a/remote-agents.ts';

export const RegisterRemoteAgentInput = z
  .object({
    workspaceId: z.string().uuid(),
    name: z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, 'name: a slug of lowercase letters, digits, _ and - (at most 40), starting with a letter'),
    url: WebhookUrl,
    jwksUrl: WebhookUrl.optional(),
    publicJwk: PublicJwk.optional(),
    allowedSkills: z.array(z.string().min(1).max(100)).max(50).default([]),
  })
  .refine((i) => i.jwksUrl || i.publicJwk, 'give jwksUrl or publicJwk: the key the agent card must be signed with');

export async function registerRemoteAgent(deps: Deps, viewer: Viewer, raw: z.input<typeof RegisterRemoteAgentInput>): Promise<RemoteAgentRow> {
  const input = parseInput(RegisterRemoteAgentInput, raw);
  const role = requireWorkspace(viewer, input.workspaceId, 'write');
  if (role !== 'OWNER') throw forbidden('Only a workspace owner can register remote agents');
  if (input.publicJwk && 'd' in (raw.publicJwk as object)) throw badInput('publicJwk must be a public key');
  return deps.prisma.$transaction(async (tx) => {
    const row = await upsertRemoteAgent(tx, {
      workspaceId: input.workspaceId,
      name: input.name,
      url: input.url.replace(/\/+$/, ''),
      jwksUrl: input.jwksUrl ?? null,
      publicJwk: (input.publicJwk as Prisma.InputJsonValue | undefined) ?? null,
      allowedSkills: input.allowedSkills,
      createdById: viewer.userId,
    });
    for (const url of [input.url, input.jwksUrl].filter((u): u is string => !!u)) {
      await recordRegisteredHost(tx, { workspaceId: input.workspaceId, url, source: 'A2A_AGENT', note: `remote agent ${input.name}`, createdById: viewer.userId });
    }
    return row;
  });
}

export async function listRemoteAgents(deps: Deps, viewer: Viewer, workspaceId: string): Promise<RemoteAgentRow[]> {
  requireWorkspace(viewer, workspaceId, 'read');
  return listRows(deps.prisma, workspaceId);
}

export const RemoveRemoteAgentInput = z.object({ remoteAgentId: z.string().uuid() });

/**
 * Removes a registered agent (owners only): the next delegation to it is refused. Its hosts stay on
 * the egress list until an owner revokes them, as an MCP server's do. NOT_FOUND for an id the viewer
 * cannot see.
 */
export async function removeRemoteAgent(deps: Deps, viewer: Viewer, raw: z.input<typeof RemoveRemoteAgentInput>): Promise<RemoteAgentRow> {
  const input = parseInput(RemoveRemoteAgentInput, raw);
  const row = await deps.prisma.a2aRemoteAgent.findFirst({ where: { id: input.remoteAgentId, workspaceId: { in: [...viewer.memberships.keys()] } }, select: { workspaceId: true } });
  if (!row) throw notFound('Remote agent');
  const role = requireWorkspace(viewer, row.workspaceId, 'write');
  if (role !== 'OWNER') throw forbidden('Only a workspace owner can remove remote agents');
  const removed = await deleteRemoteAgent(deps.prisma, row.workspaceId, input.remoteAgentId);
  if (!removed) throw notFound('Remote agent');
  return removed;
}
