// "Try a different direction from here": a new task that goes on from step N of a task's plan with a
// changed instruction (and, at a pick among candidates, perhaps another pick). Its history up to
// that step is the original's, shared by reference: its log continues the original's seq after
// the fork point (domain/forks.ts forkPointSeq), the steps before N are done with the original's
// results — the same objects, referenced, never copied or ordered again — and the steps from N on
// are open again with the edit. It runs through the ordinary runtime (its first turn is queued in
// the transaction that creates it), with its own approvals, ledger and budget.
//
// Invariant: the original is only read. No event, status change, checklist version, ledger entry or
// object reference is written to it; its row is not even locked.
import { z } from 'zod';
import type { Viewer } from '../../auth/viewer.ts';
import { transactWithEvents, withAppendedSeq } from '../../channel/unit-of-work.ts';
import type { Task } from '../../db/generated/client.ts';
import { remainingCents } from '../../domain/checklist.ts';
import { forkChecklist, forkKey, forkTitle, forkPointSeq, forkRefusal, type ForkPick, type ForkRecord } from '../../domain/forks.ts';
import { textsFor } from '../../domain/replies/texts.ts';
import type { RoundsContext } from '../../domain/rounds.ts';
import { AppError, badInput, conflict, ErrorReason } from '../../errors.ts';
import { initialTaskState } from '../../runtime/task-state.ts';
import { readChecklistVersion, writeChecklist } from '../../store/checklist/write-checklist.ts';
import { checkIdempotencyKey, claimOf, recordIdempotencyKey } from '../../store/idempotency.ts';
import { objectIdOfRef } from '../../store/objects/derivations.ts';
import { openOne } from '../../store/sealing/open.ts';
import {
  findForkByKey,
  forkLineage,
  insertFork,
  insertForkSnapshot,
  readForkLog,
  readPickCard,
  readPicks,
  referenceShared,
  type PickCard,
} from '../../store/tasks/forks.ts';
import { inheritedOf, lineIdOf } from '../../store/tasks/rounds.ts';
import { ensureTurn } from '../../store/turns.ts';
import type { Deps } from '../deps.ts';
import { parseInput } from '../validate.ts';
import { loadTaskFor } from './load-task.ts';

export const ForkTaskInput = z.object({
  taskId: z.string().uuid(),
  /** The step to go on from: its 1-based position in the task's checklist. */
  atStep: z.number().int(),
  /** The changed instruction: a different direction, a revised brief. */
  edit: z.string().trim().min(1, 'say what should change from this step on').max(4000),
  /** For a pick among candidates: another option (its id or label). */
  choice: z.string().trim().min(1).max(200).optional(),
  /** Retrying with the same key returns the fork made the first time. */
  idempotencyKey: z.string().min(1).max(200).optional(),
});

/** The pick card of a step: the task's own, else the one of the task it was forked from that raised it. */
async function pickCardOf(deps: Deps, task: Task, stepId: string): Promise<PickCard | null> {
  for (const id of await forkLineage(deps.prisma, task.id, task.workspaceId)) {
    const card = await readPickCard(deps.prisma, { id, workspaceId: task.workspaceId }, stepId);
    if (card) return card;
  }
  return null;
}

export async function forkTask(deps: Deps, viewer: Viewer, raw: z.input<typeof ForkTaskInput>): Promise<Task> {
  const input = parseInput(ForkTaskInput, raw);
  const original = await loadTaskFor(deps.prisma, viewer, input.taskId, 'write');
  const claim = claimOf('forkTask', { workspaceId: original.workspaceId, userId: viewer.userId }, input);
  const storedKey = input.idempotencyKey ? forkKey(viewer.userId, input.idempotencyKey) : null;
  if (claim && storedKey) {
    // Fork first, then the key (as createTask): a visible fork was committed with its key record.
    const existing = await findForkByKey(deps.prisma, original.workspaceId, storedKey);
    await checkIdempotencyKey(deps.prisma, claim);
    if (existing) return existing;
  }

  // One read of the original's row fixes what the fork is made from: its checklist version and its
  // last seq (that version's CHECKLIST_UPDATED is at or below it), whatever it does meanwhile.
  const current = original.checklistVersion ? await readChecklistVersion(deps.prisma, original.id, original.checklistVersion) : null;
  const items = current?.items ?? [];
  const refused = forkRefusal(items, input.atStep);
  if (refused?.code === 'OUT_OF_RANGE') {
    throw badInput(
      items.length
        ? `Step ${input.atStep} is not a step of this task: its plan has steps 1 to ${items.length}.`
        : 'This task has no plan yet, so there is no step to fork from.',
      { reason: ErrorReason.FORK_STEP_OUT_OF_RANGE, argument: 'atStep', steps: items.length },
    );
  }
  if (refused?.code === 'NOT_REACHED') {
    throw conflict(
      `Step ${input.atStep} cannot be forked from yet: ${refused.open.map((i) => `“${i.title}”`).join(', ')} ${refused.open.length > 1 ? 'are' : 'is'} not finished, and a fork keeps the results of every step before it.`,
      { reason: ErrorReason.FORK_STEP_NOT_REACHED, openSteps: refused.open.map((i) => i.id) },
    );
  }
  const step = items[input.atStep - 1]!;
  const earlier = (await openOne(deps.prisma, inheritedOf(original))).value;

  // A different pick: only at a pick among candidates, and only one of its options.
  let choice: (ForkPick & { instead: string | null }) | null = null;
  if (input.choice) {
    const card = step.kind === 'CHECKPOINT' ? await pickCardOf(deps, original, step.id) : null;
    if (!card) {
      throw badInput(`Step ${input.atStep} (“${step.title}”) is not a pick among candidates, so there is nothing to choose: say the change in edit instead.`, {
        reason: ErrorReason.FORK_NOT_A_PICK,
        argument: 'choice',
      });
    }
    const wanted = input.choice.toLowerCase();
    const option = card.options.find((o) => o.id === input.choice) ?? card.options.find((o) => o.label.toLowerCase() === wanted);
    if (!option) {
      throw badInput(`“${input.choice}” is not one of the options of “${step.title}”: ${card.options.map((o) => `“${o.label}”`).join(', ')}.`, {
        reason: ErrorReason.FORK_UNKNOWN_CHOICE,
        argument: 'choice',
        options: card.options.map((o) => ({ id: o.id, label: o.label })),
      });
    }
    const before = card.status === 'APPROVED' && card.choice ? card.options.find((o) => o.id === card.choice) : undefined;
    const inheritedPick = [...(earlier?.fork?.picks ?? []), ...(earlier?.fork?.choice ? [earlier.fork.choice] : [])].find((p) => p.stepId === step.id);
    choice = { stepId: step.id, stepTitle: step.title, optionId: option.id, label: option.label, objectId: option.objectId, instead: before?.label ?? inheritedPick?.label ?? null };
  }

  // Where the shared history ends: read up to the seq of the row read above.
  const atSeq = forkPointSeq(items, input.atStep, await readForkLog(deps.prisma, original, original.lastEventSeq), original.lastEventSeq);
  if (atSeq === null) {
    throw conflict(`Step ${input.atStep} cannot be forked from yet: the steps before it have not reached the state they are in.`, {
      reason: ErrorReason.FORK_STEP_NOT_REACHED,
      openSteps: [],
    });
  }

  // The picks kept from before the fork point: the original's own answers, else what it inherited.
  const kept = items.slice(0, input.atStep - 1);
  const own = await readPicks(deps.prisma, original, kept);
  const inheritedPicks = [...(earlier?.fork?.picks ?? []), ...(earlier?.fork?.choice ? [earlier.fork.choice] : [])]
    .filter((p) => kept.some((i) => i.id === p.stepId) && !own.some((o) => o.stepId === p.stepId))
    .map(({ stepId, stepTitle, optionId, label, objectId }) => ({ stepId, stepTitle, optionId, label, objectId }));
  const picks = [...inheritedPicks, ...own].sort((a, b) => kept.findIndex((i) => i.id === a.stepId) - kept.findIndex((i) => i.id === b.stepId));

  const fork: ForkRecord = {
    taskId: original.id,
    title: original.title,
    goal: original.goal,
    atStep: input.atStep,
    stepId: step.id,
    stepTitle: step.title,
    seq: atSeq,
    edit: input.edit,
    choice,
    picks,
  };
  // The earlier rounds of the original's line go on with the fork (they are part of what it shares).
  const inherited: RoundsContext = { lineId: lineIdOf(original), rounds: earlier?.rounds ?? [], fork };
  const planned = forkChecklist(items, input.atStep, input.edit, choice, textsFor(original.language));
  // The person who forks with the approve scope approves the plan they continue (as an edited
  // checklist is approved by its editor): the open steps' estimate becomes the fork's plan budget.
  const approves = viewer.scopes.has('APPROVE') && viewer.principal === 'HUMAN';
  const shared = [...new Set(planned.filter((i) => i.status === 'DONE').flatMap((i) => i.artifacts.map(objectIdOfRef)).filter((x): x is string => x !== null))];

  try {
    const { value, events } = await transactWithEvents(deps, async (tx, emit) => {
      if (claim) await recordIdempotencyKey(tx, claim);
      const task = await insertFork(tx, {
        title: forkTitle(original.title, input.edit),
        original,
        createdById: viewer.userId,
        paidActions: viewer.paidActions ?? 'WORKSPACE_RULES',
        atStep: input.atStep,
        atSeq,
        idempotencyKey: storedKey,
        inherited,
        approvedBudgetCents: approves ? remainingCents(planned) : null,
      });
      await insertForkSnapshot(tx, task.id, atSeq, { ...initialTaskState(), lastSeq: atSeq });
      emit(task.id, {
        type: 'TASK_CREATED',
        actor: { kind: 'USER', id: viewer.userId },
        payload: { title: task.title, goal: task.goal, status: task.status, kind: task.kind, language: task.language, forkedFromId: original.id, forkedAtStep: input.atStep, inherited },
      });
      emit(task.id, {
        type: 'TASK_FORKED',
        actor: { kind: 'USER', id: viewer.userId },
        payload: { fromTaskId: original.id, atStep: input.atStep, stepTitle: step.title, forkedAtSeq: atSeq, edit: input.edit, ...(choice ? { pickLabel: choice.label } : {}) },
      });
      const { checklist } = await writeChecklist(
        tx,
        emit,
        { taskId: task.id, actor: { kind: 'USER', id: viewer.userId }, reason: `forked from step ${input.atStep}: ${input.edit}` },
        () => planned,
      );
      if (approves) await tx.task.update({ where: { id: task.id }, data: { planApprovedVersion: checklist.version } });
      await referenceShared(tx, task, shared);
      // The first turn and its wake-up commit with the fork (or not at all).
      await ensureTurn(tx, deps.scheduler, task);
      return tx.task.findUniqueOrThrow({ where: { id: task.id } });
    });
    return withAppendedSeq(value, events);
  } catch (e) {
    // Two concurrent requests with one key: the loser returns the winner's fork.
    if (claim && storedKey && !(e instanceof AppError) && /Unique constraint|P2002|23505/.test(String((e as Error).message))) {
      await checkIdempotencyKey(deps.prisma, claim);
      const existing = await findForkByKey(deps.prisma, original.workspaceId, storedKey);
      if (existing) return existing;
    }
    throw e;
  }
}
