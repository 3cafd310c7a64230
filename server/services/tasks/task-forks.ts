// A task's forks for the API: where a fork came from (the task, the step, the seq its own history
// starts after, the changed instruction) and the forks made from a task. The caller has loaded the
// task through the viewer's visibility rules first; forks are always in the task's workspace.
import type { Viewer } from '../../auth/viewer.ts';
import type { Task } from '../../db/generated/client.ts';
import type { ForkRecord } from '../../domain/forks.ts';
import { openOne } from '../../store/sealing/open.ts';
import { forksOf } from '../../store/tasks/forks.ts';
import { inheritedOf } from '../../store/tasks/rounds.ts';
import type { Deps } from '../deps.ts';

/** Where a fork came from, as the API shows it. */
export type ForkPoint = {
  /** The task forked from (null when it is gone). */
  taskId: string | null;
  atStep: number;
  atSeq: number;
  stepTitle: string;
  edit: string;
  pickLabel: string | null;
  /** What the original had picked at that step, when the fork picked differently. */
  instead: string | null;
};

/** Where the task was forked from; null for a task that is not a fork. */
export async function getForkPoint(deps: Deps, _viewer: Viewer, task: Task): Promise<ForkPoint | null> {
  if (task.forkedAtStep === null || task.forkedAtSeq === null) return null;
  // What it inherited may be sealed (store/sealing): opened, or read withheld once forgotten.
  const fork: ForkRecord | undefined = (await openOne(deps.prisma, inheritedOf(task))).value?.fork;
  return {
    taskId: task.forkedFromId,
    atStep: task.forkedAtStep,
    atSeq: task.forkedAtSeq,
    stepTitle: fork?.stepTitle ?? '',
    edit: fork?.edit ?? '',
    pickLabel: fork?.choice?.label ?? null,
    instead: fork?.choice?.instead ?? null,
  };
}

/** The forks made from the task, oldest first. */
export const listTaskForks = (deps: Deps, _viewer: Viewer, task: Task): Promise<Task[]> => forksOf(deps.prisma, task);
