// The egress gate end to end: real MCP servers over Streamable HTTP and a real webhook receiver on
// 127.0.0.1, the real API and worker. One app allows internal addresses (as the test apps do) and
// checks the allow-list itself — a registered host works, a revoked one and a redirect elsewhere
// are EGRESS_DENIED with an event; a second app refuses internal addresses, so a registered name
// that now resolves to 127.0.0.1 is refused at connect time, and so is registering 127.0.0.1.
// Owners manage the list through GraphQL; the rules and the sandbox's command line are tested pure.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { Viewer } from '../server/auth/viewer.ts';
import { createToken } from '../server/auth/create-token.ts';
import { appendNow } from '../server/channel/unit-of-work.ts';
import { addressClass, decideDestination, parseEgressEntry } from '../server/domain/egress-policy.ts';
import { EgressGate, deploymentDestinations, providerDownloadFetch } from '../server/runtime/egress/gate.ts';
import { discoverMcpServer } from '../server/runtime/mcp/discover.ts';
import { bwrapCommand, containedCommand, resolveSandbox, which } from '../server/runtime/mcp/sandbox.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel, type ScriptStep } from '../server/runtime/models/scripted-model.ts';
import { registerMcpServer } from '../server/services/mcp/register-server.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { createWebhookEndpoint } from '../server/services/webhooks/manage-endpoints.ts';
import { recordRegisteredHost } from '../server/store/egress/hosts.ts';
import { insertMcpServer } from '../server/store/mcp/servers.ts';
import { startMcpTestServer, type McpTestServer } from './fixtures/mcp-test-server.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { toGlobalId } from './helpers/clients.ts';
import { waitFor } from './helpers/wait.ts';

// ---- the model: calls the tool its task names, then completes with what it read ----

const plans = new Map<string, { name: string; args: Record<string, unknown> }>();
const model = new ScriptedChatModel(({ messages }: { messages: BaseMessage[] }): ScriptStep => {
  const text = messages.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
  const plan = [...plans].find(([marker]) => text.includes(marker))?.[1];
  const results = messages.filter((m): m is ToolMessage => m instanceof ToolMessage);
  if (!plan) return { content: 'nothing to do', toolCalls: [{ name: 'complete_task', args: { summary: 'nothing' } }] };
  if (!results.length) return { content: 'calling', toolCalls: [{ name: plan.name, args: plan.args }] };
  return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: String(results.at(-1)!.content).slice(0, 300) } }] };
});

const runtime = { leaseMs: 1500, watchdogMs: 100, staleQueuedMs: 300, workerConcurrency: 2, maxStepsPerTurn: 8, maxTurnsPerTask: 5, plugin: undefined };

/** A pass-through to the MCP server that can start redirecting elsewhere (a server that moved). */
function startProxy(target: string): Promise<{ url: string; redirectTo: string | null; requests: number; close(): Promise<void> }> {
  const t = new URL(target);
  const state = { url: '', redirectTo: null as string | null, requests: 0, close: async () => {} };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    state.requests++;
    if (state.redirectTo) {
      res.writeHead(307, { location: state.redirectTo }).end();
      return;
    }
    const up = httpRequest({ host: t.hostname, port: t.port, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
      state.close = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
      resolve(state);
    }),
  );
}

/** A webhook receiver that counts what it got. */
function startReceiver(): Promise<{ url: string; got: string[]; close(): Promise<void> }> {
  const state = { url: '', got: [] as string[], close: async () => {} };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      state.got.push(body);
      res.writeHead(204).end();
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`;
      state.close = () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r())));
      resolve(state);
    }),
  );
}

type Gql = { status: number; body: { data?: any; errors?: { message: string; extensions?: Record<string, unknown> }[] } };
async function gql(t: TestApp, token: string, query: string, variables: Record<string, unknown> = {}): Promise<Gql> {
  const r = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  return { status: r.status, body: (await r.json()) as Gql['body'] };
}
const codeOf = (r: Gql) => r.body.errors?.[0]?.extensions?.code;

function ownerViewer(t: TestApp): Viewer {
  return { userId: t.a.ownerId, credentialId: 'test', principal: 'HUMAN', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) } as Viewer;
}

async function runTask(t: TestApp, tool: string, args: Record<string, unknown>) {
  const marker = `egress-${Math.random().toString(36).slice(2, 10)}`;
  plans.set(marker, { name: tool, args });
  const task = await createTask(t.app.deps, ownerViewer(t), { workspaceId: t.a.workspaceId, title: marker });
  await waitFor(async () => (await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.id } })).status === 'COMPLETED', `task ${marker} completed`, { timeoutMs: 30_000 });
  const calls = await t.app.deps.prisma.toolCall.findMany({ where: { taskId: task.id, name: tool } });
  return { taskId: task.id, calls };
}

const denialsOf = async (t: TestApp, taskId: string) =>
  (await t.app.deps.prisma.taskEvent.findMany({ where: { taskId, type: 'EGRESS_DENIED' }, orderBy: { seq: 'asc' } })).map((e) => e.payload as Record<string, unknown>);

const Settings = `query($id: ID!) { workspace(id: $id) { settings { egressHosts { id host port address source note } } } }`;
const Allow = `mutation($i: AllowEgressHostInput!) { allowEgressHost(input: $i) { entry { id host port address source note } } }`;
const Revoke = `mutation($i: RevokeEgressHostInput!) { revokeEgressHost(input: $i) { entry { id address } } }`;
const Register = `mutation($i: RegisterMcpServerInput!) { registerMcpServer(input: $i) { server { id isolated isolation } } }`;

describe('the egress gate with the allow-list (internal addresses allowed)', () => {
  let t: TestApp;
  let mcp: McpTestServer;
  let proxy: Awaited<ReturnType<typeof startProxy>>;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  let memberToken: string;

  before(async () => {
    mcp = await startMcpTestServer();
    proxy = await startProxy(mcp.url);
    rx = await startReceiver();
    t = await startTestApp(
      'egress',
      { runtime, eventPollMs: 250, webhooks: { timeoutMs: 2000, maxAttempts: 1, retryBaseMs: 50, retryMaxMs: 100, secretGraceSeconds: 60, concurrency: 2 } },
      { models: scriptedProvider(model) },
      { worker: { concurrency: 2 } },
    );
    const prisma = t.app.deps.prisma;
    const member = await prisma.user.create({ data: { email: 'member-egress@example.test', name: 'Member' } });
    await prisma.membership.create({ data: { workspaceId: t.a.workspaceId, userId: member.id, role: 'MEMBER' } });
    memberToken = (await createToken(prisma, { workspaceId: t.a.workspaceId, userId: member.id, name: 'member', scopes: ['READ', 'WRITE', 'APPROVE'] })).token;
    await registerMcpServer(t.app.deps, ownerViewer(t), { workspaceId: t.a.workspaceId, name: 'tst', title: 'Test server', transport: 'HTTP', url: mcp.url });
  });
  after(async () => {
    await t?.close();
    await proxy?.close();
    await rx?.close();
    await mcp?.close();
  });

  test('an allowed host works: the registered server is on the list and its tool answers through the gate', async () => {
    const list = await gql(t, t.a.ownerToken, Settings, { id: toGlobalId('Workspace', t.a.workspaceId) });
    const port = Number(new URL(mcp.url).port);
    assert.deepEqual(
      list.body.data.workspace.settings.egressHosts.map((h: any) => [h.host, h.port, h.source, h.note]),
      [['127.0.0.1', port, 'MCP_SERVER', 'MCP server tst']],
    );
    // The registry says how the server is contained.
    const reg = await gql(t, t.a.ownerToken, `query($id: ID!) { workspace(id: $id) { mcpServers { slug isolated isolation } } }`, { id: toGlobalId('Workspace', t.a.workspaceId) });
    assert.deepEqual(reg.body.data.workspace.mcpServers.map((x: any) => [x.slug, x.isolated]), [['tst', true]]);
    assert.match(reg.body.data.workspace.mcpServers[0].isolation, /egress gate/);
    const before = mcp.state.runs.echo ?? 0;
    const { calls, taskId } = await runTask(t, 'tst__echo', { text: 'through the gate' });
    assert.equal(calls[0]?.status, 'DONE');
    assert.equal(mcp.state.runs.echo, before + 1);
    assert.deepEqual(await denialsOf(t, taskId), []);
  });

  test('a server that later redirects to a host that is not allowed: EGRESS_DENIED, a tool error and an event, nothing reaches the other host', async () => {
    await registerMcpServer(t.app.deps, ownerViewer(t), { workspaceId: t.a.workspaceId, name: 'moved', title: 'Moving server', transport: 'HTTP', url: proxy.url });
    // Now the server says it lives elsewhere: a host this workspace never allowed (localhost is
    // another name than 127.0.0.1, and names are what the list holds).
    const elsewhere = mcp.url.replace('127.0.0.1', 'localhost');
    proxy.redirectTo = elsewhere;
    t.app.deps.runtime.mcp!.invalidate();
    const runs = mcp.state.runs.echo ?? 0;
    const { calls, taskId } = await runTask(t, 'moved__echo', { text: 'follow me' });
    assert.equal(calls[0]?.status, 'FAILED');
    assert.match(String(calls[0]?.error), /may not be reached: calls to localhost:\d+ are not allowed/);
    const denials = await denialsOf(t, taskId);
    assert.equal(denials.length, 1);
    assert.deepEqual({ ...denials[0], reason: undefined }, { host: 'localhost', port: Number(new URL(mcp.url).port), rule: 'redirect-not-allowed', reason: undefined, tool: 'moved__echo', server: 'moved' });
    assert.match(String(denials[0]!.reason), /redirected/);
    assert.equal(mcp.state.runs.echo ?? 0, runs, 'the redirect target received no call');
  });

  test('a revoked host is refused from the next call on (webhook: a failed attempt with the reason and an event)', async () => {
    const viewer = ownerViewer(t);
    const { endpoint } = await createWebhookEndpoint(t.app.deps, viewer, { workspaceId: t.a.workspaceId, url: rx.url, eventTypes: ['NOTE'] });
    const ws = toGlobalId('Workspace', t.a.workspaceId);
    const listed = (await gql(t, t.a.ownerToken, Settings, { id: ws })).body.data.workspace.settings.egressHosts as any[];
    const entry = listed.find((h) => h.source === 'WEBHOOK' && h.port === Number(new URL(rx.url).port));
    assert.ok(entry, 'the receiver was recorded on the list');
    // First, allowed: delivered.
    const task = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, createdById: t.a.ownerId, title: 'quiet' } });
    await appendNow(t.app.deps, task.id, [{ type: 'NOTE', actor: { kind: 'SYSTEM' }, payload: { text: 'first' } }]);
    await waitFor(() => rx.got.some((b) => b.includes('first')), 'the first note delivered');
    // The owner revokes the host.
    const revoked = await gql(t, t.a.ownerToken, Revoke, { i: { entryId: entry.id } });
    assert.equal(revoked.body.errors, undefined, JSON.stringify(revoked.body.errors));
    await appendNow(t.app.deps, task.id, [{ type: 'NOTE', actor: { kind: 'SYSTEM' }, payload: { text: 'second' } }]);
    const dead = await waitFor(
      () => t.app.deps.prisma.webhookDelivery.findFirst({ where: { endpointId: endpoint.id, status: 'DEAD' }, include: { attemptLog: true } }),
      'the delivery to the revoked host failed',
    );
    assert.equal(dead.attemptLog.length, 1);
    assert.equal(dead.attemptLog[0]!.statusCode, null);
    assert.match(String(dead.lastError), /refused: 127\.0\.0\.1:\d+ is not on the workspace's list of allowed hosts/);
    assert.ok(!rx.got.some((b) => b.includes('second')), 'nothing reached the receiver');
    const denials = await waitFor(async () => (await denialsOf(t, task.id)).filter((d) => d.webhookEndpointId === endpoint.id), 'the EGRESS_DENIED event');
    assert.equal(denials.length, 1);
    assert.equal(denials[0]!.rule, 'not-listed');
    // Seen through the API like every event, with the endpoint's id.
    const ev = await gql(t, t.a.ownerToken, `query($id: ID!) { node(id: $id) { ... on Task { events(first: 50) { edges { node { type ... on EgressDeniedEvent { host port rule webhookEndpointId } } } } } } }`, { id: toGlobalId('Task', task.id) });
    assert.equal(ev.body.errors, undefined, JSON.stringify(ev.body.errors));
    const shown = ev.body.data.node.events.edges.map((e: any) => e.node).filter((n: any) => n.type === 'EGRESS_DENIED');
    assert.deepEqual(shown, [{ type: 'EGRESS_DENIED', host: '127.0.0.1', port: Number(new URL(rx.url).port), rule: 'not-listed', webhookEndpointId: toGlobalId('WebhookEndpoint', endpoint.id) }]);
  });

  test('the gate itself: the operator\'s provider on 127.0.0.1 works with private egress off, a workspace may not use it; redirects drop credentials across origins', async () => {
    const seen: { path: string; auth: string | undefined }[] = [];
    const a = createServer((req, res) => {
      seen.push({ path: `a${req.url}`, auth: req.headers.authorization });
      if (req.url === '/hop') res.writeHead(307, { location: `http://127.0.0.1:${(b.address() as AddressInfo).port}/landed` }).end();
      else res.writeHead(200, { 'content-type': 'text/plain' }).end('provider ok');
    });
    const b = createServer((req, res) => {
      seen.push({ path: `b${req.url}`, auth: req.headers.authorization });
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => res.writeHead(200).end(`landed ${req.method} ${body}`));
    });
    await Promise.all([a, b].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))));
    const aUrl = `http://127.0.0.1:${(a.address() as AddressInfo).port}`;
    const gate = new EgressGate({ prisma: t.app.deps.prisma, log: t.app.deps.log }, { allowPrivate: false, deployment: deploymentDestinations([`${aUrl}/v1`]) });
    try {
      // The operator configured it: reachable for the deployment, internal address and all.
      assert.equal(await (await gate.fetch(null, `${aUrl}/v1/models`)).text(), 'provider ok');
      // Not for a workspace: its list decides, and the operator's hosts are not on it.
      await assert.rejects(gate.fetch(t.b.workspaceId, `${aUrl}/v1/models`), (e: Error & { code?: string; denial?: { rule: string } }) => e.code === 'EGRESS_DENIED' && e.denial?.rule === 'not-listed');
      // A download a provider points at may be any public host, never an internal one.
      await assert.rejects(providerDownloadFetch(gate)(`http://127.0.0.1:${(b.address() as AddressInfo).port}/img.png`), (e: Error & { denial?: { rule: string } }) => e.denial?.rule === 'private-address');
      // A redirect to another allowed origin is followed; the bearer token stays behind.
      const open = new EgressGate({ prisma: t.app.deps.prisma, log: t.app.deps.log }, { allowPrivate: true });
      try {
        await t.app.deps.prisma.egressHost.createMany({
          data: [a, b].map((s) => ({ workspaceId: t.b.workspaceId, host: '127.0.0.1', port: (s.address() as AddressInfo).port, source: 'OWNER' as const })),
        });
        const r = await open.fetch(t.b.workspaceId, `${aUrl}/hop`, { method: 'POST', body: 'payload', headers: { authorization: 'Bearer secret' } });
        assert.equal(await r.text(), 'landed POST payload');
        assert.deepEqual(seen.slice(-2), [
          { path: 'a/hop', auth: 'Bearer secret' },
          { path: 'b/landed', auth: undefined },
        ]);
        // redirect: 'manual' hands the 3xx back.
        assert.equal((await open.fetch(t.b.workspaceId, `${aUrl}/hop`, { redirect: 'manual' })).status, 307);
      } finally {
        open.close();
      }
    } finally {
      gate.close();
      await Promise.all([a, b].map((s) => new Promise<void>((r) => (s.closeAllConnections(), s.close(() => r())))));
    }
  });

  test('owners manage the list; members and viewers are FORBIDDEN; other workspaces see nothing', async () => {
    const ws = toGlobalId('Workspace', t.a.workspaceId);
    const added = await gql(t, t.a.ownerToken, Allow, { i: { workspaceId: ws, host: 'Tools.EXAMPLE.com:8443', note: 'search tools' } });
    assert.equal(added.body.errors, undefined, JSON.stringify(added.body.errors));
    assert.deepEqual({ ...added.body.data.allowEgressHost.entry, id: undefined }, { id: undefined, host: 'tools.example.com', port: 8443, address: 'tools.example.com:8443', source: 'OWNER', note: 'search tools' });
    // Adding it again returns the same entry.
    const again = await gql(t, t.a.ownerToken, Allow, { i: { workspaceId: ws, host: 'tools.example.com', port: 8443 } });
    assert.equal(again.body.data.allowEgressHost.entry.id, added.body.data.allowEgressHost.entry.id);
    // A bare name means https (443); an internationalised name is kept as punycode.
    const idn = await gql(t, t.a.ownerToken, Allow, { i: { workspaceId: ws, host: 'bücher.example' } });
    assert.equal(idn.body.data.allowEgressHost.entry.address, 'xn--bcher-kva.example:443');

    assert.equal(codeOf(await gql(t, memberToken, Allow, { i: { workspaceId: ws, host: 'evil.example' } })), 'FORBIDDEN');
    assert.equal(codeOf(await gql(t, memberToken, Settings, { id: ws })), 'FORBIDDEN');
    assert.equal(codeOf(await gql(t, t.a.viewerToken, Settings, { id: ws })), 'FORBIDDEN');
    assert.equal(codeOf(await gql(t, memberToken, Revoke, { i: { entryId: added.body.data.allowEgressHost.entry.id } })), 'FORBIDDEN');
    // Another workspace's owner cannot add to this list nor revoke its entries.
    assert.equal(codeOf(await gql(t, t.b.ownerToken, Allow, { i: { workspaceId: ws, host: 'evil.example' } })), 'NOT_FOUND');
    assert.equal(codeOf(await gql(t, t.b.ownerToken, Revoke, { i: { entryId: added.body.data.allowEgressHost.entry.id } })), 'NOT_FOUND');
    assert.equal(await t.app.deps.prisma.egressHost.count({ where: { host: 'evil.example' } }), 0);
    // Revoked by its owner: gone.
    const revoked = await gql(t, t.a.ownerToken, Revoke, { i: { entryId: added.body.data.allowEgressHost.entry.id } });
    assert.equal(revoked.body.data.revokeEgressHost.entry.address, 'tools.example.com:8443');
    assert.equal(codeOf(await gql(t, t.a.ownerToken, Revoke, { i: { entryId: added.body.data.allowEgressHost.entry.id } })), 'NOT_FOUND');
  });

  test('hostile values are BAD_USER_INPUT and write nothing', async () => {
    const ws = toGlobalId('Workspace', t.a.workspaceId);
    const before = await t.app.deps.prisma.egressHost.count({ where: { workspaceId: t.a.workspaceId } });
    const hostile: [string, number | null][] = [
      ['', null],
      ['   ', null],
      ['https://tools.example.com', null],
      ['tools.example.com/path', null],
      ['*.example.com', null],
      ['user@tools.example.com', null],
      ['tools example.com', null],
      ['tools.example.com\n', null],
      ['tools.example.com\u0000', null],
      ['x'.repeat(2000), null],
      ['tools.example.com:0', null],
      ['tools.example.com:99999', null],
      ['tools.example.com', 0],
      ['tools.example.com', 70_000],
      ['tools.example.com:443', 8443],
      ['[::1', null],
      ['-bad-.example', null],
    ];
    for (const [host, port] of hostile) {
      const r = await gql(t, t.a.ownerToken, Allow, { i: { workspaceId: ws, host, ...(port !== null ? { port } : {}) } });
      assert.equal(codeOf(r), 'BAD_USER_INPUT', `${JSON.stringify(host)} ${port}: ${JSON.stringify(r.body)}`);
    }
    const long = await gql(t, t.a.ownerToken, Allow, { i: { workspaceId: ws, host: 'ok.example', note: 'n'.repeat(201) } });
    assert.equal(codeOf(long), 'BAD_USER_INPUT');
    assert.equal(await t.app.deps.prisma.egressHost.count({ where: { workspaceId: t.a.workspaceId } }), before);
  });
});

describe('internal addresses refused (private egress off)', () => {
  let t: TestApp;
  let mcp: McpTestServer;
  let counting: Awaited<ReturnType<typeof startProxy>>;
  let rx: Awaited<ReturnType<typeof startReceiver>>;
  /** Where `tools.example.test` resolves now (the test's DNS). */
  let resolvesTo = '203.0.113.10';

  before(async () => {
    mcp = await startMcpTestServer();
    counting = await startProxy(mcp.url);
    rx = await startReceiver();
    t = await startTestApp(
      'egress_private',
      { runtime, eventPollMs: 250, egress: { allowPrivate: false }, webhooks: { timeoutMs: 2000, maxAttempts: 1, retryBaseMs: 50, retryMaxMs: 100, secretGraceSeconds: 60, concurrency: 2 } },
      {
        models: scriptedProvider(model),
        egressResolve: async (host) => {
          if (host === 'tools.example.test') return [{ address: resolvesTo, family: 4 }];
          if (host === 'localhost') return [{ address: '127.0.0.1', family: 4 }];
          throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
        },
      },
      { worker: { concurrency: 2 } },
    );
  });
  after(async () => {
    await t?.close();
    await rx?.close();
    await counting?.close();
    await mcp?.close();
  });

  test('registering a server on 127.0.0.1 is EGRESS_DENIED, stores nothing and sends nothing', async () => {
    const r = await gql(t, t.a.ownerToken, Register, { i: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), slug: 'local', url: counting.url } });
    assert.equal(codeOf(r), 'EGRESS_DENIED', JSON.stringify(r.body));
    assert.equal(r.body.errors![0]!.extensions!.rule, 'private-address');
    assert.match(r.body.errors![0]!.message, /127\.0\.0\.1:\d+ resolves to a loopback address/);
    assert.equal(await t.app.deps.prisma.mcpServer.count({ where: { workspaceId: t.a.workspaceId } }), 0);
    assert.equal(await t.app.deps.prisma.egressHost.count({ where: { workspaceId: t.a.workspaceId } }), 0);
    assert.equal(counting.requests, 0, 'nothing was sent');
  });

  test('a registered name that now resolves to an internal address is refused at connect time (EGRESS_DENIED event, nothing sent)', async () => {
    // Registered while the name pointed at a public address: its pin is what the server offered.
    const port = Number(new URL(mcp.url).port);
    const pinned = await discoverMcpServer({ transport: 'HTTP', url: mcp.url, command: null, args: [], authSecret: null });
    const url = `http://tools.example.test:${port}/mcp`;
    await t.app.deps.prisma.$transaction(async (tx) => {
      await insertMcpServer(tx, { workspaceId: t.a.workspaceId, name: 'rebind', title: 'Rebinding server', transport: 'HTTP', url, command: null, args: [], trust: 'TRUSTED', priceCentsPerCall: null, domains: [], authSecret: null, pinned }, { kind: 'USER', id: t.a.ownerId });
      await recordRegisteredHost(tx, { workspaceId: t.a.workspaceId, url, source: 'MCP_SERVER', note: 'MCP server rebind', createdById: t.a.ownerId });
    });
    // The name now answers 127.0.0.1, where the server really is.
    resolvesTo = '127.0.0.1';
    t.app.deps.runtime.mcp!.invalidate();
    const runs = mcp.state.runs.echo ?? 0;
    const { calls, taskId } = await runTask(t, 'rebind__echo', { text: 'inside?' });
    assert.equal(calls[0]?.status, 'FAILED');
    assert.match(String(calls[0]?.error), /may not be reached: calls to tools\.example\.test:\d+ are not allowed/);
    const denials = await denialsOf(t, taskId);
    assert.equal(denials.length, 1);
    assert.equal(denials[0]!.rule, 'private-address');
    assert.equal(denials[0]!.host, 'tools.example.test');
    assert.match(String(denials[0]!.reason), /resolves to a loopback address \(127\.0\.0\.1\)/);
    assert.equal(mcp.state.runs.echo ?? 0, runs, 'the server received no call');
  });

  test('a webhook receiver on 127.0.0.1 is refused: a failed attempt with the reason, and an event', async () => {
    const { endpoint } = await createWebhookEndpoint(t.app.deps, ownerViewer(t), { workspaceId: t.a.workspaceId, url: rx.url, eventTypes: ['NOTE'] });
    const task = await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, createdById: t.a.ownerId, title: 'quiet' } });
    await appendNow(t.app.deps, task.id, [{ type: 'NOTE', actor: { kind: 'SYSTEM' }, payload: { text: 'inside' } }]);
    const dead = await waitFor(() => t.app.deps.prisma.webhookDelivery.findFirst({ where: { endpointId: endpoint.id, status: 'DEAD' } }), 'the delivery failed');
    assert.match(String(dead.lastError), /resolves to a loopback address/);
    assert.deepEqual(rx.got, []);
    const denials = await waitFor(async () => (await denialsOf(t, task.id)).filter((d) => d.webhookEndpointId === endpoint.id), 'the EGRESS_DENIED event');
    assert.equal(denials[0]!.rule, 'private-address');
  });
});

describe('rules (pure)', () => {
  test('address classes', () => {
    const cases: [string, string | null][] = [
      ['127.0.0.1', 'loopback'],
      ['127.9.9.9', 'loopback'],
      ['10.1.2.3', 'private'],
      ['172.16.0.1', 'private'],
      ['172.31.255.255', 'private'],
      ['172.32.0.1', null],
      ['192.168.1.1', 'private'],
      ['169.254.169.254', 'link-local'],
      ['100.64.0.1', 'shared'],
      ['0.0.0.0', 'unspecified'],
      ['224.0.0.1', 'multicast'],
      ['255.255.255.255', 'reserved'],
      ['203.0.113.10', 'reserved'],
      ['8.8.8.8', null],
      ['::1', 'loopback'],
      ['::', 'unspecified'],
      ['fe80::1', 'link-local'],
      ['fd00::1', 'private'],
      ['::ffff:127.0.0.1', 'loopback'],
      ['::ffff:7f00:1', 'loopback'],
      ['::ffff:169.254.169.254', 'link-local'],
      ['64:ff9b::10.0.0.1', 'private'],
      ['2002:0a00:0001::', 'private'],
      ['ff02::1', 'multicast'],
      ['2606:4700:4700::1111', null],
      ['not-an-ip', 'reserved'],
    ];
    for (const [ip, cls] of cases) assert.equal(addressClass(ip), cls, ip);
  });

  test('entries are canonical host:port', () => {
    assert.deepEqual(parseEgressEntry('API.Example.com.'), { host: 'api.example.com', port: 443 });
    assert.deepEqual(parseEgressEntry('api.example.com:8080'), { host: 'api.example.com', port: 8080 });
    assert.deepEqual(parseEgressEntry('[2001:db8::1]:9000'), { host: '2001:db8::1', port: 9000 });
    assert.deepEqual(parseEgressEntry('10.0.0.5', 80), { host: '10.0.0.5', port: 80 });
    for (const bad of ['http://x.example', 'x.example/p', '*.x.example', 'a b', 'x.example:0', 'x.example:65536', '']) assert.ok('problem' in parseEgressEntry(bad), bad);
  });

  test('a workspace reaches only its own list; the deployment only its own providers', () => {
    const lists = { workspace: [{ host: 'a.example', port: 443 }], deployment: [{ host: 'api.openai.com', port: 443 }] };
    assert.equal(decideDestination({ host: 'a.example', port: 443 }, lists, 'workspace').allowed, true);
    assert.equal(decideDestination({ host: 'a.example', port: 8443 }, lists, 'workspace').allowed, false);
    assert.equal(decideDestination({ host: 'api.openai.com', port: 443 }, lists, 'workspace').allowed, false);
    assert.equal(decideDestination({ host: 'api.openai.com', port: 443 }, lists, 'deployment').allowed, true);
    assert.equal(decideDestination({ host: 'a.example', port: 443 }, lists, 'deployment').allowed, false);
    assert.equal(decideDestination(null, lists, 'workspace').allowed, false);
  });
});

describe('containment of MCP servers started as a command', () => {
  test('the exact bubblewrap command line', () => {
    const line = bwrapCommand({
      bwrap: '/usr/bin/bwrap',
      prlimit: '/usr/bin/prlimit',
      command: '/opt/node/bin/node',
      args: ['/srv/tools/server.js', '--stdio'],
      scratch: '/tmp/atelier-mcp-x',
      readOnly: ['/srv/tools', '/opt/node', '/srv/tools'],
      memoryMb: 512,
      cpuSeconds: 60,
    });
    assert.deepEqual(line, {
      command: '/usr/bin/prlimit',
      args: [
        '--as=536870912', '--cpu=60', '--',
        '/usr/bin/bwrap', '--unshare-all', '--die-with-parent', '--new-session',
        '--ro-bind-try', '/usr', '/usr', '--ro-bind-try', '/bin', '/bin', '--ro-bind-try', '/sbin', '/sbin',
        '--ro-bind-try', '/lib', '/lib', '--ro-bind-try', '/lib32', '/lib32', '--ro-bind-try', '/lib64', '/lib64',
        '--ro-bind-try', '/libx32', '/libx32', '--ro-bind-try', '/opt', '/opt',
        '--ro-bind-try', '/etc/alternatives', '/etc/alternatives', '--ro-bind-try', '/etc/ld.so.cache', '/etc/ld.so.cache',
        '--ro-bind-try', '/etc/ld.so.conf', '/etc/ld.so.conf', '--ro-bind-try', '/etc/ld.so.conf.d', '/etc/ld.so.conf.d',
        '--ro-bind-try', '/etc/localtime', '/etc/localtime', '--ro-bind-try', '/etc/ssl', '/etc/ssl',
        '--ro-bind-try', '/etc/ca-certificates', '/etc/ca-certificates', '--ro-bind-try', '/etc/nsswitch.conf', '/etc/nsswitch.conf',
        '--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp',
        '--ro-bind', '/opt/node', '/opt/node', '--ro-bind', '/srv/tools', '/srv/tools',
        '--bind', '/tmp/atelier-mcp-x', '/tmp/atelier-mcp-x', '--chdir', '/tmp/atelier-mcp-x',
        '--setenv', 'HOME', '/tmp/atelier-mcp-x', '--setenv', 'TMPDIR', '/tmp',
        '--', '/opt/node/bin/node', '/srv/tools/server.js', '--stdio',
      ],
    });
    // Without prlimit, bwrap itself is the command.
    assert.equal(bwrapCommand({ bwrap: '/b', prlimit: null, command: '/c', args: [], scratch: '/s', readOnly: [], memoryMb: 64, cpuSeconds: 1 }).command, '/b');
  });

  test('turned off by the operator, or with no commands allowed: not isolated, and says why', () => {
    const log = { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} } as never;
    const off = resolveSandbox({ mcp: { stdioCommands: ['node'], sandbox: { mode: 'off', memoryMb: 256, cpuSeconds: 10 } } }, log);
    assert.deepEqual([off.mode, off.reason], ['off', 'turned off by the operator (ATELIER_MCP_SANDBOX=off)']);
    assert.equal(resolveSandbox({ mcp: { stdioCommands: [] } }, log).mode, 'off');
  });

  test('under bubblewrap a server has no network, no project files and a private HOME (when bwrap runs here)', async () => {
    const log = { warn: () => {}, info: () => {}, error: () => {}, debug: () => {} } as never;
    const sb = resolveSandbox({ mcp: { stdioCommands: [process.execPath], sandbox: { memoryMb: 1024, cpuSeconds: 30 } } }, log);
    if (!which('bwrap')) {
      // Not installed on this machine: the product says so instead of pretending.
      assert.deepEqual([sb.mode, sb.reason], ['off', 'bubblewrap (bwrap) is not installed']);
      return;
    }
    assert.equal(sb.mode, 'bwrap', `bwrap is installed but: ${sb.reason}`);
    const rx = await startReceiver();
    try {
      const port = new URL(rx.url).port;
      const probe = `
        const fs = require('node:fs'); const net = require('node:net');
        const out = { home: process.env.HOME, cwd: process.cwd(), project: fs.existsSync(${JSON.stringify(process.cwd())} + '/package.json'), passwd: fs.existsSync('/etc/shadow') };
        const s = net.connect(${port}, '127.0.0.1');
        s.on('connect', () => { out.net = 'connected'; console.log(JSON.stringify(out)); process.exit(0); });
        s.on('error', (e) => { out.net = e.code; console.log(JSON.stringify(out)); process.exit(0); });`;
      const c = containedCommand(sb, process.execPath, ['-e', probe]);
      try {
        const stdout = await new Promise<string>((resolve, reject) => {
          const p = spawn(c.command, c.args, { stdio: ['ignore', 'pipe', 'pipe'] });
          let out = '';
          let err = '';
          p.stdout.on('data', (d) => (out += d));
          p.stderr.on('data', (d) => (err += d));
          p.on('error', reject);
          p.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`exit ${code}: ${err}`))));
        });
        const seen = JSON.parse(stdout.trim()) as Record<string, unknown>;
        assert.match(String(seen.home), /^\/tmp\/atelier-mcp-/);
        assert.equal(seen.cwd, seen.home);
        assert.equal(seen.project, false, 'the project directory is not visible');
        assert.equal(seen.passwd, false, '/etc/shadow is not visible');
        assert.notEqual(seen.net, 'connected', 'no network inside the sandbox');
        assert.deepEqual(rx.got, []);
      } finally {
        c.cleanup();
      }
    } finally {
      await rx.close();
    }
  });
});
