// Running a step's tool calls from the journal: each call is marked STARTED before it runs and
// gets its outcome after, through the fenced journal writes (journal.ts). A STARTED call is replayed
// with the same idempotency key when its tool is IDEMPOTENT or READ_ONLY, and becomes OUTCOME_UNKNOWN
// (with the tool's verify result) when AT_MOST_ONCE: such a call is never run twice.
import { crashPoint } from '../crash-points.ts';
import { doneCallsOfStep } from '../store/journal/steps.ts';
import type { RuntimeDeps } from './deps.ts';
import { isAwaitingApproval, isBudgetExceeded, isLeaseLost, isTaskStopped } from './errors.ts';
import { finishCall, markCallStarted, type CallOutcome } from './journal.ts';
import { checkBoundary, type Claim } from './lease.ts';
import { sanitizeParams, traced } from './telemetry.ts';
import { ToolInputInvalid, ToolOutputInvalid } from './tools/registry.ts';
import type { ToolDef } from './tools/types.ts';
import { endTurn } from './turn-end.ts';
import { readTaskBrief } from '../store/journal/tasks.ts';
import { waitingForResults } from '../domain/replies/waiting.ts';
import type { GenerationKindName } from '../domain/replies/types.ts';

/** What each suspending generation tool makes. */
const GENERATED: Record<string, GenerationKindName> = { generate_image: 'IMAGE', generate_video: 'VIDEO', generate_audio: 'AUDIO', generate_3d_model: 'MODEL_3D' };

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/**
 * After a step's calls: if one of them started external work that is still running (a tool with
 * `suspends`), the turn ends and the task waits — no model call, no worker held.
 */
export async function suspendIfWaiting(rt: RuntimeDeps, claim: Claim, stepId: string): Promise<boolean> {
  const calls = await doneCallsOfStep(rt.prisma, stepId);
  const waiting = calls.filter((c) => rt.tools.get(c.name)?.suspends?.(c.result) === true);
  if (!waiting.length) return false;
  // Said in plain words, in the task's language: what is being made, never the tools' names.
  const kinds = waiting.map((c) => GENERATED[c.name]).filter((k): k is GenerationKindName => !!k);
  const { language } = await readTaskBrief(rt.prisma, claim.taskId);
  await endTurn(rt, claim, 'suspend', waitingForResults(kinds, language));
  crashPoint('turn.suspended');
  return true;
}

/**
 * Executes a step's calls in order. Returns true when a call ended the turn (or the task, at its
 * budget cap), 'suspended' when a call waits for a person's approval.
 */
export async function runCalls(
  rt: RuntimeDeps,
  claim: Claim,
  calls: { id: string; name: string; status: string; input: unknown }[],
  signal: AbortSignal,
): Promise<boolean | 'suspended'> {
  for (const call of calls) {
    if (call.status !== 'PENDING' && call.status !== 'STARTED') continue;
    const def = rt.tools.get(call.name);
    if (!def) {
      await markCallStarted(rt, claim, call.id, call.name);
      await finishCall(rt, claim, call, { status: 'FAILED', error: `Unknown tool "${call.name}"` });
      continue;
    }
    const ctx = { idempotencyKey: call.id, taskId: claim.taskId, workspaceId: claim.workspaceId, turnId: claim.turnId, workerId: claim.workerId, generation: claim.generation, uow: rt, signal };
    if (call.status === 'STARTED' && def.safety === 'AT_MOST_ONCE') {
      // It may have run. Never run it again: find out what we can and hand it to the model.
      let verify: unknown = 'no verify available';
      if (def.verify) {
        try {
          verify = await def.verify(rt.tools.parseInput(def, call.input) as never, ctx);
        } catch (e) {
          verify = { error: errorMessage(e) };
        }
      }
      await finishCall(rt, claim, call, {
        status: 'OUTCOME_UNKNOWN',
        result: { reason: 'The call was started but its outcome was never recorded (worker interrupted).', verify },
      });
      continue;
    }
    await checkBoundary(rt, claim);
    await markCallStarted(rt, claim, call.id, call.name);
    crashPoint('call.started');
    let outcome: CallOutcome;
    try {
      outcome = await traced(
        'tool.call',
        { 'atelier.task': claim.taskId, 'atelier.turn': claim.number, 'atelier.tool': def.name, 'atelier.call': call.id, 'atelier.tool.safety': def.safety, 'atelier.params': JSON.stringify(sanitizeParams(call.input)).slice(0, 1000) },
        async (span) => {
          const o = await execute(rt, def, call.input, ctx).catch((e: unknown) => {
            span.set({ 'atelier.policy.decision': isAwaitingApproval(e) ? 'approval-required' : isBudgetExceeded(e) ? 'budget-exceeded' : 'stopped' });
            throw e;
          });
          span.set({ 'atelier.policy.decision': 'allowed', 'atelier.tool.status': o.status, ...(o.status === 'FAILED' ? { 'error.class': 'ToolFailed' } : {}) });
          return o;
        },
      );
    } catch (e) {
      if (isAwaitingApproval(e)) {
        // The call stays STARTED: resolving the approval requeues the task and this call is replayed
        // (same key) — the gate then finds the person's decision. No model call meanwhile.
        await endTurn(rt, claim, 'suspend', `waiting for approval: ${e.title}`);
        return 'suspended';
      }
      if (isBudgetExceeded(e)) {
        await finishCall(rt, claim, call, { status: 'FAILED', error: e.reason });
        await endTurn(rt, claim, 'budget', e.reason);
        return true;
      }
      throw e;
    }
    const summary = def.endsTurn && outcome.status === 'DONE' ? String((call.input as { summary?: unknown })?.summary ?? 'Done.') : undefined;
    await finishCall(rt, claim, call, outcome, summary !== undefined ? { summary } : undefined);
    crashPoint('call.done');
    if (summary !== undefined) return true;
  }
  return false;
}

async function execute(
  rt: RuntimeDeps,
  def: ToolDef,
  input: unknown,
  ctx: Parameters<ToolDef['run']>[1],
): Promise<CallOutcome> {
  const retryable = def.safety !== 'AT_MOST_ONCE';
  const attempts = retryable ? Math.max(1, def.retry?.attempts ?? 1) : 1;
  let lastError = '';
  for (let i = 0; i < attempts; i++) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    try {
      return { status: 'DONE', result: await rt.tools.run(def, input, ctx) };
    } catch (e) {
      if (isLeaseLost(e) || isTaskStopped(e) || isAwaitingApproval(e) || isBudgetExceeded(e)) throw e;
      lastError = errorMessage(e).slice(0, 2000);
      if (e instanceof ToolInputInvalid || e instanceof ToolOutputInvalid) break; // retrying cannot help
      if (i + 1 < attempts) await new Promise((r) => setTimeout(r, (def.retry?.backoffMs ?? 200) * 2 ** i));
    }
  }
  return { status: 'FAILED', error: lastError };
}
