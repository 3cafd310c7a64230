// First-run bootstrap: a workspace, its owner, the owner's main thread and a full-scope token.
import { z } from 'zod';
import { generateToken } from '../../auth/tokens.ts';
import type { PrismaClient } from '../../db/client.ts';
import { parseInput } from '../validate.ts';

export const InitWorkspaceInput = z.object({
  workspaceName: z.string().trim().min(1).max(100).default('My Atelier'),
  ownerEmail: z.string().trim().toLowerCase().email().default('owner@atelier.local'),
  ownerName: z.string().trim().min(1).max(100).default('Owner'),
});

export function slugify(name: string): string {
  return (
    name
      .toLowerCase()
      .normalize('NFKD')
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '')
      .slice(0, 40) || 'workspace'
  );
}

export async function initWorkspace(prisma: PrismaClient, raw: z.input<typeof InitWorkspaceInput>) {
  const input = parseInput(InitWorkspaceInput, raw);
  const t = generateToken();
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.upsert({
      where: { email: input.ownerEmail },
      create: { email: input.ownerEmail, name: input.ownerName },
      update: {},
    });
    const base = slugify(input.workspaceName);
    const taken = await tx.workspace.count({ where: { slug: { startsWith: base } } });
    const workspace = await tx.workspace.create({
      data: { name: input.workspaceName, slug: taken ? `${base}-${taken + 1}` : base },
    });
    await tx.membership.create({ data: { workspaceId: workspace.id, userId: user.id, role: 'OWNER' } });
    await tx.thread.create({ data: { workspaceId: workspace.id, userId: user.id } });
    const token = await tx.apiToken.create({
      data: {
        workspaceId: workspace.id,
        userId: user.id,
        name: 'owner (created at init)',
        tokenHash: t.hash,
        prefix: t.prefix,
        scopes: ['READ', 'WRITE', 'APPROVE'],
      },
    });
    return { workspace, user, token: t.token, tokenId: token.id };
  });
}
