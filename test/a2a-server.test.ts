// Atelier as an A2A agent, through the SDK's own client (@a2a-js/sdk ClientFactory over JSON-RPC)
// against the real server: the signed agent card verifies against /.well-known/jwks.json and a
// tampered or unsigned one does not; a poster task sent blocking, input-required while a person
// decides in the studio (the GraphQL mutation its card buttons send), followed on a resubscription
// to its end with artifacts that download; an input-required task answered by the client's next
// message. A second, quiet app (no worker: a task moves only when the test moves it) covers a
// stream that is dropped and resubscribed with no lost or doubled update, cancel, errors that
// change nothing, push notifications signed the Standard Webhooks way, and the v0.3 methods.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { importJWK, type JWK } from 'jose';
import { Webhook } from 'standardwebhooks';
import { AgentCard, SendMessageRequest, TaskState, verifyAgentCardSignature, type StreamResponse, type Task as A2aTask } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory, type Client } from '@a2a-js/sdk/client';
import { authenticateToken } from '../server/auth/viewer.ts';
import { createToken } from '../server/auth/create-token.ts';
import { appendNow } from '../server/channel/unit-of-work.ts';
import { visibilityOf } from '../server/domain/event-catalog.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { posterModel } from './fixtures/poster-plugin.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { toGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Any = any;

const authed =
  (token: string): typeof fetch =>
  (input, init) => {
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };

async function a2aClient(url: string, token: string): Promise<Client> {
  const fetchImpl = authed(token);
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new JsonRpcTransportFactory({ fetchImpl })],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  return factory.createFromUrl(url);
}

const message = (text: string, o: { taskId?: string; contextId?: string; returnImmediately?: boolean; messageId?: string } = {}) =>
  SendMessageRequest.fromJSON({
    message: { messageId: o.messageId ?? randomUUID(), role: 'ROLE_USER', parts: [{ text }], ...(o.taskId ? { taskId: o.taskId } : {}), ...(o.contextId ? { contextId: o.contextId } : {}) },
    configuration: { returnImmediately: o.returnImmediately ?? false },
  });

const asTask = (r: unknown): A2aTask => {
  assert.ok(r && typeof r === 'object' && 'status' in r, `a task, got ${JSON.stringify(r)}`);
  return r as A2aTask;
};
const stateOf = (t: A2aTask) => t.status!.state;
const statusText = (t: { status?: { message?: { parts: { content?: { $case: string; value: unknown } }[] } } }) =>
  String(t.status?.message?.parts.find((p) => p.content?.$case === 'text')?.content?.value ?? '');
const cardData = (t: A2aTask): Any => t.status?.message?.parts.find((p) => p.content?.$case === 'data')?.content?.value;
const seqOf = (r: StreamResponse): number | null => {
  const p = r.payload;
  if (p?.$case === 'statusUpdate' || p?.$case === 'artifactUpdate') return Number(p.value.metadata?.['atelier/seq']);
  return null;
};
const rawId = (globalId: string) => Buffer.from(globalId, 'base64').toString().split(':')[1]!;

/** Reads a stream into `got` as it arrives; `done` settles when it ends, fails or is aborted. */
function drain(stream: AsyncGenerator<StreamResponse>): { got: StreamResponse[]; done: Promise<unknown> } {
  const got: StreamResponse[] = [];
  const done = (async () => {
    try {
      for await (const r of stream) got.push(r);
    } catch (e) {
      if ((e as Error)?.name !== 'AbortError' && !/abort/i.test(String((e as Error)?.message))) return e;
    }
    return null;
  })();
  return { got, done };
}

describe('the agent card', () => {
  let q: TestApp;
  before(async () => {
    q = await startTestApp('a2acard');
  });
  after(async () => {
    await q?.close();
  });

  const fetchCard = async () => {
    const res = await fetch(`${q.url}/.well-known/agent-card.json`, { headers: { 'a2a-version': '1.0' } });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('access-control-allow-origin'), '*');
    return AgentCard.fromJSON(await res.json());
  };
  /** Finds the card's key in the JWKS its signature names (jku), as a client that trusts this server does. */
  const fromJwks = async (kid: string, jku?: string) => {
    assert.equal(jku, `${q.url}/.well-known/jwks.json`, 'the signature names the JWKS');
    const jwks = (await (await fetch(jku!)).json()) as { keys: JWK[] };
    const jwk = jwks.keys.find((k) => k.kid === kid);
    if (!jwk) throw new Error(`no key ${kid} in the JWKS`);
    return (await importJWK(jwk, 'ES256')) as CryptoKey;
  };

  test('names the endpoint, the bearer scheme, streaming and push, and the skills of the capability registry', async () => {
    const card = await fetchCard();
    assert.equal(card.name, 'Atelier');
    assert.deepEqual(card.supportedInterfaces.map((i) => [i.url, i.protocolBinding, i.protocolVersion]), [
      [`${q.url}/a2a`, 'JSONRPC', '1.0'],
      [`${q.url}/a2a`, 'JSONRPC', '0.3'],
    ]);
    assert.equal(card.capabilities?.streaming, true);
    assert.equal(card.capabilities?.pushNotifications, true);
    const scheme = card.securitySchemes.atelierToken?.scheme;
    assert.equal(scheme?.$case, 'httpAuthSecurityScheme');
    assert.equal((scheme as Any).value.scheme.toLowerCase(), 'bearer');
    const kinds = q.app.deps.runtime.capabilities!.list.map((c) => c.kind.toLowerCase()).filter((k) => k !== 'other');
    assert.deepEqual(card.skills.map((s) => s.id).sort(), kinds.sort());
    assert.ok(card.skills.find((s) => s.id === 'image')!.outputModes.includes('image/png'));
  });

  test('the signed card verifies against /.well-known/jwks.json; a tampered or unsigned card does not', async () => {
    const card = await fetchCard();
    assert.equal(card.signatures.length, 1);
    const verify = verifyAgentCardSignature(fromJwks);
    await verify(card);
    // Any change to what the card says breaks the signature.
    await assert.rejects(verify({ ...card, supportedInterfaces: [{ ...card.supportedInterfaces[0]!, url: 'https://evil.example/a2a' }] }));
    await assert.rejects(verify({ ...card, description: `${card.description} (now also wires money)` }));
    await assert.rejects(verify({ ...card, skills: [] }));
    await assert.rejects(verify({ ...card, signatures: [] }), 'an unsigned card is refused');
  });
});

describe('a poster task through the SDK client', () => {
  let t: TestApp;
  let filesDir: string;
  let client: Client;
  before(async () => {
    filesDir = mkdtempSync(join(tmpdir(), 'atelier-a2a-files-'));
    const scripted = scriptedProvider(posterModel);
    t = await startTestApp(
      'a2aserver',
      { eventPollMs: 500 },
      {
        models: { ...scripted, info: { ...scripted.info, offline: true, description: 'Scripted poster model (test fixture)' } },
        provider: new SimulatedProvider({ filesDir, latencyMs: { IMAGE: 200 } }),
      },
      { worker: { concurrency: 2 } },
    );
    client = await a2aClient(t.url, t.a.ownerToken);
  });
  after(async () => {
    await t?.close();
    rmSync(filesDir, { recursive: true, force: true });
  });

  /** The GraphQL mutation the studio's card buttons send. */
  async function resolveApproval(approvalId: string, decision: 'APPROVE' | 'PICK', choice?: string) {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.a.ownerToken}` },
      body: JSON.stringify({
        query: 'mutation R($input: ResolveApprovalInput!) { resolveApproval(input: $input) { approval { id status } } }',
        variables: { input: { approvalId, decision, choice, idempotencyKey: `a2a-test-${approvalId}` } },
      }),
    });
    const body = (await res.json()) as Any;
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    return body.data.resolveApproval.approval.status as string;
  }

  test('no token or a bad one: 401, and the SDK client is refused', async () => {
    for (const auth of [undefined, 'Bearer atl_not-a-real-token']) {
      const res = await fetch(`${t.url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
      });
      assert.equal(res.status, 401);
      assert.match(res.headers.get('www-authenticate') ?? '', /^Bearer/);
      assert.match(JSON.stringify(await res.json()), /UNAUTHENTICATED/);
    }
    const stranger = await a2aClient(t.url, 'atl_wrong');
    await assert.rejects(stranger.getTask({ tenant: '', id: toGlobalId('Task', randomUUID()) }), /UNAUTHENTICATED|401/);
    const evil = await fetch(`${t.url}/a2a`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', authorization: `Bearer ${t.a.ownerToken}`, origin: 'http://evil.example' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'GetTask', params: { id: 'x' } }),
    });
    assert.equal(evil.status, 403, 'a page of another origin is refused');
  });

  test('send (blocking) → input-required with the card’s question; a person approves in the studio; resubscribe follows it to the end', async () => {
    const sent = asTask(await client.sendMessage(message('Coffee posters\nmake three retro posters for a coffee brand')));
    assert.equal(rawId(sent.id).length, 36, 'the A2A task id is the Atelier task’s global id');
    assert.equal(sent.contextId, sent.id, 'a first round is its own context');
    assert.equal(stateOf(sent), TaskState.TASK_STATE_INPUT_REQUIRED, 'blocking send returns when the plan waits for a person');
    const plan = cardData(sent);
    assert.equal(plan.kind, 'PLAN');
    assert.ok(statusText(sent).length > 0, 'the question is the status message');
    const row = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: rawId(sent.id) } });
    assert.equal(row.title, 'Coffee posters', 'the first line is the title, the whole text the goal');
    const card = await t.app.deps.prisma.approval.findUniqueOrThrow({ where: { id: rawId(plan.approvalId) } });
    assert.equal(card.status, 'PENDING', 'input-required exactly while the card waits for a person');
    const got = asTask(await client.getTask({ tenant: '', id: sent.id }));
    assert.equal(stateOf(got), TaskState.TASK_STATE_INPUT_REQUIRED);

    // The person approves the plan in the studio; the client follows on a resubscription until
    // the next question (the pick), where it drops the stream.
    assert.equal(await resolveApproval(plan.approvalId, 'APPROVE'), 'APPROVED');
    const ac = new AbortController();
    const first: StreamResponse[] = [];
    for await (const r of client.resubscribeTask({ tenant: '', id: sent.id }, { signal: ac.signal })) {
      first.push(r);
      if (r.payload?.$case === 'statusUpdate' && r.payload.value.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED && cardData(r.payload.value as Any)?.kind === 'CHECKPOINT') break;
    }
    ac.abort();
    assert.equal(first[0]!.payload?.$case, 'task', 'a resubscription starts with the task');
    const pick = cardData(first.at(-1)!.payload!.value as Any);
    assert.deepEqual(pick.options.map((o: Any) => o.id), ['sunburst', 'diner', 'atomic']);
    assert.ok(first.some((r) => r.payload?.$case === 'artifactUpdate'), 'the candidates arrive as artifacts');
    const lastSeen = Math.max(...first.map(seqOf).filter((s): s is number => s !== null));

    // The person picks; the client resubscribes from the last update it got and sees the rest once.
    assert.equal(await resolveApproval(pick.approvalId, 'PICK', 'diner'), 'APPROVED');
    const rest: StreamResponse[] = [];
    for await (const r of client.resubscribeTask({ tenant: '', id: sent.id }, { serviceParameters: { 'Last-Event-ID': String(lastSeen) } })) rest.push(r);
    const seqs = rest.map(seqOf).filter((s): s is number => s !== null);
    assert.ok(seqs.length > 0 && seqs[0]! > lastSeen, 'only what came after the last update seen');
    assert.deepEqual(seqs, [...new Set(seqs)].sort((a, b) => a - b), 'in order, each once');
    const end = rest.at(-1)!.payload!;
    assert.equal(end.$case, 'statusUpdate');
    assert.equal((end.value as Any).status.state, TaskState.TASK_STATE_COMPLETED);

    const done = asTask(await client.getTask({ tenant: '', id: sent.id }));
    assert.equal(stateOf(done), TaskState.TASK_STATE_COMPLETED);
    const files = done.artifacts.filter((a) => a.parts[0]?.content?.$case === 'url');
    assert.equal(files.length, 6, 'three candidates and the series of three');
    for (const a of files.slice(0, 2)) {
      const res = await fetch(String(a.parts[0]!.content!.value));
      assert.equal(res.status, 200, 'the signed URL downloads without a token');
      assert.match(res.headers.get('content-type') ?? '', /^image\//);
      assert.ok((await res.arrayBuffer()).byteLength > 0);
    }
    // A finished task takes no message by its id; its context continues the work in a next round.
    await assert.rejects(client.sendMessage(message('one more, in green', { taskId: sent.id, returnImmediately: true })), /ended/);
    const next = asTask(await client.sendMessage(message('one more, in green', { contextId: sent.contextId, returnImmediately: true })));
    assert.notEqual(next.id, sent.id);
    assert.equal(next.contextId, sent.contextId, 'the next round is in the same context');
    await client.cancelTask({ tenant: '', id: next.id, metadata: undefined });
  });

  test('an input-required task is answered by the client’s next message', async () => {
    const sent = asTask(await client.sendMessage(message('Tea posters\nmake a poster series for a tea brand', { returnImmediately: true })));
    await waitFor(async () => stateOf(asTask(await client.getTask({ tenant: '', id: sent.id }))) === TaskState.TASK_STATE_INPUT_REQUIRED, 'the plan card', {
      timeoutMs: 30_000,
      intervalMs: 100,
    });
    const answered = asTask(await client.sendMessage(message('skip the plan, go ahead with warm colours', { taskId: sent.id, returnImmediately: true })));
    assert.equal(answered.id, sent.id);
    assert.notEqual(stateOf(answered), TaskState.TASK_STATE_INPUT_REQUIRED, 'the message answered the card');
    const plan = await t.app.deps.prisma.approval.findFirstOrThrow({ where: { taskId: rawId(sent.id), kind: 'PLAN' } });
    assert.notEqual(plan.status, 'PENDING');
    const received = await t.app.deps.prisma.taskEvent.count({ where: { taskId: rawId(sent.id), type: 'MESSAGE_RECEIVED' } });
    assert.equal(received, 1, 'the message reached the task, as a person’s message in the studio does');
    await client.cancelTask({ tenant: '', id: sent.id, metadata: undefined });
  });
});

// A quiet app: no worker, so a task stays QUEUED and moves only by what the test appends.
describe('streams, cancel, errors and push on a quiet app', () => {
  let q: TestApp;
  let client: Client;
  let receiver: Server;
  let receiverUrl: string;
  const received: { headers: Record<string, string>; body: string }[] = [];
  before(async () => {
    q = await startTestApp('a2aquiet', { eventPollMs: 300 });
    client = await a2aClient(q.url, q.a.ownerToken);
    receiver = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push({ headers: req.headers as Record<string, string>, body: Buffer.concat(chunks).toString('utf8') });
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', () => r()));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/a2a-hook`;
  });
  after(async () => {
    await q?.close();
    await new Promise<void>((r) => receiver?.close(() => r()));
  });

  const quietTask = async (title: string) => {
    const viewer = await authenticateToken(q.app.deps.prisma, q.a.ownerToken);
    const task = await createTask(q.app.deps, viewer, { workspaceId: q.a.workspaceId, title, goal: 'stays queued: this app runs no worker' });
    return { raw: task.id, id: toGlobalId('Task', task.id) };
  };
  const milestone = (taskId: string, summary: string) => appendNow(q.app.deps, taskId, [{ type: 'TASK_UPDATED', actor: { kind: 'SYSTEM' }, payload: { summary } }]);
  /** The seqs of the events an A2A follower reports: milestones and changes of state. */
  const milestoneSeqs = async (taskId: string, after: number) =>
    (await q.app.deps.prisma.taskEvent.findMany({ where: { taskId, seq: { gt: after } }, orderBy: { seq: 'asc' }, select: { seq: true, type: true } }))
      .filter((e) => visibilityOf(e.type) === 'MILESTONE' || e.type.startsWith('APPROVAL_'))
      .map((e) => e.seq);

  test('a dropped stream, resubscribed from its last update, loses and doubles nothing', async () => {
    const task = await quietTask('Followed across a disconnect');
    const ac = new AbortController();
    const first = drain(client.resubscribeTask({ tenant: '', id: task.id }, { signal: ac.signal }));
    await waitFor(() => first.got.length > 0, 'the task snapshot');
    const snapshot = first.got[0]!.payload!;
    assert.equal(snapshot.$case, 'task');
    const from = Number((snapshot.value as A2aTask).metadata?.['atelier/lastEventSeq']);
    await milestone(task.raw, 'A');
    await milestone(task.raw, 'B');
    await waitFor(() => first.got.some((r) => statusText(r.payload!.value as Any).includes('B')), 'B on the first stream');
    ac.abort();
    assert.equal(await first.done, null);
    const seen1 = first.got.map(seqOf).filter((s): s is number => s !== null);

    // Away: the task moves on.
    await milestone(task.raw, 'C');
    await milestone(task.raw, 'D');
    const lastSeen = seen1.at(-1)!;
    const second = drain(client.resubscribeTask({ tenant: '', id: task.id }, { serviceParameters: { 'Last-Event-ID': String(lastSeen) } }));
    await waitFor(() => second.got.some((r) => statusText(r.payload!.value as Any).includes('D')), 'C and D replayed');
    await milestone(task.raw, 'E');
    await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    assert.equal(await second.done, null, 'the stream ends with the task');
    const seen2 = second.got.map(seqOf).filter((s): s is number => s !== null);

    const all = [...seen1, ...seen2];
    assert.deepEqual(all, [...new Set(all)].sort((a, b) => a - b), 'every update once, in order, across the two connections');
    assert.deepEqual(all, await milestoneSeqs(task.raw, from), 'nothing lost: every milestone after the first snapshot');
    const final = second.got.at(-1)!.payload!;
    assert.equal((final.value as Any).status.state, TaskState.TASK_STATE_CANCELED);
    const replayed = second.got.map((r) => statusText(r.payload!.value as Any)).filter((x) => / [CDE]$/.test(x));
    assert.deepEqual(replayed.map((x) => x.at(-1)), ['C', 'D', 'E'], 'what happened while away, then what came after');
  });

  test('message/stream starts a task and streams it; the stream ends when the client leaves', async () => {
    const ac = new AbortController();
    const s = drain(client.sendMessageStream(message('A streamed poster\nfor the quiet app'), { signal: ac.signal }));
    await waitFor(() => s.got.length > 0, 'the task first');
    const task = s.got[0]!.payload!.value as A2aTask;
    assert.equal(s.got[0]!.payload!.$case, 'task');
    assert.equal(stateOf(task), TaskState.TASK_STATE_WORKING, 'QUEUED is working');
    await milestone(rawId(task.id), 'streamed one');
    await waitFor(() => s.got.some((r) => statusText(r.payload!.value as Any).includes('streamed one')), 'the milestone streamed');
    ac.abort();
    assert.equal(await s.done, null);
    await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
  });

  test('cancel: canceled, twice is fine, an ended task is not cancelable; other workspaces and bad input find nothing and change nothing', async () => {
    const task = await quietTask('To be cancelled');
    const cancelled = await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    assert.equal(stateOf(cancelled), TaskState.TASK_STATE_CANCELED);
    assert.equal((await q.app.deps.prisma.task.findUniqueOrThrow({ where: { id: task.raw } })).status, 'CANCELLED');
    assert.equal(stateOf(await client.cancelTask({ tenant: '', id: task.id, metadata: undefined })), TaskState.TASK_STATE_CANCELED);
    await q.app.deps.prisma.task.update({ where: { id: (await quietTask('Done already')).raw }, data: { status: 'COMPLETED' } });
    const done = await q.app.deps.prisma.task.findFirstOrThrow({ where: { title: 'Done already' } });
    await assert.rejects(client.cancelTask({ tenant: '', id: toGlobalId('Task', done.id), metadata: undefined }), (e: Error) => e.name === 'TaskNotCancelableError');

    const other = await a2aClient(q.url, q.b.ownerToken);
    const live = await quietTask('Not yours');
    await assert.rejects(other.getTask({ tenant: '', id: live.id }), (e: Error) => e.name === 'TaskNotFoundError');
    await assert.rejects(other.cancelTask({ tenant: '', id: live.id, metadata: undefined }), (e: Error) => e.name === 'TaskNotFoundError');
    await assert.rejects(other.sendMessage(message('hello', { taskId: live.id })), (e: Error) => e.name === 'TaskNotFoundError');
    await assert.rejects(client.getTask({ tenant: '', id: 'not-an-id' }), (e: Error) => e.name === 'TaskNotFoundError');

    const before = await q.app.deps.prisma.task.count();
    const empty = SendMessageRequest.fromJSON({ message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [] } });
    await assert.rejects(client.sendMessage(empty), (e: Error) => e.name === 'RequestMalformedError');
    const reader = await a2aClient(q.url, q.a.readToken);
    await assert.rejects(reader.sendMessage(message('a reader cannot start work', { returnImmediately: true })), /FORBIDDEN/);
    assert.equal(await q.app.deps.prisma.task.count(), before, 'nothing was created');
    assert.equal((await q.app.deps.prisma.task.findUniqueOrThrow({ where: { id: live.raw } })).status, 'QUEUED');
  });

  test('the same message id twice starts one task; ListTasks shows it', async () => {
    const messageId = randomUUID();
    const a = asTask(await client.sendMessage(message('Idempotent poster', { messageId, returnImmediately: true })));
    const b = asTask(await client.sendMessage(message('Idempotent poster', { messageId, returnImmediately: true })));
    assert.equal(a.id, b.id);
    const listed = await client.listTasks({ tenant: '', contextId: '', status: 0, pageSize: 50, pageToken: '', statusTimestampAfter: undefined });
    assert.equal(listed.tasks.filter((x) => x.id === a.id).length, 1, 'listed once');
    await client.cancelTask({ tenant: '', id: a.id, metadata: undefined });
  });

  test('push notifications: set, get, list, delete; callbacks signed the Standard Webhooks way', async () => {
    const task = await quietTask('Pushed');
    const secret = `whsec_${randomBytes(32).toString('base64')}`;
    await assert.rejects(
      client.createTaskPushNotificationConfig({ tenant: '', id: 'bad', taskId: task.id, url: receiverUrl, token: 'plain-token', authentication: undefined }),
      (e: Error) => e.name === 'RequestMalformedError',
    );
    await assert.rejects(
      client.createTaskPushNotificationConfig({ tenant: '', id: 'bad', taskId: task.id, url: 'http://evil.example/hook', token: secret, authentication: undefined }),
      (e: Error) => e.name === 'RequestMalformedError',
    );
    const set = await client.createTaskPushNotificationConfig({ tenant: '', id: 'hook-1', taskId: task.id, url: receiverUrl, token: secret, authentication: undefined });
    assert.equal(set.id, 'hook-1');
    assert.equal(set.token, '', 'the secret is never read back');
    assert.equal((await client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'hook-1' })).url, receiverUrl);
    assert.deepEqual((await client.listTaskPushNotificationConfig({ tenant: '', taskId: task.id, pageSize: 0, pageToken: '' })).configs.map((c) => c.id), ['hook-1']);

    await milestone(task.raw, 'pushed one');
    await client.cancelTask({ tenant: '', id: task.id, metadata: undefined });
    const mine = () => received.filter((r) => r.body.includes(task.id));
    await waitFor(() => mine().some((r) => JSON.parse(r.body).task?.status?.state === 'TASK_STATE_CANCELED'), 'the final callback');
    const wh = new Webhook(secret);
    for (const r of mine()) {
      wh.verify(r.body, { 'webhook-id': r.headers['webhook-id']!, 'webhook-timestamp': r.headers['webhook-timestamp']!, 'webhook-signature': r.headers['webhook-signature']! });
    }
    const ids = mine().map((r) => r.headers['webhook-id']);
    assert.equal(new Set(ids).size, ids.length, 'each callback has its own id');
    assert.ok(mine().some((r) => JSON.parse(r.body).statusUpdate && r.body.includes('pushed one')));
    assert.throws(() => new Webhook(`whsec_${randomBytes(32).toString('base64')}`).verify(mine()[0]!.body, mine()[0]!.headers as Any), 'another secret does not verify');

    await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'hook-1' });
    await assert.rejects(client.getTaskPushNotificationConfig({ tenant: '', taskId: task.id, id: 'hook-1' }), (e: Error) => e.name === 'TaskNotFoundError');
  });

  test('v0.3 clients: message/send and tasks/get without the version header', async () => {
    const rpc = async (method: string, params: unknown) => {
      const res = await fetch(`${q.url}/a2a`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${q.a.ownerToken}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
      });
      assert.equal(res.status, 200);
      return (await res.json()) as Any;
    };
    const sent = await rpc('message/send', { message: { kind: 'message', messageId: randomUUID(), role: 'user', parts: [{ kind: 'text', text: 'A legacy poster' }] }, configuration: { blocking: false } });
    assert.equal(sent.result.kind, 'task', JSON.stringify(sent));
    assert.equal(sent.result.status.state, 'working');
    const got = await rpc('tasks/get', { id: sent.result.id });
    assert.equal(got.result.id, sent.result.id);
    const cancelled = await rpc('tasks/cancel', { id: sent.result.id });
    assert.equal(cancelled.result.status.state, 'canceled');
    const missing = await rpc('tasks/get', { id: toGlobalId('Task', randomUUID()) });
    assert.equal(missing.error.code, -32001);
  });
});
