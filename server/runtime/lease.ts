// Holding a turn: the claim (a new generation), its renewal, the cheap check at a safe boundary and
// the fence every runtime write passes. A write locks the task row, then the turn row, and is
// rejected with LeaseLost when the turn's generation is not the writer's (a newer worker took over)
// or the turn is no longer running, and with TaskStopped when the task was paused, cancelled or
// ended. Lock order everywhere: task row → turn row → (events: workspace row).
import { transactWithEvents, type Emit } from '../channel/unit-of-work.ts';
import type { Tx } from '../db/client.ts';
import type { TaskStatus, TaskTransition } from '../domain/task-status.ts';
import { applyTransition, lockTask } from '../store/tasks/apply-transition.ts';
import { expireLease, extendLease, grantLease, lockTurnForClaim, lockTurnForWrite, readBoundary, stopTurnOfStoppedTask, taskOfTurn, type Interrupt } from '../store/journal/leases.ts';
import { ensureMainPrincipal } from '../store/agents/principals.ts';
import type { RuntimeDeps } from './deps.ts';
import type { RunCredential } from './run-credentials.ts';
import { LeaseLost, TaskStopped } from './errors.ts';

/** The agent principal a run acts as, read once when its turn is claimed (its ceiling then). */
export type ClaimPrincipal = { id: string; name: string; version: number; scopes: readonly string[] };

export type Claim = {
  turnId: string;
  taskId: string;
  workspaceId: string;
  number: number;
  generation: number;
  /** The process holding the lease. */
  workerId?: string;
  /** Who the run acts as (the workspace's main agent); every tool call is authorised against it. */
  principal: ClaimPrincipal;
  /** The run's credential (run-credentials.ts): minted after the claim, replaced as the lease is renewed. */
  credential?: RunCredential;
};

/** Task statuses a turn may run in. */
export const RUNNABLE: TaskStatus[] = ['QUEUED', 'RUNNING', 'WAITING'];

/** Moves the task if the state machine allows it (runtime transitions are never errors). */
export async function moveTask(tx: Tx, emit: Emit, taskId: string, from: TaskStatus, t: TaskTransition, reason: string | null): Promise<TaskStatus> {
  const d = await applyTransition(tx, emit, { taskId, from, transition: t, actor: { kind: 'SYSTEM' }, reason });
  return d.kind === 'move' ? d.to : from;
}

/**
 * The fence: inside a transaction, lock task then turn and check this writer may still write.
 * Returns the task status.
 */
export async function fence(tx: Tx, claim: Claim): Promise<TaskStatus> {
  const task = await lockTask(tx, claim.taskId);
  const t = await lockTurnForWrite(tx, claim.turnId);
  if (!t || t.generation !== claim.generation || t.status !== 'RUNNING') throw new LeaseLost(claim.turnId, claim.generation);
  if (!task || !RUNNABLE.includes(task.status)) throw new TaskStopped(claim.taskId, task?.status ?? 'DELETED');
  return task.status;
}

/**
 * Claims a turn: succeeds when it is QUEUED, or RUNNING with an expired lease (a takeover). Every
 * claim increments the generation. A turn of a task that can no longer run is stopped instead.
 */
export async function claimTurn(rt: RuntimeDeps, turnId: string, workerId: string): Promise<Claim | null> {
  const head = await taskOfTurn(rt.prisma, turnId);
  if (!head) return null;
  const { value } = await transactWithEvents(rt, async (tx, emit) => {
    const task = await lockTask(tx, head.taskId);
    const turn = await lockTurnForClaim(tx, turnId);
    if (!turn || !task) return null;
    if (turn.status !== 'QUEUED' && !(turn.status === 'RUNNING' && !turn.lease_live)) return null;
    if (!RUNNABLE.includes(task.status)) {
      await stopTurnOfStoppedTask(tx, turnId, task.status);
      return null;
    }
    const generation = turn.generation + 1;
    await grantLease(tx, { turnId, generation, workerId, leaseMs: rt.options.leaseMs });
    // The run's principal, read once for the whole turn (created on the workspace's first turn).
    const agent = await ensureMainPrincipal(tx, turn.workspace_id);
    await moveTask(tx, emit, turn.task_id, task.status, 'start', null);
    emit(turn.task_id, {
      type: 'TURN_STARTED',
      actor: { kind: 'SYSTEM' },
      payload: { turn: turn.number, generation, takeover: generation > 1, workerId },
    });
    const principal: ClaimPrincipal = { id: agent.id, name: agent.name, version: agent.version, scopes: agent.scopes };
    return { turnId, taskId: turn.task_id, workspaceId: turn.workspace_id, number: turn.number, generation, workerId, principal };
  });
  return value;
}

/**
 * Extends the lease. Throws LeaseLost when the turn was taken over, and TaskStopped when the task
 * was paused or cancelled meanwhile — so a long tool call is interrupted promptly (through its
 * abort signal) instead of at its end.
 */
export async function renewLease(rt: RuntimeDeps, claim: Claim): Promise<void> {
  const row = await extendLease(rt.prisma, claim.turnId, claim.generation, rt.options.leaseMs);
  if (!row) throw new LeaseLost(claim.turnId, claim.generation);
  if (!RUNNABLE.includes(row.taskStatus)) throw new TaskStopped(claim.taskId, row.taskStatus);
}

/**
 * The cheap check at a safe boundary (before a model call or a tool call): one read, no locks, no
 * transaction. It keeps a paused, cancelled or superseded turn from starting new work; the
 * authoritative check is the fence inside the write that follows.
 */
export async function checkBoundary(rt: RuntimeDeps, claim: Claim): Promise<{ interrupt: Interrupt | null }> {
  const r = await readBoundary(rt.prisma, claim.turnId);
  if (!r || r.generation !== claim.generation || r.status !== 'RUNNING') throw new LeaseLost(claim.turnId, claim.generation);
  if (!RUNNABLE.includes(r.taskStatus)) throw new TaskStopped(claim.taskId, r.taskStatus);
  return { interrupt: r.interrupt };
}

/** Lets the watchdog hand the turn over at once instead of after the lease runs out. */
export async function releaseLease(rt: RuntimeDeps, claim: Claim): Promise<void> {
  await expireLease(rt.prisma, claim.turnId, claim.generation);
}
