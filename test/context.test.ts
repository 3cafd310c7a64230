// Context engineering: prefix stability, compaction order and reversibility, tool sets
// switched at segment boundaries only, the routing rule, cost, and spans without personal text.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InMemorySpanExporter, BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import * as otelApi from '@opentelemetry/api';
import { z } from 'zod';
import type { Viewer } from '../server/auth/viewer.ts';
import { canonicalJson } from '../server/channel/payload.ts';
import { assembleWorkerInput, digestRequest, dynamicsOf, renderTaskState, type HistoryStep } from '../server/runtime/context.ts';
import { foldEvents, initialTaskState } from '../server/runtime/task-state.ts';
import { compactView, DEFAULT_CONTEXT_OPTIONS, extractiveSummary, planCompaction, supersededAt, type CompactionRecord } from '../server/domain/compaction.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { callCostCents, priceOf, usageOf } from '../server/domain/pricing.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { routeModelCall } from '../server/runtime/models/routing-rule.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { replayTask } from '../server/runtime/replay.ts';
import { fromOtel, sanitizeParams, setTracer } from '../server/runtime/telemetry.ts';
import { chooseToolSet, phaseDomains, visibleTools } from '../server/runtime/tools/tool-phase.ts';
import { defineTool, type ToolDef } from '../server/runtime/tools/types.ts';
import { taskCost } from '../server/services/costs/task-cost.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { toGlobalId } from './helpers/clients.ts';

const task = { title: 'Autumn poster', goal: 'A poster for the autumn fair', language: null };

function step(i: number, calls: { name: string; result: unknown; status?: string }[], content = `step ${i}`): HistoryStep {
  return {
    turnId: 't1',
    turnNumber: 1,
    index: i,
    decision: { content, toolCalls: calls.map((c, k) => ({ id: `m${i}-${k}`, name: c.name, args: {} })) },
    toolCalls: calls.map((c, k) => ({ id: `t1:${i}:${k}`, modelCallId: `m${i}-${k}`, name: c.name, status: c.status ?? 'DONE', result: c.result, error: null })),
  };
}

const serialized = (msgs: ReturnType<typeof assembleWorkerInput>) => (digestRequest(msgs, []).request as { messages: unknown[] }).messages.map((m) => canonicalJson(m));

describe('prefix stability (pure)', () => {
  test('same inputs → byte-identical request; one more step only appends before the tail', () => {
    const steps = [step(0, [{ name: 'add_note', result: { noted: true } }]), step(1, [{ name: 'add_note', result: { noted: true } }])];
    const a = assembleWorkerInput(task, steps, [], [], { checklist: null }, { capabilities: '[capabilities] x', memorySection: '[memory] likes blue' });
    const b = assembleWorkerInput(task, steps, [], [], { checklist: null }, { capabilities: '[capabilities] x', memorySection: '[memory] likes blue' });
    assert.equal(digestRequest(a, ['add_note']).digest, digestRequest(b, ['add_note']).digest);
    const c = assembleWorkerInput(task, [...steps, step(2, [{ name: 'add_note', result: { noted: true } }])], [], [], { checklist: null }, { capabilities: '[capabilities] x', memorySection: '[memory] likes blue' });
    const sa = serialized(a);
    const sc = serialized(c);
    // Everything but the dynamic tail is an unchanged prefix of the next request.
    assert.deepEqual(sc.slice(0, sa.length - 1), sa.slice(0, -1));
    assert.match(String(c.at(-1)!.content), /^\[task state\]/);
    // No timestamps in the request.
    assert.doesNotMatch(sc.join(''), /\d{4}-\d{2}-\d{2}T\d{2}:/);
  });

  test('a profile change (memory forget) → a new prefix from the memory section on', () => {
    const before = serialized(assembleWorkerInput(task, [], [], [], { checklist: null }, { capabilities: null, memorySection: '[memory] likes blue; lives in Bern' }));
    const after = serialized(assembleWorkerInput(task, [], [], [], { checklist: null }, { capabilities: null, memorySection: '[memory] likes blue' }));
    assert.equal(before[0], after[0], 'system rules unchanged');
    assert.notEqual(before[1], after[1], 'the profile snapshot differs');
  });

  test('the task-state tail carries checklist, budget, pending approvals and waiting jobs', () => {
    const tail = renderTaskState({
      checklist: { version: 1, items: [{ id: 's1', title: 'Poster', kind: 'IMAGE', count: 1, status: 'TODO', artifacts: [], evidence: null, needsApproval: false, estimateCents: 40, round: 0, ordered: 0 }] },
      approvalsPending: [{ title: 'Generate a video', quoteCents: 120 }],
      jobsWaiting: 2,
      limits: { budgetCapCents: 500 },
    });
    assert.match(tail, /\[budget\] plan estimate 40¢; cap 500¢/);
    assert.match(tail, /\[approvals pending\] "Generate a video" \(120¢\)/);
    assert.match(tail, /\[generation jobs running\] 2/);
  });
});

test('the tail comes from the event fold: approvals and jobs open and close with their events', () => {
  const ev = [
    { type: 'TASK_CREATED', payload: { title: 'x', goal: '' } },
    { type: 'APPROVAL_REQUESTED', payload: { approvalId: 'a1', title: 'Generate a video', quoteCents: 120 } },
    { type: 'JOB_SUBMITTED', payload: { jobId: 'j1' } },
    { type: 'JOB_SUBMITTED', payload: { jobId: 'j2' } },
    { type: 'TASK_LIMITS_CHANGED', payload: { budgetCapCents: 300 } },
  ];
  const s1 = foldEvents(initialTaskState(), ev.map((e, i) => ({ seq: i + 1, ...e })));
  assert.deepEqual(dynamicsOf(s1), { checklist: null, approvalsPending: [{ title: 'Generate a video', quoteCents: 120 }], jobsWaiting: 2, limits: { budgetCapCents: 300 } });
  const s2 = foldEvents(s1, [
    { seq: 6, type: 'APPROVAL_RESOLVED', payload: { approvalId: 'a1', status: 'APPROVED' } },
    { seq: 7, type: 'JOB_SUCCEEDED', payload: { jobId: 'j1' } },
  ]);
  assert.deepEqual(dynamicsOf(s2).approvalsPending, []);
  assert.equal(dynamicsOf(s2).jobsWaiting, 1);
});

describe('compaction (pure)', () => {
  const big = { text: 'x'.repeat(3000) };
  const opts = { ...DEFAULT_CONTEXT_OPTIONS, compactAtChars: 1000, keepRecentSteps: 2 };
  const checklist = { version: 2, items: [{ id: 's1', title: 'Research', kind: 'OTHER', count: 1, status: 'DONE' as const, artifacts: [], evidence: 'found 3 references', needsApproval: false, estimateCents: 0, round: 0, ordered: 0 }] };
  const steps = [
    step(0, [{ name: 'fetch', result: big }]),
    step(1, [{ name: 'update_checklist', result: { version: 2, item: { id: 's1', status: 'DONE' } } }]),
    step(2, [{ name: 'add_note', result: { noted: true } }]),
    step(3, [{ name: 'add_note', result: { noted: true } }]),
    step(4, [{ name: 'add_note', result: { noted: true } }]),
    step(5, [{ name: 'add_note', result: { noted: true } }]),
  ];
  test('stages in order: large outputs, then finished checklist steps, then a summary; below the threshold nothing', () => {
    assert.equal(planCompaction({ chars: 999, steps, records: [], reviseOrdinals: [], checklist, opts }), null);
    const records: CompactionRecord[] = [];
    const stages: number[] = [];
    for (let v = 1; v <= 4; v++) {
      const p = planCompaction({ chars: 5000, steps, records, reviseOrdinals: [], checklist, opts });
      if (!p) break;
      stages.push(p.stage);
      records.push({ version: v, stage: p.stage, fromStep: p.fromStep, toStep: p.toStep, atStep: steps.length, text: p.text ?? extractiveSummary(steps.slice(p.fromStep, p.toStep + 1), [], [], p.fromStep, p.toStep, 500) });
    }
    assert.deepEqual(stages, [1, 2, 3]);
    const view = compactView(steps, records, steps.length, [], opts);
    assert.equal(view.steps.length, 2, 'only the recent steps stay as messages');
    assert.equal(view.summaries.length, 2);
    assert.match(view.summaries[0]!, /\[finished checklist steps, steps 1–2\] Research — DONE: found 3 references/);
    assert.match(view.summaries[1]!, /\[summary of steps 3–4\]/);
  });

  test('stage 1 keeps a reference: elided output with the call id and a preview', () => {
    const r: CompactionRecord = { version: 1, stage: 1, fromStep: 0, toStep: 3, atStep: 6, text: JSON.stringify({ largeResultChars: 1500, previewChars: 50 }) };
    const v = compactView(steps, [r], 6, [], opts);
    const res = v.steps[0]!.toolCalls[0]!.result as { elided: boolean; callId: string; chars: number; preview: string };
    assert.equal(res.elided, true);
    assert.equal(res.callId, 't1:0:0');
    assert.equal(res.preview.length, 50);
    // Before its atStep the row does not apply (replay of earlier steps is unchanged).
    assert.deepEqual(compactView(steps, [r], 5, [], opts).steps[0], steps[0]);
  });

  test('a REVISE after a summary supersedes it: the covered steps show again', () => {
    const r: CompactionRecord = { version: 1, stage: 3, fromStep: 0, toStep: 3, atStep: 4, text: '[summary of steps 1–4] …' };
    assert.equal(supersededAt(r, [5]), 6);
    assert.equal(compactView(steps, [r], 5, [5], opts).summaries.length, 1, 'still in force while the correction is fresh');
    const later = compactView(steps, [r], 6, [5], opts);
    assert.equal(later.summaries.length, 0);
    assert.equal(later.steps.length, 6);
    assert.equal(supersededAt(r, [2]), null, 'a correction the summary already saw does not supersede it');
  });
});

describe('tool sets by phase (pure)', () => {
  const def = (name: string, domain: string) => ({ name, domain }) as unknown as ToolDef;
  const all = [def('add_note', 'core'), def('read_result', 'core'), def('generate_image', 'image'), def('generate_video', 'video'), def('create_document', 'documents')];
  test('core always; domains from open checklist kinds and the task words', () => {
    assert.deepEqual(phaseDomains({ title: 'Autumn poster', goal: '' }, null), ['image']);
    assert.deepEqual(visibleTools(all, ['image']), ['add_note', 'read_result', 'generate_image']);
    assert.deepEqual(visibleTools(all, []), all.map((t) => t.name), 'unknown phase: everything');
    const cl = { version: 1, items: [{ kind: 'VIDEO', status: 'TODO' }, { kind: 'DOCUMENT', status: 'DONE' }] } as never;
    assert.deepEqual(phaseDomains({ title: 'x', goal: '' }, cl), ['video']);
  });
  test('within a segment the set stays; it changes at a compaction or when the plan needs a missing domain', () => {
    const prev = ['add_note', 'read_result', 'generate_image', 'generate_video'];
    // The phase narrowed (video done), no boundary: keep the cached prefix.
    assert.deepEqual(chooseToolSet({ all, previous: prev, compacted: false, domains: ['image'] }), { tools: prev, boundary: false, reason: 'same segment' });
    // At a compaction the set follows the phase.
    assert.deepEqual(chooseToolSet({ all, previous: prev, compacted: true, domains: ['image'] }).tools, ['add_note', 'read_result', 'generate_image']);
    // The plan needs a domain the segment lacks: a boundary.
    const d = chooseToolSet({ all, previous: prev, compacted: false, domains: ['documents'] });
    assert.equal(d.boundary, true);
    assert.match(d.reason, /create_document/);
  });
});

describe('routing rule and prices (pure)', () => {
  test('small model for routine work, the larger one on uncertainty or high stakes', () => {
    assert.equal(routeModelCall({ purpose: 'summary' }).role, 'router');
    assert.equal(routeModelCall({ purpose: 'routing' }).role, 'router');
    assert.equal(routeModelCall({ purpose: 'worker-step' }).role, 'router');
    assert.deepEqual(routeModelCall({ purpose: 'worker-step', planning: true }), { role: 'worker', reason: 'planning' });
    assert.equal(routeModelCall({ purpose: 'worker-step', paidActionPending: true }).role, 'worker');
    assert.equal(routeModelCall({ purpose: 'worker-step', lastCallFailed: true }).role, 'worker');
    assert.equal(routeModelCall({ purpose: 'worker-step', userRevise: true }).reason, 'a user correction (REVISE)');
  });
  test('cost: cached input at the cached rate', () => {
    const u = usageOf({ input_tokens: 1_000_000, output_tokens: 100_000, input_token_details: { cache_read: 800_000 } });
    assert.deepEqual(u, { inputTokens: 1_000_000, outputTokens: 100_000, cachedTokens: 800_000 });
    const p = priceOf({ m: { inputPerMTok: 100, cachedInputPerMTok: 10, outputPerMTok: 400 } }, 'm', 'worker');
    assert.equal(callCostCents(u, p), 200_000 * 100 / 1e6 + 800_000 * 10 / 1e6 + 100_000 * 400 / 1e6);
  });
  test('sanitized parameters keep structure, never text', () => {
    const s = JSON.stringify(sanitizeParams({ text: 'Anna Müller, Bahnhofstrasse 5', count: 3 }));
    assert.doesNotMatch(s, /Anna|Bahnhof/);
    assert.match(s, /"count":3/);
  });
});

describe('in the runtime (database)', () => {
  let t: TestApp;
  let viewer: Viewer;
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  const SECRET = 'Anna Müller lives at Bahnhofstrasse 5';
  const ORIGINAL = `${SECRET}. ${'reference material '.repeat(300)}`;
  // A video-domain tool: hidden for a poster task, yet it runs when named (visibility ≠ authorisation).
  const fetchRef = defineTool({
    name: 'fetch_reference',
    domain: 'video',
    description: 'Fetch a long reference text.',
    // The right the agent policy requires for it (a tool that is not built in declares its own).
    scope: 'objects:read',
    input: z.object({ query: z.string() }),
    output: z.object({ text: z.string() }),
    safety: 'READ_ONLY',
    async run() {
      return { text: ORIGINAL };
    },
  });
  const model = new ScriptedChatModel(({ call }) => {
    if (call < 8) return { content: `fetching ${call}`, toolCalls: [{ name: 'fetch_reference', args: { query: SECRET } }] };
    if (call === 8) return { content: 'reading back', toolCalls: [{ name: 'read_result', args: { callId: 'FIRST', offset: 0, limit: 6000 } }] };
    return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'references gathered' } }] };
  });

  before(async () => {
    t = await startTestApp(
      'context9',
      {
        runtime: {
          leaseMs: 10_000, watchdogMs: 100, staleQueuedMs: 300, workerConcurrency: 1, maxStepsPerTurn: 30, maxTurnsPerTask: 5, plugin: undefined,
          context: { compactAtChars: 8000, keepRecentSteps: 2, largeResultChars: 1500 },
          prices: { 'atelier-scripted': { inputPerMTok: 100, cachedInputPerMTok: 10, outputPerMTok: 400 } },
        },
      },
      { models: scriptedProvider(model), tools: [fetchRef] },
    );
    viewer = { userId: t.a.ownerId, credentialId: 'test', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
    setTracer(fromOtel(provider.getTracer('test'), otelApi));
  });
  after(async () => {
    setTracer(null);
    await t?.close();
  });

  test('compaction, read_result by reference, hidden tool still runs, replay, cost, spans', async () => {
    const created = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'Autumn poster research' });
    const turn = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: created.id } });
    // read_result names the first fetch by its journal id.
    const r = await runTurnWithFirstId(t, turn.id, created.id);
    assert.equal(r, 'completed');
    const steps = await t.app.deps.prisma.step.findMany({ where: { taskId: created.id }, orderBy: { index: 'asc' }, include: { toolCalls: true } });
    // Hidden, yet run through the registry and the server's checks.
    assert.ok(!(steps[0]!.request as { tools: string[] }).tools.includes('fetch_reference'));
    assert.equal(steps[0]!.toolCalls[0]!.status, 'DONE');
    // Stage 1 happened first and later requests carry the reference instead of the text.
    const rows = await t.app.deps.prisma.contextSummary.findMany({ where: { taskId: created.id }, orderBy: { version: 'asc' } });
    assert.ok(rows.length >= 1);
    assert.equal(rows[0]!.stage, 1);
    const lastReq = JSON.stringify(steps.at(-1)!.request);
    assert.match(lastReq, /\\"elided\\":true/);
    // Reversible: read_result returned the original.
    const read = steps.flatMap((s) => s.toolCalls).find((c) => c.name === 'read_result')!;
    assert.equal(read.status, 'DONE');
    const out = read.result as { text: string; totalChars: number };
    assert.equal(out.totalChars, JSON.stringify({ text: ORIGINAL }).length);
    assert.ok(out.text.includes(SECRET));
    // Routing recorded per call; cost per call and rolled up.
    const routing = steps.map((s) => (s.routing as { role: string; reason: string }).reason);
    assert.equal(routing[0], 'planning');
    assert.ok(steps.every((s) => (s.costCents ?? 0) > 0));
    const cost = await taskCost(t.app.deps.prisma, created.id);
    assert.equal(cost.modelCalls, steps.length);
    assert.ok(Math.abs(cost.modelCents - steps.reduce((n, s) => n + (s.costCents ?? 0), 0)) < 1e-9);
    // …and in the API.
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.a.ownerToken}` },
      body: JSON.stringify({
        query: 'query($id: ID!, $ws: ID!) { node(id: $id) { ... on Task { cost { modelCents generationCents totalCents modelCalls inputTokens } } } ws: node(id: $ws) { ... on Workspace { costSummary { modelCalls totalCents completedTasks centsPerCompletedTask } } } }',
        variables: { id: toGlobalId('Task', created.id), ws: toGlobalId('Workspace', t.a.workspaceId) },
      }),
    });
    const body = (await res.json()) as { data: { node: { cost: { modelCalls: number; totalCents: number } }; ws: { costSummary: { modelCalls: number; completedTasks: number; centsPerCompletedTask: number } } }; errors?: unknown };
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    assert.equal(body.data.node.cost.modelCalls, steps.length);
    assert.ok(Math.abs(body.data.node.cost.totalCents - cost.totalCents) < 1e-9);
    assert.equal(body.data.ws.costSummary.completedTasks, 1);
    assert.ok(Math.abs(body.data.ws.costSummary.centsPerCompletedTask - cost.totalCents) < 1e-9);
    const modelCall = await t.app.deps.prisma.taskEvent.findFirstOrThrow({ where: { taskId: created.id, type: 'MODEL_CALL' } });
    assert.equal((modelCall.payload as { routing: { role: string } }).routing.role, 'worker');
    // Replay rebuilds every request, compaction included.
    const rep = await replayTask(t.app.deps.prisma, created.id);
    assert.equal(rep.divergence, null, JSON.stringify(rep.divergence));
    // Spans: the right names and attributes, no raw personal text.
    const spans = exporter.getFinishedSpans();
    const names = new Set(spans.map((s) => s.name));
    for (const n of ['model.call', 'tool.call', 'model.route', 'context.compaction']) assert.ok(names.has(n), `span ${n}`);
    const mc = spans.find((s) => s.name === 'model.call')!;
    for (const k of ['atelier.task', 'atelier.step', 'atelier.model', 'atelier.routing.role', 'atelier.tokens.input', 'atelier.latency_ms']) assert.ok(k in mc.attributes, k);
    const tc = spans.find((s) => s.name === 'tool.call' && s.attributes['atelier.tool'] === 'fetch_reference')!;
    assert.equal(tc.attributes['atelier.policy.decision'], 'allowed');
    assert.ok(String(tc.attributes['atelier.params']).includes('sha256:'));
    assert.doesNotMatch(JSON.stringify(spans.map((s) => s.attributes)), /Anna|Bahnhof/);
  });
});

/** Runs the turn; the scripted read_result call names the task's first call by its journal id. */
async function runTurnWithFirstId(t: TestApp, turnId: string, taskId: string): Promise<string> {
  const prisma = t.app.deps.prisma;
  const rt = t.app.deps.runtime;
  const orig = rt.tools.get('read_result')!;
  const patched = { ...orig, async run(input: { callId: string; offset: number; limit: number }, ctx: Parameters<ToolDef['run']>[1]) {
    const first = await prisma.toolCall.findFirstOrThrow({ where: { taskId, stepIndex: 0 } });
    return orig.run({ ...input, callId: input.callId === 'FIRST' ? first.id : input.callId } as never, ctx);
  } } as ToolDef;
  (rt.tools as unknown as { tools: Map<string, ToolDef> }).tools.set('read_result', patched);
  try {
    return (await runTurn(rt, turnId, { workerId: 'w' })).outcome;
  } finally {
    (rt.tools as unknown as { tools: Map<string, ToolDef> }).tools.set('read_result', orig);
  }
}
