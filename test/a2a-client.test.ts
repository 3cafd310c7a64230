// Atelier delegating a step to a remote A2A agent (delegate_to_agent): a second, local A2A server
// built with the SDK (DefaultRequestHandler, an in-memory task store, an executor that answers),
// registered in the workspace with the key its card must be signed with. A signed card → the step
// runs, with a credential minted for that agent alone, and a takeover follows the recorded remote
// task instead of sending again; a card signed by another key, or not signed → refused, nothing
// sent. Registration is for owners, needs a key, and lists the agent's host on the egress list.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { createRemoteJWKSet, exportJWK, generateKeyPair, jwtVerify, type JWK } from 'jose';
import { AgentCard, formatSSEEvent, generateAgentCardSignature, SSE_HEADERS, TaskState, type AgentCard as Card } from '@a2a-js/sdk';
import {
  AgentEvent,
  DefaultPushNotificationSender,
  DefaultRequestHandler,
  InMemoryPushNotificationStore,
  InMemoryTaskStore,
  JsonRpcTransportHandler,
  ServerCallContext,
  type AgentExecutor,
} from '@a2a-js/sdk/server';
import { authenticateToken } from '../server/auth/viewer.ts';
import { createToken } from '../server/auth/create-token.ts';
import { delegationTools, DELEGATE_TOOL } from '../server/runtime/a2a/delegate.ts';
import type { ToolContext } from '../server/runtime/tools/types.ts';
import { registerRemoteAgent } from '../server/services/a2a/remote-agents.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { ensureMainPrincipal } from '../server/store/agents/principals.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql } from './helpers/clients.ts';
import { toGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';
import { createDelegation, recordRemoteTask } from '../server/store/a2a/delegations.ts';
import { callbackSecretHash } from '../server/runtime/a2a/delegate.ts';
import { StreamResponse } from '@a2a-js/sdk';
import { parse } from 'graphql';

/** A remote agent: the SDK's request handler behind plain node:http, its card signed as `mode` says. */
type Remote = {
  url: string;
  server: Server;
  mode: 'signed' | 'forged' | 'unsigned';
  /** The Authorization header of every A2A request, and the messages it received. */
  seen: { authorization: string | undefined; method: string }[];
  messages: string[];
  /** The push-notification configs clients set (where and with which token the agent calls back). */
  pushConfigs: { url: string; token: string }[];
};

async function startRemote(): Promise<Remote & { jwk: JWK }> {
  const good = await generateKeyPair('ES256', { extractable: true });
  const forger = await generateKeyPair('ES256', { extractable: true });
  const jwk = { ...(await exportJWK(good.publicKey)), kid: 'remote-1', alg: 'ES256', use: 'sig' };
  const remote = { seen: [], messages: [], pushConfigs: [], mode: 'signed' } as unknown as Remote & { jwk: JWK };
  remote.jwk = jwk;

  const executor: AgentExecutor = {
    async execute(ctx, bus) {
      const text = ctx.userMessage.parts.map((p) => (p.content?.$case === 'text' ? p.content.value : '')).join(' ');
      remote.messages.push(text);
      const base = { id: ctx.taskId, contextId: ctx.contextId, artifacts: [], history: [ctx.userMessage], metadata: undefined };
      bus.publish(AgentEvent.task({ ...base, status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() } }));
      bus.publish(AgentEvent.statusUpdate({ taskId: ctx.taskId, contextId: ctx.contextId, status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() }, metadata: undefined }));
      // A step that takes a moment: the caller follows it.
      await new Promise((r) => setTimeout(r, 150));
      bus.publish(
        AgentEvent.artifactUpdate({
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          artifact: { artifactId: 'a1', name: 'translation.txt', description: '', parts: [{ content: { $case: 'url', value: 'https://remote.example/files/translation.txt' }, metadata: undefined, filename: 'translation.txt', mediaType: 'text/plain' }], metadata: undefined, extensions: [] },
          append: false,
          lastChunk: true,
          metadata: undefined,
        }),
      );
      bus.publish(
        AgentEvent.statusUpdate({
          taskId: ctx.taskId,
          contextId: ctx.contextId,
          status: {
            state: TaskState.TASK_STATE_COMPLETED,
            message: { messageId: randomUUID(), contextId: ctx.contextId, taskId: ctx.taskId, role: 2, parts: [{ content: { $case: 'text', value: `Übersetzt: ${text}` }, metadata: undefined, filename: '', mediaType: 'text/plain' }], metadata: undefined, extensions: [], referenceTaskIds: [] },
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        }),
      );
      bus.finished();
    },
    async cancelTask() {},
  };

  // The handler is made once the server listens (its card names the server's URL).
  let cardFor: (url: string) => Card = () => {
    throw new Error('not started');
  };
  let rpc: JsonRpcTransportHandler;
  const read = (req: IncomingMessage) => new Promise<string>((r) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => r(Buffer.concat(chunks).toString('utf8')));
  });
  const server = createServer((req, res) => {
    void (async () => {
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/jwks.json') {
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ keys: [jwk] }));
        return;
      }
      if (path === '/.well-known/agent-card.json') {
        const card = cardFor(remote.url);
        const signed =
          remote.mode === 'unsigned'
            ? card
            : await generateAgentCardSignature(remote.mode === 'signed' ? good.privateKey : forger.privateKey, { alg: 'ES256', kid: 'remote-1', typ: 'JOSE' })(card);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(AgentCard.toJSON(signed)));
        return;
      }
      const body = await read(req);
      remote.seen.push({ authorization: req.headers.authorization, method: (JSON.parse(body) as { method: string }).method });
      const out = await rpc.handle(body, new ServerCallContext({ requestedVersion: String(req.headers['a2a-version'] ?? '1.0') }));
      if (out && typeof (out as AsyncGenerator)[Symbol.asyncIterator] === 'function') {
        res.writeHead(200, { ...SSE_HEADERS });
        for await (const e of out as AsyncGenerator) res.write(formatSSEEvent(e));
        res.end();
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out));
    })().catch((e) => {
      if (!res.headersSent) res.writeHead(500).end(String(e));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  remote.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  remote.server = server;
  cardFor = (url) => ({
    name: 'Translator',
    description: 'Translates short texts.',
    supportedInterfaces: [{ url: `${url}/a2a`, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: true, pushNotifications: true, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'translate', name: 'Translate', description: 'Translate a text', tags: [], examples: [], inputModes: ['text/plain'], outputModes: ['text/plain'], securityRequirements: [] }],
    signatures: [],
  });
  // Push notifications the SDK's way: configs in memory, sent by its sender (to Atelier's callback).
  const pushes = new InMemoryPushNotificationStore();
  const saveConfig = pushes.save.bind(pushes);
  pushes.save = async (taskId, context, config) => {
    remote.pushConfigs.push({ url: config.url, token: config.token });
    return saveConfig(taskId, context, config);
  };
  rpc = new JsonRpcTransportHandler(new DefaultRequestHandler(cardFor(remote.url), new InMemoryTaskStore(), executor, undefined, pushes, new DefaultPushNotificationSender(pushes)));
  return remote;
}

let t: TestApp;
let remote: Awaited<ReturnType<typeof startRemote>>;
const tool = () => delegationTools({ egress: t.app.deps.egress }).find((d) => d.name === DELEGATE_TOOL)!;

before(async () => {
  t = await startTestApp('a2aclient');
  remote = await startRemote();
});
after(async () => {
  await t?.close();
  await new Promise<void>((r) => remote?.server.close(() => r()));
});

/** A tool context as the worker gives one: the call's journal key, the run, the principal. */
async function contextFor(key: string): Promise<ToolContext> {
  const viewer = await authenticateToken(t.app.deps.prisma, t.a.ownerToken);
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: `Delegating ${key}`, goal: 'a step for a remote agent' });
  const principal = await ensureMainPrincipal(t.app.deps.prisma, t.a.workspaceId);
  return {
    idempotencyKey: `${randomUUID()}:0:${key}`,
    taskId: task.id,
    workspaceId: t.a.workspaceId,
    turnId: randomUUID(),
    generation: 1,
    uow: { prisma: t.app.deps.prisma, notifier: t.app.deps.notifier },
    signal: new AbortController().signal,
    principal: { id: principal.id, name: principal.name, version: principal.version },
  };
}

const register = async (over: Record<string, unknown> = {}) => {
  const viewer = await authenticateToken(t.app.deps.prisma, t.a.ownerToken);
  return registerRemoteAgent(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'translator', url: remote.url, jwksUrl: `${remote.url}/jwks.json`, ...over });
};

describe('the registry of remote agents', () => {
  test('owners register an agent with the key its card must be signed with; its host goes on the egress list', async () => {
    const row = await register({ allowedSkills: ['translate'] });
    assert.equal(row.url, remote.url);
    const hosts = await t.app.deps.prisma.egressHost.findMany({ where: { workspaceId: t.a.workspaceId, source: 'A2A_AGENT' } });
    assert.deepEqual(hosts.map((h) => [h.host, h.port]), [['127.0.0.1', Number(new URL(remote.url).port)]]);

    const viewer = await authenticateToken(t.app.deps.prisma, t.a.ownerToken);
    await assert.rejects(registerRemoteAgent(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'keyless', url: remote.url }), /jwksUrl or publicJwk/);
    await assert.rejects(registerRemoteAgent(t.app.deps, viewer, { workspaceId: t.a.workspaceId, name: 'plain', url: 'http://evil.example', jwksUrl: 'https://evil.example/jwks' }), /https/);
    const member = await t.app.deps.prisma.user.create({ data: { email: `member-${randomUUID()}@example.test`, name: 'Member' } });
    await t.app.deps.prisma.membership.create({ data: { workspaceId: t.a.workspaceId, userId: member.id, role: 'MEMBER' } });
    const memberToken = (await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: member.id, name: 'member', scopes: ['READ', 'WRITE'] })).token;
    const memberViewer = await authenticateToken(t.app.deps.prisma, memberToken);
    await assert.rejects(registerRemoteAgent(t.app.deps, memberViewer, { workspaceId: t.a.workspaceId, name: 'sneaky', url: remote.url, jwksUrl: `${remote.url}/jwks.json` }), /owner/);
    assert.equal(await t.app.deps.prisma.a2aRemoteAgent.count({ where: { workspaceId: t.a.workspaceId } }), 1, 'refusals change nothing');
  });
  test('through the API: owners register and remove, members only read, bad input is typed and changes nothing; a removed agent is refused', async () => {
    const ws = toGlobalId('Workspace', t.a.workspaceId);
    const call = (token: string, q: string, variables: Record<string, unknown>) => gql(t.url, token, parse(q), variables);
    const REGISTER = `mutation($i: RegisterRemoteAgentInput!) { registerRemoteAgent(input: $i) { remoteAgent { id name url jwksUrl publicJwk allowedSkills } } }`;
    const LIST = `query($id: ID!) { workspace(id: $id) { remoteAgents { id name } } }`;
    const REMOVE = `mutation($i: RemoveRemoteAgentInput!) { removeRemoteAgent(input: $i) { remoteAgent { id name } } }`;

    const made = await call(t.a.ownerToken, REGISTER, { i: { workspaceId: ws, name: 'critic', url: remote.url, publicJwk: remote.jwk, allowedSkills: ['translate'] } });
    assert.equal(made.errors, undefined);
    const agent = (made.data as any).registerRemoteAgent.remoteAgent;
    assert.equal(agent.name, 'critic');
    assert.equal(agent.jwksUrl, null);
    assert.equal(agent.publicJwk.kid, 'remote-1');
    assert.deepEqual(agent.allowedSkills, ['translate']);

    // Bad input: a typed error, nothing stored.
    const before = await t.app.deps.prisma.a2aRemoteAgent.count({ where: { workspaceId: t.a.workspaceId } });
    for (const i of [
      { workspaceId: ws, name: 'Bad Name', url: remote.url, jwksUrl: `${remote.url}/jwks.json` },
      { workspaceId: ws, name: 'nokey', url: remote.url },
      { workspaceId: ws, name: 'private', url: remote.url, publicJwk: { ...remote.jwk, d: 'secret' } },
      { workspaceId: ws, name: 'ftp', url: 'ftp://agents.example.com', jwksUrl: `${remote.url}/jwks.json` },
    ]) {
      const r = await call(t.a.ownerToken, REGISTER, { i });
      assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(i));
      assert.doesNotMatch(r.errors![0]!.message, /prisma|select|at \//i);
    }
    // A member reads the list but cannot register or remove; another workspace finds nothing.
    const member = await t.app.deps.prisma.user.create({ data: { email: `m-${randomUUID()}@example.test`, name: 'M' } });
    await t.app.deps.prisma.membership.create({ data: { workspaceId: t.a.workspaceId, userId: member.id, role: 'MEMBER' } });
    const memberToken = (await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: member.id, name: 'm', scopes: ['READ', 'WRITE'] })).token;
    const listed = await call(memberToken, LIST, { id: ws });
    assert.ok((listed.data as any).workspace.remoteAgents.some((a: { name: string }) => a.name === 'critic'));
    assert.equal((await call(memberToken, REGISTER, { i: { workspaceId: ws, name: 'sneaky', url: remote.url, jwksUrl: `${remote.url}/jwks.json` } })).errors?.[0]?.extensions?.code, 'FORBIDDEN');
    assert.equal((await call(memberToken, REMOVE, { i: { remoteAgentId: agent.id } })).errors?.[0]?.extensions?.code, 'FORBIDDEN');
    assert.equal((await call(t.b.ownerToken, REMOVE, { i: { remoteAgentId: agent.id } })).errors?.[0]?.extensions?.code, 'NOT_FOUND');
    assert.equal(await t.app.deps.prisma.a2aRemoteAgent.count({ where: { workspaceId: t.a.workspaceId } }), before, 'refusals change nothing');

    // Removed: gone from the list, and a delegation to it is refused.
    const removed = await call(t.a.ownerToken, REMOVE, { i: { remoteAgentId: agent.id } });
    assert.equal((removed.data as any).removeRemoteAgent.remoteAgent.name, 'critic');
    assert.ok(!((await call(t.a.ownerToken, LIST, { id: ws })).data as any).workspace.remoteAgents.some((a: { name: string }) => a.name === 'critic'));
    await assert.rejects(tool().run({ agent: 'critic', message: 'hi', skill: 'translate' }, await contextFor('removed')), /No remote agent named "critic"/);
    assert.equal((await call(t.a.ownerToken, REMOVE, { i: { remoteAgentId: agent.id } })).errors?.[0]?.extensions?.code, 'NOT_FOUND');
  });
});

describe('delegate_to_agent', () => {
  test('a signed card: the step runs with a credential for that agent alone, and the answer comes back', async () => {
    remote.mode = 'signed';
    const ctx = await contextFor('signed');
    const before = remote.messages.length;
    const out = (await tool().run({ agent: 'translator', message: 'good morning', skill: 'translate' }, ctx)) as Record<string, unknown>;
    assert.equal(out.state, 'completed');
    assert.equal(out.text, 'Übersetzt: good morning');
    assert.deepEqual(out.artifacts, [{ name: 'translation.txt', url: 'https://remote.example/files/translation.txt', mediaType: 'text/plain' }]);
    assert.deepEqual(remote.messages.slice(before), ['good morning'], 'sent once');

    // The remote task's id is on the task's log before the wait.
    const started = await t.app.deps.prisma.taskEvent.findFirstOrThrow({ where: { taskId: ctx.taskId, type: 'TOOL_TASK_STARTED' } });
    assert.equal((started.payload as Record<string, unknown>).mcpTask, out.remoteTaskId);
    assert.equal((started.payload as Record<string, unknown>).tool, DELEGATE_TOOL);

    // The bearer the remote agent saw: a run credential of this workspace, for this agent and step only.
    const bearer = remote.seen.at(-1)!.authorization!.replace(/^Bearer /, '');
    const jwks = createRemoteJWKSet(new URL(`${t.url}/.well-known/jwks/${encodeURIComponent(toGlobalId('Workspace', t.a.workspaceId))}.json`));
    const { payload } = await jwtVerify(bearer, jwks, { audience: remote.url });
    assert.equal(payload.sub, `agent:${ctx.principal!.id}`);
    assert.equal(payload.scope, 'agents:delegate');
    assert.ok(payload.exp! - payload.iat! <= 300, 'time-boxed to the step');
  });

  test('a takeover follows the recorded remote task: nothing is sent again', async () => {
    remote.mode = 'signed';
    const ctx = await contextFor('takeover');
    const first = (await tool().run({ agent: 'translator', message: 'once only', skill: 'translate' }, ctx)) as Record<string, unknown>;
    const sends = remote.seen.filter((s) => s.method === 'SendMessage').length;
    assert.equal(await tool().resumable!(ctx), true, 'the call is resumable: its remote task is recorded');
    const again = (await tool().run({ agent: 'translator', message: 'once only', skill: 'translate' }, { ...ctx, generation: 2 })) as Record<string, unknown>;
    assert.equal(again.remoteTaskId, first.remoteTaskId);
    assert.equal(remote.seen.filter((s) => s.method === 'SendMessage').length, sends, 'no second SendMessage');
    assert.equal(remote.messages.filter((m) => m === 'once only').length, 1);
  });

  test('a card signed by another key, or not signed, is refused before anything is sent', async () => {
    for (const [mode, why] of [
      ['forged', /refused.*not verify|refused/],
      ['unsigned', /not signed/],
    ] as const) {
      remote.mode = mode;
      const ctx = await contextFor(mode);
      const sent = remote.seen.length;
      await assert.rejects(tool().run({ agent: 'translator', message: 'steal this', skill: 'translate' }, ctx), (e: Error) => why.test(e.message) && /Nothing was sent/.test(e.message));
      assert.equal(remote.seen.length, sent, 'no A2A request reached the agent');
      assert.equal(await t.app.deps.prisma.taskEvent.count({ where: { taskId: ctx.taskId, type: 'TOOL_TASK_STARTED' } }), 0);
    }
    remote.mode = 'signed';
  });

  test('an agent the workspace did not register, or a skill it does not allow, is refused', async () => {
    const ctx = await contextFor('unknown');
    await assert.rejects(tool().run({ agent: 'stranger', message: 'hi' }, ctx), /No remote agent named "stranger"/);
    await assert.rejects(tool().run({ agent: 'translator', message: 'hi', skill: 'summarise' }, ctx), /allows only these skills/);
    const other = { ...ctx, workspaceId: t.b.workspaceId };
    await assert.rejects(tool().run({ agent: 'translator', message: 'hi', skill: 'translate' }, other), /No remote agent/, 'another workspace does not see it');
  });
});


describe('answer later: the remote agent calls back, no worker waits', () => {
  const laterTool = (base: string | null = t.url) => delegationTools({ egress: t.app.deps.egress, callbackBase: () => base ?? undefined }).find((d) => d.name === DELEGATE_TOOL)!;
  const answered = (taskId: string) => t.app.deps.prisma.taskEvent.findMany({ where: { taskId, type: 'REMOTE_AGENT_ANSWERED' } });
  const post = (id: string, token: string | null, body: unknown) =>
    fetch(`${t.url}/a2a/callbacks/${id}`, { method: 'POST', headers: { 'content-type': 'application/a2a+json', ...(token ? { 'x-a2a-notification-token': token } : {}) }, body: typeof body === 'string' ? body : JSON.stringify(body) });
  const finalUpdate = (remoteTaskId: string, text: string) =>
    StreamResponse.toJSON({
      payload: {
        $case: 'statusUpdate',
        value: {
          taskId: remoteTaskId,
          contextId: 'ctx',
          status: { state: TaskState.TASK_STATE_COMPLETED, message: { messageId: randomUUID(), contextId: 'ctx', taskId: remoteTaskId, role: 2, parts: [{ content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: 'text/plain' }], metadata: undefined, extensions: [], referenceTaskIds: [] }, timestamp: new Date().toISOString() },
          metadata: undefined,
        },
      },
    });

  test('the call returns at once; the agent\'s final update reaches the task as a message, once; a takeover sends nothing again', async () => {
    remote.mode = 'signed';
    const ctx = await contextFor('later');
    const sends = remote.seen.filter((s) => s.method === 'SendMessage').length;
    const out = (await laterTool().run({ agent: 'translator', message: 'see you later', skill: 'translate', answer: 'later' }, ctx)) as Record<string, unknown>;
    assert.equal(out.state, 'working');
    assert.match(String(out.text), /will reach this task as a message/);
    assert.ok(out.remoteTaskId);
    const config = remote.pushConfigs.at(-1)!;
    assert.match(config.url, new RegExp(`^${t.url}/a2a/callbacks/[0-9a-f-]{36}$`));
    const row = await t.app.deps.prisma.a2aDelegation.findFirstOrThrow({ where: { taskId: ctx.taskId } });
    assert.notEqual(row.secretHash, config.token, 'only the secret\'s hash is kept');

    const [event] = await waitFor(async () => {
      const e = await answered(ctx.taskId);
      return e.length ? e : null;
    }, 'the remote agent\'s answer on the task');
    const p = event!.payload as Record<string, unknown>;
    assert.equal(p.state, 'COMPLETED');
    assert.equal(p.agent, 'translator');
    assert.equal(p.remoteTask, out.remoteTaskId);
    assert.match(String(p.text), /Übersetzt: see you later/);
    const inbox = await t.app.deps.prisma.inboxItem.findMany({ where: { taskId: ctx.taskId } });
    assert.equal(inbox.length, 1);
    assert.match(inbox[0]!.text ?? '', /"translator" answered.*Übersetzt: see you later/s);

    // The same final update again (an agent that retries): accepted, nothing added.
    const again = await post(row.id, config.token, finalUpdate(String(out.remoteTaskId), 'Übersetzt: see you later'));
    assert.equal(again.status, 204);
    assert.equal((await answered(ctx.taskId)).length, 1);
    assert.equal(await t.app.deps.prisma.inboxItem.count({ where: { taskId: ctx.taskId } }), 1);

    // A takeover runs the call again: the same remote task, nothing sent.
    const taken = (await laterTool().run({ agent: 'translator', message: 'see you later', skill: 'translate', answer: 'later' }, { ...ctx, generation: 2 })) as Record<string, unknown>;
    assert.equal(taken.remoteTaskId, out.remoteTaskId);
    assert.equal(remote.seen.filter((s) => s.method === 'SendMessage').length, sends + 1, 'one SendMessage in all');
  });

  test('a wrong or missing secret, an unknown callback or a body that is not A2A changes nothing', async () => {
    const ctx = await contextFor('forged-callback');
    const secret = 'the-right-secret';
    const row = await createDelegation(t.app.deps.prisma, { workspaceId: t.a.workspaceId, taskId: ctx.taskId, callId: ctx.idempotencyKey, agentName: 'translator', secretHash: callbackSecretHash(secret) });
    await recordRemoteTask(t.app.deps.prisma, t.a.workspaceId, row.id, 'remote-1');
    const body = finalUpdate('remote-1', 'forged');
    assert.equal((await post(row.id, 'guess', body)).status, 401);
    assert.equal((await post(row.id, null, body)).status, 401);
    assert.equal((await post(randomUUID(), secret, body)).status, 404);
    assert.equal((await post('not-a-uuid', secret, body)).status, 404);
    assert.equal((await post(row.id, secret, '{"nope":')).status, 400);
    assert.equal((await post(row.id, secret, finalUpdate('another-remote-task', 'x'))).status, 400);
    assert.equal((await fetch(`${t.url}/a2a/callbacks/${row.id}`)).status, 405);
    assert.equal((await answered(ctx.taskId)).length, 0);
    assert.equal(await t.app.deps.prisma.inboxItem.count({ where: { taskId: ctx.taskId } }), 0);
    assert.equal((await t.app.deps.prisma.a2aDelegation.findUniqueOrThrow({ where: { id: row.id } })).answeredAt, null);
  });

  test('a task waiting on the answer goes on when it comes — not while another answer or a job is still owed; an ended task only keeps it', async () => {
    const ctx = await contextFor('wake');
    const open = async (key: string) => {
      const secret = `s-${key}`;
      const row = await createDelegation(t.app.deps.prisma, { workspaceId: t.a.workspaceId, taskId: ctx.taskId, callId: `${ctx.idempotencyKey}:${key}`, agentName: 'translator', secretHash: callbackSecretHash(secret) });
      await recordRemoteTask(t.app.deps.prisma, t.a.workspaceId, row.id, `remote-${key}`);
      return { row, secret };
    };
    const a = await open('a');
    const b = await open('b');
    await t.app.deps.prisma.turn.updateMany({ where: { taskId: ctx.taskId }, data: { status: 'COMPLETED' } });
    await t.app.deps.prisma.task.update({ where: { id: ctx.taskId }, data: { status: 'WAITING' } });
    assert.equal((await post(a.row.id, a.secret, finalUpdate('remote-a', 'first'))).status, 204);
    assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: ctx.taskId } })).status, 'WAITING', 'b still owes its answer');
    assert.equal((await post(b.row.id, b.secret, finalUpdate('remote-b', 'second'))).status, 204);
    assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: ctx.taskId } })).status, 'QUEUED', 'nothing else owed: the task goes on');
    assert.equal(await t.app.deps.prisma.turn.count({ where: { taskId: ctx.taskId, status: 'QUEUED' } }), 1);

    // An ended task: the answer is kept on its timeline, nothing is put in its inbox.
    const ended = await contextFor('ended');
    const c = await createDelegation(t.app.deps.prisma, { workspaceId: t.a.workspaceId, taskId: ended.taskId, callId: ended.idempotencyKey, agentName: 'translator', secretHash: callbackSecretHash('s-c') });
    await recordRemoteTask(t.app.deps.prisma, t.a.workspaceId, c.id, 'remote-c');
    await t.app.deps.prisma.task.update({ where: { id: ended.taskId }, data: { status: 'COMPLETED' } });
    assert.equal((await post(c.id, 's-c', finalUpdate('remote-c', 'late'))).status, 204);
    const [kept] = await answered(ended.taskId);
    assert.equal((kept!.payload as Record<string, unknown>).inboxItemId, null);
    assert.equal(await t.app.deps.prisma.inboxItem.count({ where: { taskId: ended.taskId } }), 0);
  });

  test('without the address remote agents reach this server at, the call says so and sends nothing', async () => {
    const ctx = await contextFor('no-base');
    const sent = remote.seen.length;
    await assert.rejects(laterTool(null).run({ agent: 'translator', message: 'hi', skill: 'translate', answer: 'later' }, ctx), /ATELIER_PUBLIC_URL/);
    assert.equal(remote.seen.length, sent);
  });
});
