// The remote A2A agents a workspace may delegate to. Every statement names the workspace: a name
// or id of another workspace matches nothing.
import type { Db } from '../../db/client.ts';
import type { A2aRemoteAgent, Prisma } from '../../db/generated/client.ts';

export type RemoteAgentRow = A2aRemoteAgent;

export type RemoteAgentFields = {
  workspaceId: string;
  name: string;
  url: string;
  jwksUrl: string | null;
  publicJwk: Prisma.InputJsonValue | null;
  allowedSkills: string[];
  createdById: string | null;
};

/** Adds the agent, or updates the one of that name. */
export function upsertRemoteAgent(db: Db, f: RemoteAgentFields): Promise<RemoteAgentRow> {
  const data = { url: f.url, jwksUrl: f.jwksUrl, publicJwk: f.publicJwk ?? undefined, allowedSkills: f.allowedSkills };
  return db.a2aRemoteAgent.upsert({
    where: { workspaceId_name: { workspaceId: f.workspaceId, name: f.name } },
    create: { ...f, publicJwk: f.publicJwk ?? undefined },
    update: data,
  });
}

export function findRemoteAgent(db: Db, workspaceId: string, name: string): Promise<RemoteAgentRow | null> {
  return db.a2aRemoteAgent.findUnique({ where: { workspaceId_name: { workspaceId, name } } });
}

export function listRemoteAgents(db: Db, workspaceId: string): Promise<RemoteAgentRow[]> {
  return db.a2aRemoteAgent.findMany({ where: { workspaceId }, orderBy: { name: 'asc' } });
}

/** Removes the agent (by id, within the workspace); null when it is not there. */
export async function deleteRemoteAgent(db: Db, workspaceId: string, id: string): Promise<RemoteAgentRow | null> {
  const row = await db.a2aRemoteAgent.findFirst({ where: { id, workspaceId } });
  if (!row) return null;
  const { count } = await db.a2aRemoteAgent.deleteMany({ where: { id, workspaceId } });
  return count ? row : null;
}
