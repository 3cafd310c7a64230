// A2A push-notification configs of a task: set, read, list, delete. Setting one needs write access
// to the task (it makes the server call out for it); reading needs read access. The config's
// `token` is the Standard Webhooks secret its callbacks are signed with (`whsec_` + base64 of at
// least 24 bytes): the receiver verifies webhook-signature with it, so the token itself is never
// sent. The URL follows the webhook endpoints' rules (https, or http to a loopback host), and its
// host is recorded on the workspace's egress list.
import { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import type { Task } from '../../db/generated/client.ts';
import { badInput, notFound } from '../../errors.ts';
import { deletePushConfig, findPushConfig, pushConfigsOf, upsertPushConfig, type PushConfigRow } from '../../store/a2a/push-configs.ts';
import { recordRegisteredHost } from '../../store/egress/hosts.ts';
import type { Deps } from '../deps.ts';
import { loadTaskFor } from '../tasks/load-task.ts';
import { parseInput } from '../validate.ts';
import { WebhookUrl } from '../webhooks/endpoint-input.ts';

const Secret = z
  .string()
  .max(200)
  .refine((s) => {
    if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(s)) return false;
    return Buffer.from(s.slice('whsec_'.length), 'base64').length >= 24;
  }, 'token must be a Standard Webhooks signing secret: "whsec_" followed by base64 of at least 24 random bytes');

export const SetPushConfigInput = z.object({
  taskId: z.string().uuid(),
  configId: z.string().trim().min(1).max(200).regex(/^[\w.:-]+$/, 'id may hold letters, digits and _ . : - only'),
  url: WebhookUrl,
  token: Secret,
});

/** Sets (or replaces) the config; callbacks describe the events after the task's current one. */
export async function setPushConfig(deps: Deps, viewer: Viewer, raw: z.input<typeof SetPushConfigInput>): Promise<{ config: PushConfigRow; task: Task }> {
  const input = parseInput(SetPushConfigInput, raw);
  const task = await loadTaskFor(deps.prisma, viewer, input.taskId, 'write');
  // The receiver's host goes on the workspace's egress list with the config (the callbacks leave
  // through the egress gate), where an owner sees it and can revoke it.
  const config = await deps.prisma.$transaction(async (tx) => {
    const row = await upsertPushConfig(tx, {
      workspaceId: task.workspaceId,
      taskId: task.id,
      configId: input.configId,
      url: input.url,
      secret: input.token,
      credentialId: viewer.credentialId,
      lastSeq: task.lastEventSeq,
    });
    await recordRegisteredHost(tx, { workspaceId: task.workspaceId, url: input.url, source: 'WEBHOOK', note: 'A2A push notifications', createdById: viewer.userId });
    return row;
  });
  return { config, task };
}

export async function getPushConfig(deps: Deps, viewer: Viewer, taskId: string, configId: string): Promise<PushConfigRow> {
  await loadTaskFor(deps.prisma, viewer, taskId, 'read');
  const found = await findPushConfig(deps.prisma, taskId, configId);
  if (!found) throw notFound('Push notification config');
  return found;
}

export async function listPushConfigs(deps: Deps, viewer: Viewer, taskId: string): Promise<PushConfigRow[]> {
  await loadTaskFor(deps.prisma, viewer, taskId, 'read');
  return pushConfigsOf(deps.prisma, taskId);
}

export async function removePushConfig(deps: Deps, viewer: Viewer, taskId: string, configId: string): Promise<void> {
  await loadTaskFor(deps.prisma, viewer, taskId, 'write');
  if (!configId) throw badInput('id is required', { argument: 'id' });
  if (!(await deletePushConfig(deps.prisma, taskId, configId))) throw notFound('Push notification config');
}
