// Runs one turn durably. The loop is driven by the journal, never by memory:
//   - a step whose tool calls are unfinished is resumed (no model call; calls.ts runs them);
//   - DONE/FAILED/OUTCOME_UNKNOWN calls are reused;
//   - a STARTED call is replayed with the same idempotency key when its tool is IDEMPOTENT or
//     READ_ONLY, and becomes OUTCOME_UNKNOWN (with the tool's verify result) when AT_MOST_ONCE;
//   - otherwise the model is asked, and its decision, the pending calls and the consumed inbox
//     items are committed in one transaction before any tool runs.
// Every write is fenced by the turn's generation (lease.ts); a superseded worker stops with
// LeaseLost and a paused/cancelled task stops the turn with TaskStopped.
import type { AIMessage } from '@langchain/core/messages';
import { crashPoint } from '../crash-points.ts';
import type { RuntimeDeps } from './deps.ts';
import type { WorkerMemory } from './memory.ts';
import { isInboxChanged, isLeaseLost, isTaskStopped, type TaskStopped } from './errors.ts';
import { loadContextInputs } from './context/load.ts';
import { digestRequest, renderContext } from './context/render.ts';
import { compactIfNeeded, routingInputOf } from './context-steps.ts';
import { DEFAULT_CONTEXT_OPTIONS, type ContextOptions } from '../domain/compaction.ts';
import { routeModelCall } from './models/routing-rule.ts';
import { callCostCents, DEFAULT_PRICES, priceOf, usageOf } from '../domain/pricing.ts';
import { messageChars } from './models/types.ts';
import { asAgent, asWorker } from '../channel/writer.ts';
import { authorizeService, runOf, runScopes } from './policy.ts';
import { MAX_CREDENTIAL_LIFETIME_MS, mintRunCredential } from './run-credentials.ts';
import { chooseToolSet, phaseDomains } from './tools/tool-phase.ts';
import { event, traced } from './telemetry.ts';
import { runCalls, suspendIfWaiting } from './calls.ts';
import { commitStep, type Decision } from './journal.ts';
import { checkBoundary, claimTurn, releaseLease, renewLease, type Claim } from './lease.ts';
import { endTurn, stopTurn, type TurnEnd } from './turn-end.ts';
import { callStatusesOfTask, loadTaskSteps } from '../store/journal/steps.ts';
import { loadTaskState, maybeSnapshot } from './task-state.ts';
import { refreshTaskSealingKey } from '../store/sealing/keys.ts';
import { sealingWith } from '../store/sealing/scope.ts';

export type RunTurnOptions = {
  workerId: string;
  /** Renew the lease while running (tests turn it off to simulate a frozen worker). */
  renew?: boolean;
};

export type RunTurnResult = { outcome: 'not-claimed' | 'completed' | 'requeued' | 'suspended' | 'failed' | 'stopped' | 'lease-lost'; generation?: number };

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export function runTurn(rt: RuntimeDeps, turnId: string, opts: RunTurnOptions): Promise<RunTurnResult> {
  // Every event the turn writes records the worker that ran it (task_events.worker_id).
  return asWorker(opts.workerId, () => runClaimedTurn(rt, turnId, opts));
}

async function runClaimedTurn(rt: RuntimeDeps, turnId: string, opts: RunTurnOptions): Promise<RunTurnResult> {
  const claim = await claimTurn(rt, turnId, opts.workerId);
  if (!claim) return { outcome: 'not-claimed' };
  // Every AGENT event of the run names its principal, the principal's version and the run.
  return asAgent({ id: claim.principal.id, version: claim.principal.version, run: runOf(claim) }, () => runAsAgent(rt, claim, turnId, opts));
}

/** The audience of a run's credential for tools (MCP servers and Atelier's own tool endpoints). */
export const TOOLS_AUDIENCE = 'atelier:tools';

/**
 * Mints the run's credential (scopes: the principal's ceiling ∩ what the task's tools need), or
 * replaces it when less than half of its life is left. A failure leaves the run without one (a
 * tool that calls out then sends none) and is logged: it never fails the turn.
 */
async function refreshCredential(rt: RuntimeDeps, claim: Claim): Promise<void> {
  const c = claim.credential;
  if (c) {
    const lifeMs = MAX_CREDENTIAL_LIFETIME_MS;
    if (c.expiresAt.getTime() - Date.now() > lifeMs / 2) return;
  }
  try {
    const tools = rt.mcp ? await rt.mcp.registryFor(claim.workspaceId, rt.tools, { taskId: claim.taskId }) : rt.tools;
    claim.credential = await mintRunCredential(
      { prisma: rt.prisma },
      {
        principal: { id: claim.principal.id, name: claim.principal.name, version: claim.principal.version },
        scopes: runScopes(claim, tools),
        audience: TOOLS_AUDIENCE,
        workspaceId: claim.workspaceId,
        taskId: claim.taskId,
        turnId: claim.turnId,
        generation: claim.generation,
      },
    );
  } catch (e) {
    rt.log.error('the run credential could not be minted', { turnId: claim.turnId, error: errorMessage(e) });
  }
}

async function runAsAgent(rt: RuntimeDeps, claim: Claim, turnId: string, opts: RunTurnOptions): Promise<RunTurnResult> {
  await refreshCredential(rt, claim);
  const ac = new AbortController();
  let renewal: NodeJS.Timeout | undefined;
  if (opts.renew !== false) {
    renewal = setInterval(() => {
      renewLease(rt, claim)
        // The credential follows the lease: renewed only while the run still holds its turn.
        .then(() => refreshCredential(rt, claim))
        .catch((e) => {
          if (isLeaseLost(e) || isTaskStopped(e)) ac.abort(e);
          else rt.log.warn('lease renewal failed', { turnId, error: errorMessage(e) });
        });
    }, Math.max(50, Math.floor(rt.options.leaseMs / 3)));
    renewal.unref();
  }
  try {
    if (claim.generation > 1) await checkJournal(rt, claim);
    const outcome = await drive(rt, claim, ac.signal);
    return { outcome, generation: claim.generation };
  } catch (e) {
    // An abort carries its reason (LeaseLost or TaskStopped from the lease renewal).
    const reason = ac.signal.aborted ? ac.signal.reason : e;
    if (isLeaseLost(reason)) {
      rt.log.info('turn superseded; stopping without writing', { turnId, generation: claim.generation });
      return { outcome: 'lease-lost', generation: claim.generation };
    }
    if (isTaskStopped(reason) || isTaskStopped(e)) {
      const stopped = (isTaskStopped(reason) ? reason : e) as TaskStopped;
      await stopTurn(rt, claim, `task ${stopped.status}`);
      return { outcome: 'stopped', generation: claim.generation };
    }
    if (isTransient(e) && claim.generation < MAX_TRANSIENT_ATTEMPTS) {
      // The database (or its pool) failed for a moment: that is not the task's failure. The turn is
      // left to its lease (released now when possible) and taken over from its journal, like after
      // a crash; after MAX_TRANSIENT_ATTEMPTS generations it fails like any other error.
      rt.log.warn('turn interrupted by a transient error; it will be taken over', { turnId, generation: claim.generation, error: errorMessage(e) });
      await releaseLease(rt, claim).catch(() => {});
      return { outcome: 'lease-lost', generation: claim.generation };
    }
    rt.log.error('turn failed', { turnId, error: errorMessage(e) });
    try {
      await endTurn(rt, claim, 'fail', `The worker hit an unexpected error: ${errorMessage(e).slice(0, 300)}`);
    } catch (e2) {
      if (!isLeaseLost(e2) && !isTaskStopped(e2)) throw e2;
    }
    return { outcome: 'failed', generation: claim.generation };
  } finally {
    if (renewal) clearInterval(renewal);
    // The run is over: its credential goes with it (verification refuses it from now on anyway).
    claim.credential = undefined;
  }
}

const MAX_TRANSIENT_ATTEMPTS = 8;
const TRANSIENT_CODES = new Set(['P1001', 'P1002', 'P1008', 'P1017', 'P2024', 'P2034', '40001', '40P01', '57P01', '08006', '08003']);

/** Errors of the infrastructure, not of the work: a retry (a takeover) may well succeed. */
export function isTransient(e: unknown): boolean {
  const code = (e as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TRANSIENT_CODES.has(code)) return true;
  return /connection pool|Can't reach database|Connection terminated|ECONNRESET|ECONNREFUSED|timeout exceeded when trying to connect|server closed the connection|terminating connection/i.test(errorMessage(e));
}

/**
 * On takeover, rebuild the task's state from its latest snapshot and events, and check the journal
 * against it: a tool call whose status differs means a write escaped the fence.
 */
async function checkJournal(rt: RuntimeDeps, claim: Claim): Promise<void> {
  const { state, snapshotSeq, replayed } = await loadTaskState(rt.prisma, claim.taskId);
  const calls = await callStatusesOfTask(rt.prisma, claim.taskId);
  const mismatched = calls.filter((c) => state.toolCalls[c.id]?.status !== c.status).map((c) => c.id);
  const log = mismatched.length ? rt.log.error : rt.log.debug;
  log('takeover: journal checked against event-sourced state', { taskId: claim.taskId, snapshotSeq, replayed, mismatched });
}

/** Snapshots are an optimisation: failing to write one never fails the turn. */
function snapshotSoon(rt: RuntimeDeps, taskId: string): void {
  maybeSnapshot(rt.prisma, taskId).catch((e) => rt.log.warn('snapshot failed', { taskId, error: errorMessage(e) }));
}

async function drive(rt: RuntimeDeps, claim: Claim, signal: AbortSignal): Promise<RunTurnResult['outcome']> {
  for (;;) {
    if (signal.aborted) throw signal.reason;
    // Everything this iteration writes for the task is sealed under the task's key while long-term
    // memory is (or was) in its context (store/sealing): refreshed here for what earlier steps were
    // shown, and again once this step's memory section is assembled.
    const key = await refreshTaskSealingKey(rt.prisma, claim.taskId);
    const outcome = await sealingWith(claim.taskId, key, () => iterate(rt, claim, signal));
    if (outcome) return outcome;
  }
}

/** One step of the loop: an outcome ends the turn; null goes on with the next step. */
async function iterate(rt: RuntimeDeps, claim: Claim, signal: AbortSignal): Promise<RunTurnResult['outcome'] | null> {
  {
    // The task's latest step, whichever turn made it: a turn stopped by a pause (or ended by a
    // crash) leaves calls the next turn must finish before anything is asked of the model.
    // One read of the task's steps serves the resume decision and, if the model is asked, its input.
    const history = await loadTaskSteps(rt.prisma, claim.taskId);
    // The step's tools, resolved once: the built-in registry with the workspace's MCP tools (none,
    // and no database read, while the workspace has no MCP server; see mcp/bus.ts).
    const tools = rt.mcp ? await rt.mcp.registryFor(claim.workspaceId, rt.tools, { taskId: claim.taskId }) : rt.tools;
    const last = history.at(-1);
    const steps = history.filter((h) => h.turnId === claim.turnId).length;
    if (last) {
      const open = last.toolCalls.filter((c) => c.status === 'PENDING' || c.status === 'STARTED');
      if (open.length) {
        const ended = await runCalls(rt, claim, last.toolCalls, signal, tools);
        if (ended === 'suspended') return 'suspended';
        // A person's instruction skipped the rest of the step: the model reads it now, even when
        // an earlier call of the step left a job running (input-policy.ts).
        if (ended === 'interrupted') return null;
        if (ended === 'rolled-back') return 'requeued';
        if (ended) return 'completed';
        if (await suspendIfWaiting(rt, claim, last.id)) return 'suspended';
        return null;
      }
    }
    if (last && last.turnId === claim.turnId) {
      const decision = last.decision as Decision;
      if (decision.toolCalls.length === 0) {
        // The model stopped acting. Whether the task is done, waits, asks the user or goes on is
        // the runtime's decision from persisted state (continuation.ts), not the model's silence.
        return outcomeOf(await endTurn(rt, claim, 'decide', decision.content));
      }
      if (last.toolCalls.some((c) => c.status === 'DONE' && tools.get(c.name)?.endsTurn)) return 'completed';
    }
    if (steps >= rt.options.maxStepsPerTurn) {
      return outcomeOf(await endTurn(rt, claim, 'decide', last?.decision ? (last.decision as Decision).content : '', { stepLimitHit: true }));
    }
    await checkBoundary(rt, claim);
    const n = history.length;
    const ctxOpts: ContextOptions = { ...DEFAULT_CONTEXT_OPTIONS, ...rt.options.context };
    // Reading long-term memory is a service call on the agent's behalf: the policy decides it too.
    // Refused, the step gets no memory section — but what forgetting withholds is still withheld.
    const memory = rt.memory && !authorizeService(claim, 'memory.read').allowed ? withoutSection(rt.memory) : rt.memory;
    const inputs = await loadContextInputs(rt.prisma, claim.taskId, history, { capabilities: rt.capabilities?.render() ?? null }, memory);
    const { newInboxIds, newNoticeIds } = inputs;
    // This step's memory section may add sources: its decision is sealed under the key covering them.
    const stepKey = inputs.knowledge.memorySection ? await refreshTaskSealingKey(rt.prisma, claim.taskId) : undefined;
    const records = await compactIfNeeded(rt, claim, inputs, ctxOpts);
    const messages = renderContext(inputs, records, ctxOpts);
    // The visible tools change only at a segment boundary (tools/tool-phase.ts); the registry still
    // runs any registered tool the model names — visibility is not authorisation.
    const toolSet = chooseToolSet({
      all: tools.list(),
      previous: last ? ((last.request as { tools?: string[] } | null)?.tools ?? null) : null,
      compacted: records.some((r) => r.atStep === n),
      domains: phaseDomains(inputs.task, inputs.dynamics.checklist),
    });
    const { digest, request } = digestRequest(messages, toolSet.tools, { stateSeq: inputs.stateSeq });
    const route = routeModelCall(routingInputOf(inputs, last?.toolCalls ?? []));
    event('model.route', { 'atelier.task': claim.taskId, 'atelier.turn': claim.number, 'atelier.step': steps, 'atelier.routing.role': route.role, 'atelier.routing.reason': route.reason, 'atelier.toolset.reason': toolSet.reason, 'atelier.toolset.size': toolSet.tools.length });
    const modelName = route.role === 'router' ? rt.models.info.routerModel : rt.models.info.workerModel;
    const model = rt.models.chat(route.role);
    const visible = new Set(toolSet.tools);
    const bound = model.bindTools ? model.bindTools(tools.forModel().filter((t) => visible.has(t.function.name))) : model;
    const chars = messages.reduce((k, m) => k + messageChars(m), 0);
    const started = Date.now();
    const ai = (await traced('model.call', { 'atelier.task': claim.taskId, 'atelier.turn': claim.number, 'atelier.step': steps, 'atelier.model': modelName, 'atelier.routing.role': route.role, 'atelier.routing.reason': route.reason, 'atelier.context.chars': chars }, async (span) => {
      const out = (await bound.invoke(messages, { signal })) as AIMessage;
      const u = usageOf(out.usage_metadata);
      span.set({ 'atelier.tokens.input': u.inputTokens, 'atelier.tokens.output': u.outputTokens, 'atelier.tokens.cached': u.cachedTokens, 'atelier.cache.hit': u.cachedTokens > 0, 'atelier.latency_ms': Date.now() - started });
      return out;
    })) as AIMessage;
    const usage = usageOf(ai.usage_metadata);
    const costCents = callCostCents(usage, priceOf(rt.options.prices ?? DEFAULT_PRICES, modelName, route.role));
    const decision: Decision = {
      content: typeof ai.content === 'string' ? ai.content : JSON.stringify(ai.content),
      toolCalls: [
        ...(ai.tool_calls ?? []).map((c, i) => ({ id: c.id ?? `call_${i}`, name: c.name, args: c.args })),
        // Calls whose arguments were not valid JSON still get an answer (FAILED), never silence.
        ...(ai.invalid_tool_calls ?? []).map((c, i) => ({ id: c.id ?? `invalid_${i}`, name: c.name ?? 'unknown', args: { __invalid: c.args ?? null } })),
      ],
    };
    snapshotSoon(rt, claim.taskId);
    const commit = (): ReturnType<typeof commitStep> => commitStep(rt, claim, {
      index: steps,
      decision,
      requestDigest: digest,
      request,
      model: modelName,
      usage: ai.usage_metadata ?? null,
      routing: {
        role: route.role,
        reason: route.reason,
        toolSet: { boundary: toolSet.boundary, reason: toolSet.reason, count: toolSet.tools.length },
        contextChars: chars,
        compactions: records.filter((r) => r.atStep === n).map((r) => ({ version: r.version, stage: r.stage })),
      },
      costCents,
      consumedInboxIds: newInboxIds,
      consumedNoticeIds: newNoticeIds,
      safetyOf: (name) => tools.get(name)?.safety ?? 'UNKNOWN',
    });
    const committed = await (stepKey === undefined ? commit() : sealingWith(claim.taskId, stepKey, commit)).catch((e) => {
      if (isInboxChanged(e)) return null; // a message was withdrawn meanwhile: decide again
      throw e;
    });
    if (!committed) rt.log.info('inbox changed during the model call; deciding again', { taskId: claim.taskId });
    else crashPoint('step.committed');
    return null;
  }
}

/** Memory for an agent that may not read it: the withheld steps and messages, never the section. */
function withoutSection(memory: WorkerMemory): WorkerMemory {
  return { contextFor: async (taskId, ordinal) => ({ ...(await memory.contextFor(taskId, ordinal)), section: null }) };
}

function outcomeOf(how: Exclude<TurnEnd, 'decide'>): RunTurnResult['outcome'] {
  if (how === 'requeue') return 'requeued';
  if (how === 'suspend') return 'suspended';
  if (how === 'fail') return 'failed';
  if (how === 'pause') return 'stopped';
  return 'completed';
}
