// Autonomy, budget and confirmation thresholds. Workspace settings are the owner's (WRITE scope);
// a task's overrides need WRITE, and its approved plan budget — spending permission — needs APPROVE
// from a person. Optimistic concurrency on the workspace row: a stale `baseVersion` is a CONFLICT.
import { z } from 'zod';
import { requireWorkspace } from '../../auth/access.ts';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import type { Deps } from '../deps.ts';
import { conflict, forbidden } from '../../errors.ts';
import { lockWorkspaceSettings } from '../../store/approvals/paid-action-gate.ts';
import { loadTaskFor } from '../tasks/load-task.ts';
import { parseInput } from '../validate.ts';

const cents = z.number().int().min(0).max(100_000_000);
const Autonomy = z.enum(['MANUAL', 'SUPERVISED', 'AUTONOMOUS']);

export async function getSettings(deps: Deps, viewer: Viewer, workspaceId: string) {
  requireWorkspace(viewer, workspaceId, 'read');
  const s = await deps.prisma.workspaceSettings.findUnique({ where: { workspaceId } });
  if (s) return s;
  await deps.prisma.workspaceSettings.upsert({ where: { workspaceId }, create: { workspaceId }, update: {} });
  return deps.prisma.workspaceSettings.findUniqueOrThrow({ where: { workspaceId } });
}

export const UpdateSettingsInput = z.object({
  workspaceId: z.string().uuid(),
  baseVersion: z.number().int().min(1).optional(),
  perActionFreeCents: cents.optional(),
  dailyFreeCents: cents.optional(),
  autonomy: Autonomy.optional(),
  taskBudgetCapCents: cents.nullable().optional(),
  trustedDocumentsOnly: z.boolean().optional(),
  atBudgetCap: z.enum(['END', 'PAUSE']).optional(),
  timeZone: z
    .string()
    .min(1)
    .max(64)
    .refine(isTimeZone, { message: 'is not a time zone this server knows (use an IANA name such as "Europe/Berlin")' })
    .optional(),
  followUpsEnabled: z.boolean().optional(),
  quietHours: z
    .object({
      fromMinute: z.number().int().min(0, 'quiet hours need both a start and an end (minutes 0–1439)').max(1439),
      toMinute: z.number().int().min(0, 'quiet hours need both a start and an end (minutes 0–1439)').max(1439),
    })
    .refine((q) => q.fromMinute !== q.toMinute, { message: 'quiet hours cannot start and end at the same minute' })
    .nullable()
    .optional(),
});

/** Whether the runtime's Intl knows the zone (IANA names; "UTC"). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

export async function updateSettings(deps: Deps, viewer: Viewer, raw: z.input<typeof UpdateSettingsInput>) {
  const input = parseInput(UpdateSettingsInput, raw);
  const role = requireWorkspace(viewer, input.workspaceId, 'write');
  if (role !== 'OWNER') throw forbidden('Only an owner can change the workspace limits');
  // Spending rules are a person's to change, never an integration's.
  if (viewer.principal !== 'HUMAN') throw forbidden('Only a person can change the workspace limits; this token belongs to an integration');
  return deps.prisma.$transaction(async (tx) => {
    await lockWorkspaceSettings(tx, input.workspaceId);
    const current = await tx.workspaceSettings.findUniqueOrThrow({ where: { workspaceId: input.workspaceId } });
    if (input.baseVersion !== undefined && input.baseVersion !== current.version) {
      throw conflict(`The settings changed meanwhile (now version ${current.version})`, { currentVersion: current.version });
    }
    return tx.workspaceSettings.update({
      where: { workspaceId: input.workspaceId },
      data: {
        perActionFreeCents: input.perActionFreeCents,
        dailyFreeCents: input.dailyFreeCents,
        autonomy: input.autonomy,
        taskBudgetCapCents: input.taskBudgetCapCents,
        trustedDocumentsOnly: input.trustedDocumentsOnly,
        atBudgetCap: input.atBudgetCap,
        timeZone: input.timeZone,
        followUpsEnabled: input.followUpsEnabled,
        ...(input.quietHours === null ? { quietFromMinute: null, quietToMinute: null } : input.quietHours ? { quietFromMinute: input.quietHours.fromMinute, quietToMinute: input.quietHours.toMinute } : {}),
        version: { increment: 1 },
        updatedById: viewer.userId,
      },
    });
  });
}

export const UpdateTaskLimitsInput = z.object({
  taskId: z.string().uuid(),
  autonomy: Autonomy.nullable().optional(),
  perActionFreeCents: cents.nullable().optional(),
  budgetCapCents: cents.nullable().optional(),
  approvedBudgetCents: cents.nullable().optional(),
});

export async function updateTaskLimits(deps: Deps, viewer: Viewer, raw: z.input<typeof UpdateTaskLimitsInput>) {
  const input = parseInput(UpdateTaskLimitsInput, raw);
  const task = await loadTaskFor(deps.prisma, viewer, input.taskId, 'write');
  if (viewer.principal !== 'HUMAN') throw forbidden("Only a person can change a task's spending limits; this token belongs to an integration");
  if (input.approvedBudgetCents !== undefined) {
    requireWorkspace(viewer, task.workspaceId, 'approve', 'Task');
    if (viewer.principal !== 'HUMAN') throw forbidden('Only a person can approve a budget');
  }
  const { value } = await transactWithEvents(deps, async (tx, emit) => {
    const updated = await tx.task.update({
      where: { id: input.taskId },
      data: {
        autonomy: input.autonomy,
        perActionFreeCents: input.perActionFreeCents,
        budgetCapCents: input.budgetCapCents,
        approvedBudgetCents: input.approvedBudgetCents,
      },
    });
    const { taskId: _t, ...changed } = input;
    emit(input.taskId, { type: 'TASK_LIMITS_CHANGED', actor: { kind: 'USER', id: viewer.userId }, payload: changed });
    return updated;
  });
  return value;
}
