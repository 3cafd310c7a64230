// The agents' signing keys as the API and the well-known endpoints see them: an owner rotates a
// workspace's key (the old one verifies what it signed until that expires), and anyone may read the
// public keys (JWKS) — of a workspace, to verify its agents' run credentials, or the deployment's,
// to verify the signed agent card. Nothing here returns or logs a private key.
import type { JWK } from 'jose';
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { forbidden } from '../../errors.ts';
import { publicJwks, rotateSigningKey } from '../../store/agents/signing-keys.ts';
import type { Deps } from '../deps.ts';

/** Owners only: a new current key now, e.g. after a suspected leak or as a routine. */
export async function rotateAgentSigningKey(deps: Pick<Deps, 'prisma'>, viewer: Viewer, input: { workspaceId: string }): Promise<{ kid: string; workspaceId: string }> {
  const role = requireWorkspace(viewer, input.workspaceId, 'write');
  if (role !== 'OWNER') throw forbidden("Only a workspace owner can rotate the key that signs the agent's credentials");
  const { kid } = await rotateSigningKey(deps.prisma, input.workspaceId);
  return { kid, workspaceId: input.workspaceId };
}

/**
 * The public keys still accepted (workspaceId null: the deployment's). Public by design: a JWKS
 * names no secret, and a workspace id that has no keys (or does not exist) simply has none.
 */
export async function agentJwks(deps: Pick<Deps, 'prisma'>, workspaceId: string | null): Promise<{ keys: JWK[] }> {
  return publicJwks(deps.prisma, workspaceId);
}
