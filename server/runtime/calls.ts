// Running a step's tool calls from the journal: each call is marked STARTED before it runs and
// gets its outcome after, through the fenced journal writes (journal.ts). A STARTED call is replayed
// with the same idempotency key when its tool is IDEMPOTENT or READ_ONLY, and becomes OUTCOME_UNKNOWN
// (with the tool's verify result) when AT_MOST_ONCE: such a call is never run twice. A tool that
// recorded durable work before waiting on it (an MCP server's task) follows that work instead.
import { crashPoint } from '../crash-points.ts';
import type { Tx } from '../db/client.ts';
import { doneCallsOfStep } from '../store/journal/steps.ts';
import type { RuntimeDeps } from './deps.ts';
import { isAwaitingApproval, isBudgetExceeded, isLeaseLost, isTaskStopped } from './errors.ts';
import { denyCall, finishCall, markCallStarted, type CallOutcome } from './journal.ts';
import { DENIALS_BEFORE_ESCALATION, escalationFor } from '../domain/agent-policy.ts';
import { raiseEscalation } from './escalation.ts';
import { attemptOf, authorizeCall, type Attempt } from './policy.ts';
import { checkBoundary, type Claim } from './lease.ts';
import { interruptStep } from './input-policy.ts';
import { event, sanitizeParams, traced } from './telemetry.ts';
import { ToolInputInvalid, ToolOutputInvalid, type ToolRegistry } from './tools/registry.ts';
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
 * budget cap), 'suspended' when a call waits for a person's approval, 'interrupted' when a person's
 * instruction skipped the rest of the step (the model decides next), 'rolled-back' when it also
 * ended the turn.
 */
export async function runCalls(
  rt: RuntimeDeps,
  claim: Claim,
  calls: { id: string; name: string; status: string; input: unknown }[],
  signal: AbortSignal,
  /** The step's tools: the built-in registry with the workspace's MCP tools (engine.ts resolves it once per step). */
  tools: ToolRegistry = rt.tools,
): Promise<boolean | 'suspended' | 'interrupted' | 'rolled-back'> {
  for (const [index, call] of calls.entries()) {
    if (call.status !== 'PENDING' && call.status !== 'STARTED') continue;
    const def = tools.get(call.name);
    if (!def) {
      await markCallStarted(rt, claim, call.id, call.name);
      await finishCall(rt, claim, call, { status: 'FAILED', error: `Unknown tool "${call.name}"` });
      continue;
    }
    const ctx = {
      idempotencyKey: call.id,
      taskId: claim.taskId,
      workspaceId: claim.workspaceId,
      turnId: claim.turnId,
      workerId: claim.workerId,
      generation: claim.generation,
      uow: rt,
      signal,
      principal: { id: claim.principal.id, name: claim.principal.name, version: claim.principal.version },
      // Read when the call starts: the lease's renewal may have replaced it meanwhile.
      get credential() {
        return claim.credential;
      },
    };
    // Money held for the call is settled with its outcome, in the same transaction, on every path.
    let thrown: unknown;
    const settle = def.settle ? (tx: Tx, outcome: CallOutcome) => def.settle!(tx, { outcome, ...(thrown !== undefined ? { thrown } : {}) }, ctx) : undefined;
    if (call.status === 'STARTED' && def.safety === 'AT_MOST_ONCE' && !(def.resumable && (await def.resumable(ctx)))) {
      // It may have run. Never run it again: find out what we can and hand it to the model.
      // (A tool that recorded work it can follow — an MCP task — is run again and follows it.)
      let verify: unknown = 'no verify available';
      if (def.verify) {
        try {
          verify = await def.verify(tools.parseInput(def, call.input) as never, ctx);
        } catch (e) {
          verify = { error: errorMessage(e) };
        }
      }
      // A tool marked as needing a person gets a card with the unknown outcome (escalation.ts).
      const kind = escalationFor(def, 'outcome-unknown');
      let waits = false;
      await finishCall(
        rt,
        claim,
        call,
        { status: 'OUTCOME_UNKNOWN', result: { reason: 'The call was started but its outcome was never recorded (worker interrupted).', verify } },
        undefined,
        settle,
        kind
          ? async (tx, emit) => {
              waits = await raiseEscalation(tx, emit, claim, { kind, trigger: 'outcome-unknown', tool: def.name, callId: call.id, what: 'the worker running it was interrupted before its outcome was recorded.' });
            }
          : undefined,
      );
      if (waits) {
        await endTurn(rt, claim, 'suspend', `waiting for a person to check ${def.name}`);
        return 'suspended';
      }
      continue;
    }
    // A safe boundary: nothing of this call has happened yet. A person's instruction with the
    // INTERRUPT or ROLLBACK policy skips it and the rest of the step (input-policy.ts).
    const boundary = await checkBoundary(rt, claim);
    if (boundary.interrupt && call.status === 'PENDING') {
      const rest = calls.slice(index).filter((c) => c.status === 'PENDING');
      const how = await interruptStep(rt, claim, boundary.interrupt, rest);
      return how === 'turn-ended' ? 'rolled-back' : 'interrupted';
    }
    // The one policy check, before anything of the call happens (its preflight included). A refusal
    // is the call's FAILED result the model reads and a TOOL_CALL_DENIED event; the run goes on —
    // unless the model tried the refused tool again, then a person is asked (escalation.ts).
    const decision = authorizeCall(claim, tools, def);
    const attempt = attemptOf(claim, decision, call.input);
    if (!decision.allowed) {
      event('tool.denied', { 'atelier.task': claim.taskId, 'atelier.turn': claim.number, 'atelier.tool': def.name, 'atelier.call': call.id, 'agent.id': claim.principal.id, 'agent.version': claim.principal.version, 'atelier.policy.decision': 'denied', 'atelier.policy.rule': decision.rule });
      const waits = await denyCall(rt, claim, call, attempt, `Not allowed: ${decision.reason} (rule ${decision.rule})`, async (tx, emit, denials) => {
        if (denials < DENIALS_BEFORE_ESCALATION) return false;
        const kind = escalationFor(def, 'repeated-denial')!;
        return raiseEscalation(tx, emit, claim, { kind, trigger: 'repeated-denial', tool: def.name, callId: call.id, what: decision.reason, scope: decision.scope, rule: decision.rule });
      }, settle);
      if (waits) {
        await endTurn(rt, claim, 'suspend', `waiting for a person: ${def.name} was refused twice`);
        return 'suspended';
      }
      continue;
    }
    if (def.preflight) {
      // Before STARTED: a call waiting for a person stays PENDING, so neither a crash nor a resumed
      // turn can mistake it for one that may have run.
      const answered = await preflight(rt, claim, call, def, ctx, tools, settle, attempt);
      if (answered !== null) {
        if (answered !== 'answered') return answered;
        continue;
      }
    }
    await markCallStarted(rt, claim, call.id, call.name, attempt);
    crashPoint('call.started');
    let outcome: CallOutcome;
    try {
      outcome = await traced(
        'tool.call',
        {
          'atelier.task': claim.taskId,
          'atelier.turn': claim.number,
          'atelier.tool': def.name,
          'atelier.call': call.id,
          'atelier.tool.safety': def.safety,
          'atelier.params': JSON.stringify(sanitizeParams(call.input)).slice(0, 1000),
          'agent.id': claim.principal.id,
          'agent.version': claim.principal.version,
          'atelier.run': attempt.run,
          'atelier.policy.decision': 'allowed',
          'atelier.policy.rule': decision.rule,
        },
        async (span) => {
          const o = await execute(tools, def, call.input, ctx, (e) => (thrown = e)).catch((e: unknown) => {
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
        thrown = e;
        await finishCall(rt, claim, call, { status: 'FAILED', error: e.reason }, undefined, settle);
        await endTurn(rt, claim, 'budget', e.reason);
        return true;
      }
      throw e;
    }
    const summary = def.endsTurn && outcome.status === 'DONE' ? String((call.input as { summary?: unknown })?.summary ?? 'Done.') : undefined;
    await finishCall(rt, claim, call, outcome, summary !== undefined ? { summary } : undefined, settle);
    crashPoint('call.done');
    if (summary !== undefined) return true;
  }
  return false;
}

/**
 * Runs a tool's preflight. null: go on and run the call. 'answered': the call got its outcome
 * without running (invalid input, a declined card). true / 'suspended': the turn ended (the task's
 * budget cap; a card waits for a person, the call still PENDING).
 */
async function preflight(
  rt: RuntimeDeps,
  claim: Claim,
  call: { id: string; name: string; input: unknown },
  def: ToolDef,
  ctx: Parameters<ToolDef['run']>[1],
  tools: ToolRegistry,
  settle: ((tx: Tx, outcome: CallOutcome) => Promise<CallOutcome>) | undefined,
  attempt: Attempt,
): Promise<null | 'answered' | true | 'suspended'> {
  const answer = async (outcome: CallOutcome) => {
    await markCallStarted(rt, claim, call.id, call.name, attempt);
    await finishCall(rt, claim, call, outcome, undefined, settle);
  };
  let input: unknown;
  try {
    input = tools.parseInput(def, call.input);
  } catch (e) {
    await answer({ status: 'FAILED', error: errorMessage(e).slice(0, 2000) });
    return 'answered';
  }
  try {
    const r = await def.preflight!(input as never, ctx);
    if (r.kind === 'proceed') return null;
    await answer(r.outcome);
    return 'answered';
  } catch (e) {
    if (isAwaitingApproval(e)) {
      await endTurn(rt, claim, 'suspend', `waiting for approval: ${e.title}`);
      return 'suspended';
    }
    if (isBudgetExceeded(e)) {
      await answer({ status: 'FAILED', error: e.reason });
      await endTurn(rt, claim, 'budget', e.reason);
      return true;
    }
    throw e;
  }
}

async function execute(
  tools: ToolRegistry,
  def: ToolDef,
  input: unknown,
  ctx: Parameters<ToolDef['run']>[1],
  /** What the last attempt threw (a tool's settlement reads why it failed). */
  onThrown: (e: unknown) => void,
): Promise<CallOutcome> {
  const retryable = def.safety !== 'AT_MOST_ONCE';
  const attempts = retryable ? Math.max(1, def.retry?.attempts ?? 1) : 1;
  let lastError = '';
  for (let i = 0; i < attempts; i++) {
    if (ctx.signal.aborted) throw ctx.signal.reason;
    try {
      return { status: 'DONE', result: await tools.run(def, input, ctx) };
    } catch (e) {
      if (isLeaseLost(e) || isTaskStopped(e) || isAwaitingApproval(e) || isBudgetExceeded(e)) throw e;
      onThrown(e);
      lastError = errorMessage(e).slice(0, 2000);
      if (e instanceof ToolInputInvalid || e instanceof ToolOutputInvalid) break; // retrying cannot help
      if (i + 1 < attempts) await new Promise((r) => setTimeout(r, (def.retry?.backoffMs ?? 200) * 2 ** i));
    }
  }
  return { status: 'FAILED', error: lastError };
}
