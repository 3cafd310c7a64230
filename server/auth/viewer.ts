// Who is calling, and what they may touch. Every entry point (HTTP, graphql-ws connection params,
// SSE) resolves a Viewer through `authenticate`, and every service checks it through `access.ts`.
import type { PrismaClient } from '../db/client.ts';
import { AppError } from '../errors.ts';
import { hashToken, TOKEN_PREFIX } from './tokens.ts';

export type Scope = 'READ' | 'WRITE' | 'APPROVE';
export type Role = 'OWNER' | 'MEMBER' | 'VIEWER';

export type Viewer = {
  userId: string;
  /** The credential's id (token id), used for rate limiting and audit. */
  credentialId: string;
  scopes: ReadonlySet<Scope>;
  /** Workspaces this credential may act in, with the user's role there. A token is bound to one. */
  memberships: ReadonlyMap<string, Role>;
  /** A person or an integration. Only a person resolves approvals (absent: treated as SERVICE). */
  principal?: 'HUMAN' | 'SERVICE';
  /** How paid actions started through this credential are confirmed (absent: workspace rules). */
  paidActions?: 'CONFIRM_EACH' | 'WORKSPACE_RULES';
  /** The token a web session was exchanged from (the session's own id for a plain token). */
  rootCredentialId?: string;
  /** When this credential stops working: its own expiry or, for a session, its token's if sooner. */
  expiresAt?: Date | null;
};

const LAST_USED_RESOLUTION_MS = 60_000;

export async function authenticateToken(prisma: PrismaClient, token: string | null): Promise<Viewer> {
  if (!token) throw new AppError('UNAUTHENTICATED', 'Missing bearer token (Authorization: Bearer <token>)');
  if (!token.startsWith(TOKEN_PREFIX) || token.length > 200) {
    throw new AppError('UNAUTHENTICATED', 'Invalid or revoked token');
  }
  return viewerOfToken(prisma, { tokenHash: hashToken(token) });
}

/**
 * The viewer of a credential known by its id (what a viewer's `credentialId` is), checked exactly
 * as a presented token is: revoked, expired, its session's token gone or its user no longer a
 * member → UNAUTHENTICATED. For work a credential started that outlives its request (an A2A push
 * follower resumed after a restart acts with the rights of the token that set it, while it lasts).
 */
export function authenticateCredentialId(prisma: PrismaClient, credentialId: string): Promise<Viewer> {
  if (!/^[0-9a-f-]{36}$/i.test(credentialId)) throw new AppError('UNAUTHENTICATED', 'Invalid or revoked token');
  return viewerOfToken(prisma, { id: credentialId });
}

async function viewerOfToken(prisma: PrismaClient, where: { tokenHash: string } | { id: string }): Promise<Viewer> {
  const row = await prisma.apiToken.findUnique({
    where,
    select: {
      id: true,
      userId: true,
      workspaceId: true,
      scopes: true,
      revokedAt: true,
      expiresAt: true,
      lastUsedAt: true,
      principal: true,
      paidActions: true,
      parentTokenId: true,
      parent: { select: { revokedAt: true, expiresAt: true } },
      user: { select: { memberships: { select: { workspaceId: true, role: true } } } },
    },
  });
  const now = Date.now();
  if (!row || !live(row, now)) throw new AppError('UNAUTHENTICATED', 'Invalid or revoked token');
  // A web session lives only as long as the token it was exchanged from.
  if (row.parentTokenId && (!row.parent || !live(row.parent, now))) throw new AppError('UNAUTHENTICATED', 'Invalid or revoked token');
  // A token only works while its user is still a member of the token's workspace.
  const membership = row.user.memberships.find((m) => m.workspaceId === row.workspaceId);
  if (!membership) throw new AppError('UNAUTHENTICATED', 'Invalid or revoked token');
  if (!row.lastUsedAt || now - row.lastUsedAt.getTime() > LAST_USED_RESOLUTION_MS) {
    // Best effort, coarse-grained: not worth a write per request.
    void prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date(now) } }).catch(() => {});
  }
  return {
    userId: row.userId,
    credentialId: row.id,
    scopes: new Set(row.scopes),
    memberships: new Map([[row.workspaceId, membership.role]]),
    principal: row.principal,
    paidActions: row.paidActions,
    rootCredentialId: row.parentTokenId ?? row.id,
    expiresAt: earliest(row.expiresAt, row.parent?.expiresAt ?? null),
  };
}

const live = (t: { revokedAt: Date | null; expiresAt: Date | null }, now: number) =>
  !t.revokedAt && !(t.expiresAt && t.expiresAt.getTime() <= now);

export function earliest(...dates: (Date | null | undefined)[]): Date | null {
  const ts = dates.filter((d): d is Date => !!d).map((d) => d.getTime());
  return ts.length ? new Date(Math.min(...ts)) : null;
}
