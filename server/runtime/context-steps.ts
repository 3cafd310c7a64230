// The engine's context work before a model call: compaction at the size threshold, in
// stage order, each decision persisted before the request that applies it; and the inputs of the
// model-routing rule. The decisions themselves are pure (compaction.ts, models/routing-rule.ts).
import { AIMessage, HumanMessage } from '@langchain/core/messages';
import type { RuntimeDeps } from './deps.ts';
import { checkBoundary, type Claim } from './lease.ts';
import { activeRecords, extractiveSummary, supersededAt, planCompaction, summaryPrompt, type CompactionRecord, type ContextOptions } from '../domain/compaction.ts';
import { renderContext, toolResultContent, type ContextInputs } from './context/render.ts';
import type { HistoryStep } from '../domain/history.ts';
import { insertCompaction, loadCompactions, markCompactionSuperseded } from '../store/journal/compactions.ts';
import { openItems } from '../domain/checklist.ts';
import type { RoutingInput } from './models/routing-rule.ts';
import { routeModelCall } from './models/routing-rule.ts';
import { messageChars, messageText } from './models/types.ts';
import { callCostCents, DEFAULT_PRICES, priceOf, usageOf } from '../domain/pricing.ts';
import { event, traced } from './telemetry.ts';

const GENERATION_KINDS = new Set(['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D', '3D']);

/** Pure: the routing rule's inputs for a worker step. */
export function routingInputOf(inputs: ContextInputs, lastCalls: readonly { status: string }[]): RoutingInput {
  const checklist = inputs.dynamics.checklist;
  const open = checklist ? openItems(checklist.items) : [];
  return {
    purpose: 'worker-step',
    planning: !checklist || open.length === 0,
    paidActionPending: (inputs.dynamics.approvalsPending?.length ?? 0) > 0 || open.some((i) => GENERATION_KINDS.has(i.kind.toUpperCase()) && i.ordered < i.count),
    lastCallFailed: lastCalls.some((c) => c.status === 'FAILED' || c.status === 'OUTCOME_UNKNOWN'),
    userRevise: inputs.fresh.some((i) => i.signal === 'REVISE'),
    userMessage: inputs.fresh.some((i) => i.kind === 'MESSAGE'),
  };
}

function transcript(steps: readonly HistoryStep[]): string {
  return steps
    .map((s) => {
      const d = s.decision as { content?: string; toolCalls?: { name: string; args: unknown }[] };
      const calls = s.toolCalls.map((c) => `${c.name} → ${toolResultContent(c).slice(0, 400)}`).join('\n');
      return `${d.content ?? ''}\n${calls}`.trim();
    })
    .join('\n---\n');
}

/**
 * Compacts while the request is over the threshold and a stage has something left to do (at most
 * one row per stage per step). Rows are written with atStep = the ordinal of the step about to be
 * decided, before its model call, so a retry of the same step (or replay) sees the same rows.
 */
export async function compactIfNeeded(rt: RuntimeDeps, claim: Claim, inputs: ContextInputs, opts: ContextOptions): Promise<CompactionRecord[]> {
  let records = await loadCompactions(rt.prisma, claim.taskId);
  const n = inputs.steps.length;
  for (let round = 0; round < 4; round++) {
    const chars = renderContext(inputs, records, opts).reduce((k, m) => k + messageChars(m), 0);
    // Start above compactAtChars; once started, go on to the next stage until below the target.
    const limit = round === 0 ? opts.compactAtChars : Math.floor(opts.compactAtChars * opts.compactToRatio);
    const plan = planCompaction({ chars, steps: inputs.steps, records, reviseOrdinals: inputs.reviseOrdinals, checklist: inputs.dynamics.checklist, opts: { ...opts, compactAtChars: limit } });
    if (!plan) break;
    let text = plan.text ?? '';
    let model: string | null = null;
    let usage: unknown = null;
    let costCents = 0;
    if (plan.stage === 3) {
      const range = inputs.steps.slice(plan.fromStep, plan.toStep + 1);
      const extractive = () => extractiveSummary(range, inputs.inbox, inputs.notices.consumed, plan.fromStep, plan.toStep, opts.summaryChars);
      const route = routeModelCall({ purpose: 'summary' });
      event('model.route', { 'atelier.task': claim.taskId, 'atelier.routing.role': route.role, 'atelier.routing.reason': route.reason });
      if (rt.models.info.offline || rt.models.info.provider === 'scripted') {
        // No real model: a deterministic extractive summary (the scripted test model's replies are
        // reserved for worker steps).
        text = extractive();
        model = 'extractive';
      } else {
        model = route.role === 'router' ? rt.models.info.routerModel : rt.models.info.workerModel;
        try {
          const ai = await traced('model.call', { 'atelier.task': claim.taskId, 'atelier.model': model, 'atelier.routing.role': route.role, 'atelier.routing.reason': route.reason, 'atelier.purpose': 'summary' }, async (span) => {
            const out = (await rt.models.chat(route.role).invoke([new HumanMessage(summaryPrompt(transcript(range), plan.fromStep, plan.toStep))])) as AIMessage;
            const u = usageOf(out.usage_metadata);
            span.set({ 'atelier.tokens.input': u.inputTokens, 'atelier.tokens.output': u.outputTokens, 'atelier.tokens.cached': u.cachedTokens });
            return out;
          });
          usage = ai.usage_metadata ?? null;
          costCents = callCostCents(usageOf(usage), priceOf(rt.options.prices ?? DEFAULT_PRICES, model, route.role));
          const written = messageText(ai).trim();
          text = written ? written.slice(0, opts.summaryChars) : extractive();
        } catch (e) {
          rt.log.warn('summary model failed; using the extractive summary', { taskId: claim.taskId, error: e instanceof Error ? e.message : String(e) });
          text = extractive();
          model = 'extractive';
        }
      }
    }
    await checkBoundary(rt, claim);
    const version = (records.at(-1)?.version ?? 0) + 1;
    const written = await insertCompaction(rt.prisma, {
      taskId: claim.taskId,
      version,
      stage: plan.stage,
      fromStep: plan.fromStep,
      toStep: plan.toStep,
      atStep: n,
      text,
      model,
      usage: { ...(usage as object | null ?? {}), costCents },
    });
    if (!written) {
      // Another worker (a takeover) wrote this version: take the rows as they are now.
      records = await loadCompactions(rt.prisma, claim.taskId);
      continue;
    }
    event('context.compaction', { 'atelier.task': claim.taskId, 'atelier.step': n, 'atelier.compaction.stage': plan.stage, 'atelier.compaction.version': version, 'atelier.context.chars': chars });
    rt.log.debug('context compacted', { taskId: claim.taskId, stage: plan.stage, fromStep: plan.fromStep, toStep: plan.toStep, atStep: n });
    records = [...records, { version, stage: plan.stage, fromStep: plan.fromStep, toStep: plan.toStep, atStep: n, text }];
  }
  // Summaries a REVISE superseded get marked (the rule itself is derived, compaction.ts).
  for (const r of records.filter((x) => x.stage === 3 && x.atStep <= n && !activeRecords([x], n, inputs.reviseOrdinals).length)) {
    await markCompactionSuperseded(rt.prisma, claim.taskId, r.version, supersededAt(r, inputs.reviseOrdinals));
  }
  return records;
}
