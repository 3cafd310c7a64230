// Agent principals end to end, on a per-file database: the API (owners manage, members read,
// sub-agents strictly narrower, stale versions refused), and the runtime acting as the principal —
// a refused tool is a result the model reads and an event people see while the run goes on, every
// attempt is recorded with the principal, its right and sanitised parameters, every AGENT event
// carries principal and run, repeated refusals and unknown outcomes of tools that need a person
// raise a card, and the run's credential is minted, handed to tools and dies with the run.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SystemMessage, ToolMessage } from '@langchain/core/messages';
import { decodeJwt } from 'jose';
import { z } from 'zod';
import { createToken } from '../server/auth/create-token.ts';
import type { Viewer } from '../server/auth/viewer.ts';
import { BUILTIN_SCOPES, DEFAULT_CEILING } from '../server/domain/agent-policy.ts';
import { runTurn, TOOLS_AUDIENCE } from '../server/runtime/engine.ts';
import { verifyRunCredential, type RunCredential } from '../server/runtime/run-credentials.ts';
import { setTracer, type Attrs } from '../server/runtime/telemetry.ts';
import { defineTool } from '../server/runtime/tools/types.ts';
import { updateAgentPrincipal } from '../server/services/agents/change-agents.ts';
import { resolveApproval } from '../server/services/approvals/resolve-approval.ts';
import { ensureMainPrincipal } from '../server/store/agents/principals.ts';
import { CREDENTIAL_META_KEY, IDEMPOTENCY_META_KEY } from '../server/runtime/mcp/bus.ts';
import type { WorkerMemory } from '../server/runtime/memory.ts';
import { registerMcpServer } from '../server/services/mcp/register-server.ts';
import { milestone } from '../web/lib/timeline.ts';
import { startMcpTestServer, type McpTestServer } from './fixtures/mcp-test-server.ts';
import { toGlobalId } from './helpers/clients.ts';
import { eventually } from './helpers/produce.ts';
import { gate, harness, leaseExpired, newTask, TEST_TOOLS, tools, type Harness } from './helpers/runtime-harness.ts';

// ---- tools of this file ----

/** What the `whoami` tool saw of its run: the principal and the credential. */
const seen: { principal?: unknown; credential?: RunCredential; verified?: RunCredential; error?: string } = {};
const whoami = defineTool({
  name: 'whoami',
  domain: 'core',
  description: 'Tells who the agent is.',
  scope: 'tasks:write',
  input: z.object({}),
  output: z.object({ ok: z.boolean() }),
  safety: 'READ_ONLY',
  async run(_input, ctx) {
    seen.principal = ctx.principal;
    seen.credential = ctx.credential;
    // Verified while the run holds its turn: the credential is good now.
    try {
      seen.verified = await verifyRunCredential({ prisma: ctx.uow.prisma }, ctx.credential!.token, { audience: TOOLS_AUDIENCE });
    } catch (e) {
      seen.error = String(e);
    }
    return { ok: true };
  },
});

const wire = { gate: null as ReturnType<typeof gate> | null, runs: 0 };
/** Sends money somewhere outside: must never run twice, and only a person can check an unknown outcome. */
const wireMoney = defineTool({
  name: 'wire_money',
  domain: 'core',
  description: 'Wires money.',
  scope: 'jobs:order',
  needsPerson: true,
  input: z.object({ cents: z.number().int() }),
  output: z.object({ sent: z.boolean() }),
  safety: 'AT_MOST_ONCE',
  async run() {
    wire.runs++;
    if (wire.gate) await wire.gate.opened;
    return { sent: true };
  },
});

/** A plugin-like tool that declares no scope: never run. */
const unscoped = defineTool({
  name: 'unscoped_tool',
  domain: 'core',
  description: 'Has no declared scope.',
  input: z.object({}),
  output: z.object({ ran: z.boolean() }),
  safety: 'IDEMPOTENT',
  async run() {
    throw new Error('an unscoped tool ran');
  },
});

let h: Harness;
let script: (ctx: { messages: unknown[]; call: number }) => { content: string; toolCalls?: { name: string; args: Record<string, unknown> }[] } = () => ({ content: 'nothing' });
let owner: Viewer;
let memberToken: string;

before(async () => {
  h = await harness('agent-principals', (ctx) => script(ctx), [...TEST_TOOLS, whoami, wireMoney, unscoped]);
  owner = { ...h.viewer, principal: 'HUMAN' };
  const member = await h.t.app.deps.prisma.user.create({ data: { email: 'member-agents@example.test', name: 'Member' } });
  await h.t.app.deps.prisma.membership.create({ data: { workspaceId: h.t.a.workspaceId, userId: member.id, role: 'MEMBER' } });
  memberToken = (await createToken(h.t.app.deps.prisma, { workspaceId: h.t.a.workspaceId, userId: member.id, name: 'member', scopes: ['READ', 'WRITE'] })).token;
});
after(async () => {
  await h.t.close();
});

type Res = { data?: Record<string, any> | null; errors?: { message: string; extensions?: { code?: string } }[] };
async function post(query: string, variables: Record<string, unknown>, token = h.t.a.ownerToken): Promise<Res> {
  const r = await fetch(`${h.t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return (await r.json()) as Res;
}
const code = (r: Res) => r.errors?.[0]?.extensions?.code;

const AGENTS = `query($id: ID!) { workspace(id: $id) { agents { id name version isMain scopes parent { id } history { version change actorKind actor { id } } } } }`;
const CREATE = `mutation($i: CreateAgentPrincipalInput!) { createAgentPrincipal(input: $i) { agent { id name version scopes parent { id name } } } }`;
const UPDATE = `mutation($i: UpdateAgentPrincipalInput!) { updateAgentPrincipal(input: $i) { agent { id name version scopes history { version change actorKind } } } }`;
const wsA = () => toGlobalId('Workspace', h.t.a.workspaceId);

/** Sets the main agent's ceiling (as an owner would), returns its new version. */
async function setMainCeiling(scopes: readonly string[]): Promise<number> {
  const main = await ensureMainPrincipal(h.t.app.deps.prisma, h.t.a.workspaceId);
  if ([...main.scopes].sort().join() === [...scopes].sort().join()) return main.version;
  // Sub-agents created by the API tests would block narrowing: they are removed first.
  await h.t.app.deps.prisma.agentPrincipal.deleteMany({ where: { workspaceId: h.t.a.workspaceId, NOT: { parentId: null } } });
  const p = await updateAgentPrincipal(h.t.app.deps, owner, { principalId: main.id, baseVersion: main.version, scopes: [...scopes] });
  return p.version;
}

async function events(taskId: string, type?: string) {
  return h.t.app.deps.prisma.taskEvent.findMany({ where: { taskId, ...(type ? { type } : {}) }, orderBy: { seq: 'asc' } });
}

describe('the API: owners manage agent principals, members read them', () => {
  test('the main agent exists for every workspace, created on first read with the default ceiling and a history row', async () => {
    const [a1, a2] = await Promise.all([post(AGENTS, { id: wsA() }), post(AGENTS, { id: wsA() }, h.t.a.viewerToken)]);
    assert.equal(a1.errors, undefined);
    assert.deepEqual(a2.data, a1.data, 'a viewer reads the same list');
    const agents = a1.data!.workspace.agents;
    assert.equal(agents.length, 1);
    assert.equal(agents[0].name, 'Atelier');
    assert.equal(agents[0].isMain, true);
    assert.equal(agents[0].parent, null);
    assert.equal(agents[0].version, 1);
    assert.deepEqual([...agents[0].scopes].sort(), [...DEFAULT_CEILING].sort());
    assert.deepEqual(agents[0].history.map((c: { actorKind: string; version: number }) => [c.version, c.actorKind]), [[1, 'SYSTEM']]);
    // Created once whoever asks at the same time (the lazy creation is ON CONFLICT).
    const many = await Promise.all(Array.from({ length: 8 }, () => ensureMainPrincipal(h.t.app.deps.prisma, h.t.b.workspaceId)));
    assert.equal(new Set(many.map((p) => p.id)).size, 1);
    assert.equal(await h.t.app.deps.prisma.agentPrincipal.count({ where: { workspaceId: h.t.b.workspaceId } }), 1);
    assert.equal(await h.t.app.deps.prisma.agentPrincipalVersion.count({ where: { workspaceId: h.t.b.workspaceId } }), 1);
  });

  test("a sub-agent's ceiling must be a strict subset of its parent's; owners only; names unique", async () => {
    const narrow = await post(CREATE, { i: { workspaceId: wsA(), name: 'Researcher', scopes: ['objects:read', 'tasks:write', 'mcp:docs:search'] } });
    assert.equal(narrow.errors, undefined, JSON.stringify(narrow.errors));
    const r = narrow.data!.createAgentPrincipal.agent;
    assert.equal(r.parent.name, 'Atelier');
    assert.deepEqual(r.scopes, ['mcp:docs:search', 'objects:read', 'tasks:write']);

    const same = await post(CREATE, { i: { workspaceId: wsA(), parentId: r.id, name: 'Copy', scopes: ['objects:read', 'tasks:write', 'mcp:docs:search'] } });
    assert.equal(code(same), 'BAD_USER_INPUT');
    assert.match(same.errors![0]!.message, /must hold less than its parent "Researcher"/);
    const wider = await post(CREATE, { i: { workspaceId: wsA(), parentId: r.id, name: 'Spender', scopes: ['tasks:write', 'jobs:order'] } });
    assert.equal(code(wider), 'BAD_USER_INPUT');
    assert.match(wider.errors![0]!.message, /jobs:order is not among its rights/);
    const unknown = await post(CREATE, { i: { workspaceId: wsA(), name: 'Root', scopes: ['admin'] } });
    assert.equal(code(unknown), 'BAD_USER_INPUT');
    assert.match(unknown.errors![0]!.message, /"admin" is not a scope/);
    const dup = await post(CREATE, { i: { workspaceId: wsA(), name: 'Researcher', scopes: ['tasks:write'] } });
    assert.equal(code(dup), 'BAD_USER_INPUT');

    const child = await post(CREATE, { i: { workspaceId: wsA(), parentId: r.id, name: 'Reader', scopes: ['objects:read'] } });
    assert.equal(child.errors, undefined);

    const byMember = await post(CREATE, { i: { workspaceId: wsA(), name: 'Mine', scopes: ['tasks:write'] } }, memberToken);
    assert.equal(code(byMember), 'FORBIDDEN');
    const otherWorkspace = await post(CREATE, { i: { workspaceId: toGlobalId('Workspace', h.t.b.workspaceId), name: 'Spy', scopes: ['tasks:write'] } });
    assert.equal(code(otherWorkspace), 'NOT_FOUND');
    const readOther = await post(UPDATE, { i: { agentId: r.id, baseVersion: 1, name: 'Stolen' } }, h.t.b.ownerToken);
    assert.equal(code(readOther), 'NOT_FOUND', "another workspace's agent does not exist for the caller");
    const count = await h.t.app.deps.prisma.agentPrincipal.count({ where: { workspaceId: h.t.a.workspaceId } });
    assert.equal(count, 3, 'nothing refused was written');
  });

  test('narrowing a parent below a sub-agent is refused (narrow the sub-agent first); stale versions are CONFLICT; every change is in the history', async () => {
    const list = (await post(AGENTS, { id: wsA() })).data!.workspace.agents as { id: string; name: string; version: number; scopes: string[] }[];
    const researcher = list.find((a) => a.name === 'Researcher')!;
    const reader = list.find((a) => a.name === 'Reader')!;
    // Researcher without objects:read would leave Reader (objects:read) outside it.
    const cut = await post(UPDATE, { i: { agentId: researcher.id, baseVersion: researcher.version, scopes: ['tasks:write'] } });
    assert.equal(code(cut), 'BAD_USER_INPUT');
    assert.match(cut.errors![0]!.message, /"Reader" would no longer hold less than this agent; narrow that sub-agent first/);
    // Narrowing to exactly the child's ceiling is refused too: strict subset.
    const equal = await post(UPDATE, { i: { agentId: researcher.id, baseVersion: researcher.version, scopes: ['objects:read'] } });
    assert.equal(code(equal), 'BAD_USER_INPUT');
    // A sub-agent may not be widened to its parent's ceiling.
    const widen = await post(UPDATE, { i: { agentId: reader.id, baseVersion: reader.version, scopes: researcher.scopes } });
    assert.equal(code(widen), 'BAD_USER_INPUT');

    const narrowedChild = await post(UPDATE, { i: { agentId: reader.id, baseVersion: reader.version, scopes: [] } });
    assert.equal(narrowedChild.errors, undefined);
    assert.equal(narrowedChild.data!.updateAgentPrincipal.agent.version, 2);
    const ok = await post(UPDATE, { i: { agentId: researcher.id, baseVersion: researcher.version, scopes: ['tasks:write'], name: 'Scout' } });
    assert.equal(ok.errors, undefined, JSON.stringify(ok.errors));
    const scout = ok.data!.updateAgentPrincipal.agent;
    assert.equal(scout.version, researcher.version + 1);
    assert.deepEqual(scout.scopes, ['tasks:write']);
    assert.match(scout.history[0].change, /name: Scout; ceiling: -mcp:docs:search -objects:read/);
    assert.equal(scout.history[0].actorKind, 'USER');

    const stale = await post(UPDATE, { i: { agentId: researcher.id, baseVersion: researcher.version, name: 'Late' } });
    assert.equal(code(stale), 'CONFLICT');
    assert.match(stale.errors![0]!.message, /now at version 2/);
    const byMember = await post(UPDATE, { i: { agentId: scout.id, baseVersion: scout.version, name: 'Mine' } }, memberToken);
    assert.equal(code(byMember), 'FORBIDDEN');
  });
});

describe('the runtime acts as the principal', () => {
  before(async () => {
    // Everything but spending money: the main agent may not order jobs.
    await setMainCeiling(DEFAULT_CEILING.filter((s) => s !== 'jobs:order'));
  });

  test('a refused tool is a result the model reads and an event people see; the run goes on and nothing ran', async () => {
    script = ({ messages }) => {
      const refused = messages.find((m) => m instanceof ToolMessage && String(m.content).includes('Not allowed'));
      if (refused) return { content: 'I may not charge; noting it.', toolCalls: [{ name: 'complete_task', args: { summary: 'could not charge: not allowed' } }] };
      return { content: 'Charging.', toolCalls: [{ name: 'charge', args: { cents: 500 } }] };
    };
    const c0 = tools.charges;
    const { task, turnId } = await newTask(h, 'refused');
    const r = await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' });
    assert.equal(r.outcome, 'completed', 'the run went on after the refusal');
    assert.equal(tools.charges, c0, 'the refused tool never ran');
    const call = await h.t.app.deps.prisma.toolCall.findFirstOrThrow({ where: { taskId: task.id, name: 'charge' } });
    assert.equal(call.status, 'FAILED');
    assert.match(call.error!, /^Not allowed: The tool "charge" needs the right "jobs:order", which this agent was not given by the workspace's owners\. \(rule scope-not-granted\)$/);
    const seenByModel = h.model.received.at(-1)!.find((m) => m instanceof ToolMessage);
    assert.match(String(seenByModel?.content), /Not allowed: .*jobs:order/);

    const denied = await events(task.id, 'TOOL_CALL_DENIED');
    assert.equal(denied.length, 1);
    const main = await ensureMainPrincipal(h.t.app.deps.prisma, h.t.a.workspaceId);
    const p = denied[0]!.payload as Record<string, any>;
    assert.equal(p.callId, call.id);
    assert.equal(p.tool, 'charge');
    assert.deepEqual(p.decision, { allowed: false, rule: 'scope-not-granted', scope: 'jobs:order', reason: p.reason });
    assert.deepEqual(p.principal, { agentId: main.id, version: main.version });
    assert.equal(p.run, `${turnId}:1`);
    assert.deepEqual(p.params, { cents: 500 });
    assert.equal(p.denials, 1);
    assert.equal((await events(task.id, 'TOOL_CALL_STARTED')).filter((e) => (e.payload as { tool: string }).tool === 'charge').length, 0, 'a refused call never started');
    assert.equal((await events(task.id, 'APPROVAL_REQUESTED')).length, 0, 'one refusal only informs the model');

    // People see it: a milestone with typed fields.
    const q = await post(
      `query($id: ID!) { task(id: $id) { events(first: 100) { edges { node { type visibility actor { kind run agent { id name version } } ... on ToolCallDeniedEvent { tool rule scope reason allowed denials } } } } } }`,
      { id: toGlobalId('Task', task.id) },
    );
    assert.equal(q.errors, undefined, JSON.stringify(q.errors));
    const node = q.data!.task.events.edges.map((e: { node: any }) => e.node).find((n: { type: string }) => n.type === 'TOOL_CALL_DENIED');
    assert.equal(node.visibility, 'MILESTONE');
    assert.deepEqual({ ...node, reason: undefined }, {
      type: 'TOOL_CALL_DENIED',
      visibility: 'MILESTONE',
      actor: { kind: 'AGENT', run: toGlobalId('Run', `${turnId}:1`), agent: { id: toGlobalId('AgentPrincipal', main.id), name: 'Atelier', version: main.version } },
      tool: 'charge',
      rule: 'scope-not-granted',
      scope: 'jobs:order',
      reason: undefined,
      allowed: false,
      denials: 1,
    });
  });

  test('a tool that declares no scope is never run, whatever the ceiling', async () => {
    script = ({ messages }) =>
      messages.some((m) => m instanceof ToolMessage)
        ? { content: 'ok', toolCalls: [{ name: 'complete_task', args: { summary: 'done' } }] }
        : { content: 'x', toolCalls: [{ name: 'unscoped_tool', args: {} }] };
    const { task, turnId } = await newTask(h, 'unscoped');
    assert.equal((await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' })).outcome, 'completed');
    const call = await h.t.app.deps.prisma.toolCall.findFirstOrThrow({ where: { taskId: task.id, name: 'unscoped_tool' } });
    assert.equal(call.status, 'FAILED');
    assert.match(call.error!, /declares no scope.*rule no-scope-declared/);
  });

  test('every attempt is recorded before its effect: principal, run, decision and sanitised parameters; spans carry the principal', async () => {
    const spans: { name: string; attrs: Attrs }[] = [];
    const prev = setTracer({
      start(name, attrs) {
        const s = { name, attrs: { ...attrs } };
        spans.push(s);
        return { set: (a) => Object.assign(s.attrs, a), end() {} };
      },
    });
    try {
      script = ({ call }) =>
        call % 2 === 0
          ? { content: 'Writing.', toolCalls: [{ name: 'slow_write', args: { value: 'the client is Ada Lovelace' } }] }
          : { content: 'Done.', toolCalls: [{ name: 'complete_task', args: { summary: 'written' } }] };
      const { task, turnId } = await newTask(h, 'attempts');
      assert.equal((await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' })).outcome, 'completed');
      const main = await ensureMainPrincipal(h.t.app.deps.prisma, h.t.a.workspaceId);
      const started = (await events(task.id, 'TOOL_CALL_STARTED')).map((e) => e.payload as Record<string, any>);
      const write = started.find((p) => p.tool === 'slow_write')!;
      assert.deepEqual(write.principal, { agentId: main.id, version: main.version });
      assert.equal(write.run, `${turnId}:1`);
      assert.deepEqual(write.decision, { allowed: true, rule: 'declared-scope', scope: 'tasks:write' });
      assert.match(write.params.value, /^sha256:[0-9a-f]{16}\/26$/, 'text is kept as a hash and a length');
      assert.ok(!JSON.stringify(started).includes('Lovelace'), 'no personal text in the audit record');
      assert.deepEqual(started.find((p) => p.tool === 'complete_task')!.decision, { allowed: true, rule: 'tool-scope', scope: 'tasks:write' });

      const span = spans.find((s) => s.name === 'tool.call' && s.attrs['atelier.tool'] === 'slow_write')!;
      assert.equal(span.attrs['agent.id'], main.id);
      assert.equal(span.attrs['agent.version'], main.version);
      assert.equal(span.attrs['atelier.policy.decision'], 'allowed');
      assert.equal(span.attrs['atelier.policy.rule'], 'declared-scope');
    } finally {
      setTracer(prev);
    }
  });

  test('every event the agent writes carries its principal, version and run (tools\' own events included)', async () => {
    script = ({ call }) =>
      call % 2 === 0
        ? { content: 'Noting.', toolCalls: [{ name: 'add_note', args: { text: 'a note' } }] }
        : { content: 'Done.', toolCalls: [{ name: 'complete_task', args: { summary: 'noted' } }] };
    const { task, turnId } = await newTask(h, 'actors');
    assert.equal((await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' })).outcome, 'completed');
    const main = await ensureMainPrincipal(h.t.app.deps.prisma, h.t.a.workspaceId);
    const agentEvents = (await events(task.id)).filter((e) => e.actorKind === 'AGENT');
    assert.ok(agentEvents.length >= 6, `the agent wrote ${agentEvents.length} events`);
    assert.ok(agentEvents.some((e) => e.type === 'NOTE'), "a tool's own event is among them");
    for (const e of agentEvents) {
      assert.deepEqual([e.type, e.actorId, e.actorVersion, e.actorRun], [e.type, main.id, main.version, `${turnId}:1`]);
    }
    const others = (await events(task.id)).filter((e) => e.actorKind !== 'AGENT');
    assert.ok(others.every((e) => e.actorVersion === null && e.actorRun === null), 'only the agent carries a run');
  });

  test('the same tool refused twice raises a card to a person; the task waits; the answer reaches the agent', async () => {
    script = ({ messages }) => {
      const inbox = messages.some((m) => String((m as { content?: unknown }).content).includes('order it myself'));
      if (inbox) return { content: 'Understood.', toolCalls: [{ name: 'complete_task', args: { summary: 'left the charge to the person' } }] };
      return { content: 'Charging (again).', toolCalls: [{ name: 'charge', args: { cents: 100 } }] };
    };
    const { task, turnId } = await newTask(h, 'escalate');
    const r = await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' });
    assert.equal(r.outcome, 'suspended', 'the second refusal stopped the turn for a person');
    const denied = await events(task.id, 'TOOL_CALL_DENIED');
    assert.deepEqual(denied.map((e) => (e.payload as { denials: number }).denials), [1, 2]);
    const cards = await h.t.app.deps.prisma.approval.findMany({ where: { taskId: task.id } });
    assert.equal(cards.length, 1);
    const card = cards[0]!;
    assert.equal(card.kind, 'CHECKPOINT');
    assert.equal(card.status, 'PENDING');
    const action = card.action as Record<string, any>;
    assert.equal(action.type, 'AGENT_ESCALATION');
    assert.equal(action.escalation, 'escalate');
    assert.equal(action.trigger, 'repeated-denial');
    assert.equal(action.tool, 'charge');
    assert.equal(action.scope, 'jobs:order');
    assert.match(card.title, /The agent tried “charge” again after it was refused: it needs the right “jobs:order”/);
    assert.equal((await h.t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'WAITING');
    const requested = (await events(task.id, 'APPROVAL_REQUESTED'))[0]!;
    assert.equal(requested.actorKind, 'AGENT');
    assert.equal(requested.actorRun, `${turnId}:1`);

    await resolveApproval(h.t.app.deps, owner, { approvalId: card.id, decision: 'APPROVE', idempotencyKey: 'esc-1', note: 'Leave it, I will order it myself' });
    const next = await h.t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId: task.id, status: 'QUEUED' } });
    assert.equal((await runTurn(h.t.app.deps.runtime, next.id, { workerId: 'w' })).outcome, 'completed');
    assert.equal((await h.t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'COMPLETED');
  });

  test('an unknown outcome of a tool that needs a person raises a verify card instead of only telling the model', async () => {
    // wire_money needs jobs:order: give it back for this test.
    await setMainCeiling(DEFAULT_CEILING);
    script = () => ({ content: 'Wiring.', toolCalls: [{ name: 'wire_money', args: { cents: 900 } }] });
    const r0 = wire.runs;
    wire.gate = gate();
    const g = wire.gate;
    const { task, turnId } = await newTask(h, 'unknown');
    const w1 = runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w1', renew: false });
    await eventually(async () => wire.runs - r0 === 1, 'wire started');
    await leaseExpired(h, turnId);
    wire.gate = null;
    const calls0 = h.model.calls;
    const w2 = await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w2' });
    assert.equal(w2.outcome, 'suspended');
    g.open();
    assert.equal((await w1).outcome, 'lease-lost');
    assert.equal(wire.runs - r0, 1, 'never sent twice');
    assert.equal(h.model.calls, calls0, 'a person is asked before the model');
    const call = await h.t.app.deps.prisma.toolCall.findFirstOrThrow({ where: { taskId: task.id, name: 'wire_money' } });
    assert.equal(call.status, 'OUTCOME_UNKNOWN');
    const card = await h.t.app.deps.prisma.approval.findFirstOrThrow({ where: { taskId: task.id } });
    assert.equal((card.action as { escalation: string }).escalation, 'verify');
    assert.equal((card.action as { trigger: string }).trigger, 'outcome-unknown');
    assert.match(card.title, /cannot tell whether “wire_money” took effect/);
    assert.equal((await h.t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status, 'WAITING');
    // The unknown outcome and its card were written together.
    const types = (await events(task.id)).map((e) => e.type);
    assert.equal(types[types.indexOf('TOOL_CALL_OUTCOME_UNKNOWN') + 1], 'APPROVAL_REQUESTED');
  });

  test('the run has its own credential: minted at claim for the run, with the effective scopes, handed to tools, dead with the run', async () => {
    await setMainCeiling(DEFAULT_CEILING.filter((s) => s !== 'jobs:order'));
    script = ({ call }) =>
      call % 2 === 0 ? { content: 'Who am I?', toolCalls: [{ name: 'whoami', args: {} }] } : { content: 'Done.', toolCalls: [{ name: 'complete_task', args: { summary: 'known' } }] };
    const { task, turnId } = await newTask(h, 'credential');
    const before = Date.now();
    assert.equal((await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' })).outcome, 'completed');
    const main = await ensureMainPrincipal(h.t.app.deps.prisma, h.t.a.workspaceId);
    assert.deepEqual(seen.principal, { id: main.id, name: 'Atelier', version: main.version });
    assert.equal(seen.error, undefined);
    const c = seen.verified!;
    assert.equal(c.principal.id, main.id);
    assert.equal(c.principal.version, main.version);
    assert.equal(c.taskId, task.id);
    assert.equal(c.turnId, turnId);
    assert.equal(c.generation, 1);
    assert.equal(c.audience, TOOLS_AUDIENCE);
    assert.ok(c.expiresAt.getTime() <= before + 10 * 60_000 + 1000, 'at most 10 minutes');
    // Ceiling ∩ what the task's tools need: no jobs:order (not granted), nothing the tools do not need.
    assert.ok(c.scopes.includes('tasks:write') && c.scopes.includes('objects:write'));
    assert.ok(!c.scopes.includes('jobs:order'));
    assert.ok(!c.scopes.includes('mcp:*') && !c.scopes.includes('memory:write'), 'only what the tools need');
    assert.ok(c.scopes.every((s) => (BUILTIN_SCOPES as readonly string[]).includes(s)));
    // The run is over: its credential is refused.
    await assert.rejects(verifyRunCredential({ prisma: h.t.app.deps.prisma }, seen.credential!.token, { audience: TOOLS_AUDIENCE }), (e: { code?: string }) => e.code === 'CREDENTIAL_REVOKED');
  });

  test("reading long-term memory is a service call the policy decides: without memory:read the step gets no memory section", async () => {
    const rt = h.t.app.deps.runtime;
    const real = rt.memory;
    const fake: WorkerMemory = { contextFor: async () => ({ section: '[memory] the client likes deep blue', withheldStepIds: [], withheldInboxIds: [] }) };
    rt.memory = fake;
    const sawMemory = () => h.model.received.at(-1)!.some((m) => m instanceof SystemMessage && String(m.content).includes('deep blue'));
    try {
      script = () => ({ content: 'Done.', toolCalls: [{ name: 'complete_task', args: { summary: 'ok' } }] });
      await setMainCeiling(DEFAULT_CEILING);
      assert.equal((await runTurn(rt, (await newTask(h, 'memory allowed')).turnId, { workerId: 'w' })).outcome, 'completed');
      assert.ok(sawMemory(), 'with memory:read the section reaches the model');
      await setMainCeiling(DEFAULT_CEILING.filter((x) => x !== 'memory:read'));
      assert.equal((await runTurn(rt, (await newTask(h, 'memory refused')).turnId, { workerId: 'w' })).outcome, 'completed');
      assert.ok(!sawMemory(), 'without it, no memory section');
    } finally {
      rt.memory = real;
    }
  });

  test("people read a refusal in plain words on the task's timeline", () => {
    const m = milestone({ seq: 7, type: 'TOOL_CALL_DENIED', occurredAt: '2026-12-02T21:00:00Z', redacted: false, actor: { kind: 'AGENT' }, payload: { tool: 'charge', reason: 'The tool "charge" needs the right "jobs:order", which this agent was not given by the workspace\'s owners.' } });
    assert.deepEqual(m, { seq: 7, at: '2026-12-02T21:00:00Z', tone: 'warn', text: 'The agent was not allowed to use “charge” — The tool "charge" needs the right "jobs:order", which this agent was not given by the workspace\'s owners.' });
  });

  describe('tools of a connected app (MCP)', () => {
    let srv: McpTestServer;
    before(async () => {
      srv = await startMcpTestServer();
      await registerMcpServer(h.t.app.deps, owner, { workspaceId: h.t.a.workspaceId, name: 'tst', title: 'Test server', transport: 'HTTP', url: srv.url });
      // The bus keeps the workspace's server list for a moment: read it again now.
      h.t.app.deps.runtime.mcp?.invalidate(h.t.a.workspaceId);
    });
    after(async () => {
      await srv?.close();
    });

    test("an allowed call sends a credential for that server and tool in _meta (never a server secret); a tool outside the ceiling is refused and never reaches the server", async () => {
      // Everything built in, but of the app only its echo tool.
      await setMainCeiling([...BUILTIN_SCOPES, 'mcp:tst:echo']);
      script = ({ messages }) => {
        const results = messages.filter((m) => m instanceof ToolMessage).map((m) => String(m.content));
        if (results.length === 0) return { content: 'echo', toolCalls: [{ name: 'tst__echo', args: { text: 'hello' } }] };
        if (results.length === 1) return { content: 'wipe', toolCalls: [{ name: 'tst__wipe', args: { target: 'everything' } }] };
        return { content: 'Done.', toolCalls: [{ name: 'complete_task', args: { summary: 'echoed, not wiped' } }] };
      };
      const { task, turnId } = await newTask(h, 'mcp');
      assert.equal((await runTurn(h.t.app.deps.runtime, turnId, { workerId: 'w' })).outcome, 'completed');
      const meta = srv.state.metas.echo!.at(-1)!;
      const echo = await h.t.app.deps.prisma.toolCall.findFirstOrThrow({ where: { taskId: task.id, name: 'tst__echo' } });
      assert.equal(meta[IDEMPOTENCY_META_KEY], echo.id);
      const token = meta[CREDENTIAL_META_KEY];
      assert.equal(typeof token, 'string');
      const claims = decodeJwt(token as string);
      const main = await ensureMainPrincipal(h.t.app.deps.prisma, h.t.a.workspaceId);
      assert.equal(claims.sub, `agent:${main.id}`);
      // Minted for this server and this call alone: its address as the audience, exactly the right
      // the call needs, the run's turn (so it is refused with the run), at most 10 minutes.
      const server = await h.t.app.deps.prisma.mcpServer.findFirstOrThrow({ where: { workspaceId: h.t.a.workspaceId, name: 'tst' } });
      assert.equal(claims.aud, server.url);
      assert.notEqual(claims.aud, TOOLS_AUDIENCE);
      assert.equal(claims.turn, turnId);
      assert.equal(claims.scope, 'mcp:tst:echo', 'the credential holds only the right this call needs');
      assert.ok(claims.exp! - claims.iat! <= 600);

      assert.equal(srv.state.runs.wipe ?? 0, 0, 'the refused tool never reached the server');
      const wipe = await h.t.app.deps.prisma.toolCall.findFirstOrThrow({ where: { taskId: task.id, name: 'tst__wipe' } });
      assert.equal(wipe.status, 'FAILED');
      assert.match(wipe.error!, /The tool "wipe" of the app "tst" needs the right "mcp:tst:wipe"/);
      const denied = (await events(task.id, 'TOOL_CALL_DENIED'))[0]!.payload as { decision: { scope: string; rule: string } };
      assert.deepEqual([denied.decision.rule, denied.decision.scope], ['scope-not-granted', 'mcp:tst:wipe']);
      assert.equal((await h.t.app.deps.prisma.approval.count({ where: { taskId: task.id } })), 0, 'no card: the destructive call was refused before it could ask');
    });
  });
});
