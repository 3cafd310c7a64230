// User signals on a task: pause, resume, cancel. Cancel is idempotent; a cancel (or any signal) on
// a task that already ended otherwise is a CONFLICT that changes nothing.
import { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import type { Deps } from '../../deps.ts';
import { parseInput } from '../validate.ts';
import { loadTaskFor } from './load-task.ts';
import { transitionTask } from './transition-task.ts';

export const SignalTaskInput = z.object({
  taskId: z.string().uuid(),
  signal: z.enum(['PAUSE', 'RESUME', 'CANCEL']),
  reason: z.string().trim().max(2000).optional(),
});

const transitionOf = { PAUSE: 'pause', RESUME: 'resume', CANCEL: 'cancel' } as const;

export async function signalTask(deps: Deps, viewer: Viewer, raw: z.input<typeof SignalTaskInput>) {
  const input = parseInput(SignalTaskInput, raw);
  await loadTaskFor(deps.prisma, viewer, input.taskId, 'write');
  return transitionTask(deps, {
    taskId: input.taskId,
    transition: transitionOf[input.signal],
    actor: { kind: 'USER', id: viewer.userId },
    reason: input.reason ?? null,
  });
}
