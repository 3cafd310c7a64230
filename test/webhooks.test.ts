// Webhooks end to end: the real API, an in-process worker (dispatcher and send queue) on a per-file
// database, and a real HTTP receiver on 127.0.0.1 (node:http) whose answers each test scripts.
// Deliveries are checked the way an integrator would: the signature with standardwebhooks'
// Webhook.verify, the body's ids and cursor against the API, the attempt log through GraphQL.
import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, test } from 'node:test';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { createToken } from '../server/auth/create-token.ts';
import { transactWithEvents } from '../server/channel/unit-of-work.ts';
import type { NewEvent } from '../server/channel/types.ts';
import { WITHHELD_TEXT } from '../server/domain/sealing.ts';
import { dispatchPage } from '../server/services/webhooks/dispatch.ts';
import { advanceEndpoint } from '../server/store/webhooks/dispatch.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';

const CreateEndpoint = graphql(`
  mutation WebhookCreate($input: CreateWebhookEndpointInput!) {
    createWebhookEndpoint(input: $input) {
      secret
      endpoint { id url description enabled eventTypes visibilities cursor secrets { hint current expiresAt } }
    }
  }
`);
const UpdateEndpoint = graphql(`
  mutation WebhookUpdate($input: UpdateWebhookEndpointInput!) {
    updateWebhookEndpoint(input: $input) { endpoint { id url enabled eventTypes visibilities } }
  }
`);
const DeleteEndpoint = graphql(`
  mutation WebhookDelete($input: DeleteWebhookEndpointInput!) {
    deleteWebhookEndpoint(input: $input) { deletedEndpointId }
  }
`);
const RotateSecret = graphql(`
  mutation WebhookRotate($input: RotateWebhookSecretInput!) {
    rotateWebhookSecret(input: $input) { secret endpoint { id secrets { hint current expiresAt } } }
  }
`);
const Redeliver = graphql(`
  mutation WebhookRedeliver($input: RedeliverWebhookInput!) {
    redeliverWebhook(input: $input) { delivery { id webhookId series status attemptCount } }
  }
`);
const SendTest = graphql(`
  mutation WebhookPing($input: SendTestWebhookInput!) {
    sendTestWebhook(input: $input) { delivery { id webhookId kind eventType status } }
  }
`);
const Endpoints = graphql(`
  query WebhookEndpoints($id: ID!) {
    workspace(id: $id) { webhookEndpoints(first: 50) { edges { node { id url secrets { hint } } } } }
  }
`);
const Deliveries = graphql(`
  query WebhookDeliveries($id: ID!, $endpointId: ID, $statuses: [WebhookDeliveryStatus!]) {
    workspace(id: $id) {
      webhookDeliveries(first: 100, endpointId: $endpointId, statuses: $statuses) {
        edges {
          node {
            id webhookId kind eventType eventId eventSeq eventCursor status series attemptCount lastStatusCode lastError
            nextAttemptAt deliveredAt task { id } endpoint { id }
            attempts { series number statusCode succeeded error durationMs responseBody startedAt }
          }
        }
      }
    }
  }
`);
const DeliveryNode = graphql(`
  query WebhookDeliveryNode($id: ID!) {
    node(id: $id) {
      __typename
      ... on WebhookDelivery { id status series attemptCount lastStatusCode lastError attempts { series number statusCode error } }
    }
  }
`);
const EndpointNode = graphql(`
  query WebhookEndpointNode($id: ID!) { node(id: $id) { __typename ... on WebhookEndpoint { id url } } }
`);
const EventsOfTask = graphql(`
  query WebhookTaskEvents($id: ID!) {
    task(id: $id) { events(first: 500) { edges { node { id seq cursor type payload redacted ... on TaskUpdatedEvent { title summary inputPolicy } } } } }
  }
`);

// ---------------------------------------------------------------------------------------------
// A real receiver: one node:http server, a route per endpoint, each answering as its test scripts.

type Received = { headers: Record<string, string>; body: string; json: any; at: number };
type Answer = { status: number; body?: string } | 'hang';
type Route = { requests: Received[]; open: number; answer: (r: Received, n: number) => Answer | Promise<Answer> };

class Receiver {
  private server!: Server;
  private readonly routes = new Map<string, Route>();
  private readonly sockets = new Set<ServerResponse>();
  base = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.base = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  /** A new route (and the URL an endpoint posts to) answering with `answer`; 200 by default. */
  route(answer: Route['answer'] = () => ({ status: 200, body: 'ok' })): { url: string; r: Route } {
    const path = `/hooks/${randomUUID()}`;
    const r: Route = { requests: [], open: 0, answer };
    this.routes.set(path, r);
    return { url: `${this.base}${path}`, r };
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const route = this.routes.get(req.url ?? '');
    if (!route) return void res.writeHead(404).end('no such route');
    const body = Buffer.concat(chunks).toString('utf8');
    const received: Received = { headers: req.headers as Record<string, string>, body, json: JSON.parse(body), at: Date.now() };
    route.requests.push(received);
    route.open++;
    this.sockets.add(res);
    res.on('close', () => {
      route.open--;
      this.sockets.delete(res);
    });
    const a = await route.answer(received, route.requests.length);
    if (a === 'hang') return; // never answered: the sender's timeout ends it
    res.writeHead(a.status, { 'content-type': 'text/plain' }).end(a.body ?? '');
  }

  async stop(): Promise<void> {
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((r) => this.server.close(() => r()));
  }
}

// ---------------------------------------------------------------------------------------------

const TIMEOUT_MS = 500;
const MAX_ATTEMPTS = 3;

let t: TestApp;
let rx: Receiver;
let wsGid: string;
let taskId: string;
let taskGid: string;
let memberToken: string;
const endpoints: string[] = [];

before(async () => {
  t = await startTestApp(
    'webhooks',
    {
      // Fast retries and a short timeout, so failing and hanging receivers settle within seconds.
      webhooks: { timeoutMs: TIMEOUT_MS, maxAttempts: MAX_ATTEMPTS, retryBaseMs: 50, retryMaxMs: 200, secretGraceSeconds: 86_400, concurrency: 4 },
      eventPollMs: 250,
    },
    {},
    { worker: { concurrency: 1 } },
  );
  rx = new Receiver();
  await rx.start();
  wsGid = toGlobalId('Workspace', t.a.workspaceId);
  const prisma = t.app.deps.prisma;
  taskId = (await quietTask('Webhook poster')).id;
  taskGid = toGlobalId('Task', taskId);
  const member = await prisma.user.create({ data: { email: 'member-webhooks@example.test', name: 'Member' } });
  await prisma.membership.create({ data: { workspaceId: t.a.workspaceId, userId: member.id, role: 'MEMBER' } });
  memberToken = (await createToken(prisma, { workspaceId: t.a.workspaceId, userId: member.id, name: 'member', scopes: ['READ', 'WRITE', 'APPROVE'] })).token;
});

// Every endpoint receives every event of the workspace: each test removes its own, so the next
// test's events reach only the endpoints it makes.
afterEach(async () => {
  for (const id of endpoints.splice(0)) await gql(t.url, t.a.ownerToken, DeleteEndpoint, { input: { endpointId: id } });
});

after(async () => {
  await rx?.stop();
  await t?.close();
});

/** A task row with no turn behind it: the only events in its log are the ones a test appends. */
function quietTask(title: string) {
  return t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, createdById: t.a.ownerId, title } });
}

async function createEndpoint(url: string, extra: { eventTypes?: NewEvent['type'][]; visibilities?: ('MILESTONE' | 'DETAIL')[]; description?: string } = {}) {
  const d = await gqlOk(t.url, t.a.ownerToken, CreateEndpoint, { input: { workspaceId: wsGid, url, ...extra } });
  endpoints.push(d.createWebhookEndpoint.endpoint.id);
  return { id: d.createWebhookEndpoint.endpoint.id, secret: d.createWebhookEndpoint.secret, endpoint: d.createWebhookEndpoint.endpoint };
}

/** Appends one event in a transaction of its own (as the product does), committed when this returns. */
async function emit(type: NewEvent['type'], payload: unknown, opts: { redaction?: 'PUBLIC' | 'PRIVATE'; actor?: 'USER' | 'AGENT' | 'SYSTEM' } = {}) {
  const { events } = await transactWithEvents(t.app.deps, async (_tx, e) => {
    e(taskId, { type, actor: { kind: opts.actor ?? 'SYSTEM' }, payload, ...(opts.redaction ? { redaction: opts.redaction } : {}) });
  });
  return events[0]!;
}

async function deliveries(endpointId: string, statuses?: ('PENDING' | 'DELIVERED' | 'DEAD')[]) {
  const d = await gqlOk(t.url, t.a.ownerToken, Deliveries, { id: wsGid, endpointId, ...(statuses ? { statuses } : {}) });
  return d.workspace.webhookDeliveries.edges.map((e) => e.node);
}

async function deliveryOf(endpointId: string, seq: number) {
  return (await deliveries(endpointId)).find((d) => d.eventSeq === seq);
}

const verify = (secret: string, r: Received) => new Webhook(secret).verify(r.body, r.headers);

/** The endpoint has looked at the log up to `position` (its cursor is at or past it). */
async function dispatchedThrough(endpointId: string, position: number) {
  const e = await t.app.deps.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: fromGlobalId(endpointId).id } });
  return Number(e.eventCursor) >= position;
}

async function positionOf(seq: number): Promise<number> {
  const e = await waitFor(
    () => t.app.deps.prisma.taskEvent.findFirst({ where: { workspaceId: t.a.workspaceId, taskId, seq, NOT: { position: null } } }),
    `event ${seq} sequenced`,
  );
  return Number(e.position);
}

// ---------------------------------------------------------------------------------------------

describe('managing endpoints', () => {
  test('a bad URL is BAD_USER_INPUT with a plain sentence, and creates nothing', async () => {
    const count = () => t.app.deps.prisma.webhookEndpoint.count();
    const before = await count();
    const cases: [string, RegExp][] = [
      ['http://example.com/hook', /https:\/\/.*plain http:\/\/ is accepted only for 127\.0\.0\.1, ::1 and localhost/],
      ['ftp://example.com/hook', /must be an https:\/\/ address/],
      ['not a url', /not an absolute URL/],
      ['https://user:pw@example.com/hook', /must not contain a user name or password/],
      [`https://example.com/${'x'.repeat(2100)}`, /at most 2048 characters/],
    ];
    for (const [url, message] of cases) {
      const r = await gql(t.url, t.a.ownerToken, CreateEndpoint, { input: { workspaceId: wsGid, url } });
      assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', url);
      assert.match(r.errors![0]!.message, message);
      assert.doesNotMatch(r.errors![0]!.message, /\n|at .*\.ts|SELECT|prisma/i, 'a sentence, no stack or SQL');
      assert.equal(r.data ?? null, null);
    }
    // Event types are the TaskEventType enum: an unknown one is refused before anything runs.
    const types = await gql(t.url, t.a.ownerToken, CreateEndpoint, { input: { workspaceId: wsGid, url: 'https://example.com/h', eventTypes: ['TASK_UPDATED', 'NOPE' as 'NOTE'] } });
    assert.equal(types.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.match(types.errors![0]!.message, /NOPE/);
    const none = await gql(t.url, t.a.ownerToken, CreateEndpoint, { input: { workspaceId: wsGid, url: 'https://example.com/h', eventTypes: ['NOTE'], visibilities: ['MILESTONE'] } });
    assert.equal(none.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.match(none.errors![0]!.message, /select no event/);
    assert.equal(await count(), before);
    // The loopback hosts may use plain http; https is fine anywhere.
    for (const url of ['http://localhost:9/h', 'http://[::1]:9/h', 'https://hooks.example.com/atelier']) {
      const ok = await createEndpoint(url);
      assert.equal(ok.endpoint.url, url);
    }
    const upd = await gql(t.url, t.a.ownerToken, UpdateEndpoint, { input: { endpointId: endpoints[0]!, url: 'http://10.0.0.8/h' } });
    assert.equal(upd.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const row = await t.app.deps.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: fromGlobalId(endpoints[0]!).id } });
    assert.equal(row.url, 'http://localhost:9/h', 'a refused update changes nothing');
  });

  test('only owners manage and see endpoints: a member is FORBIDDEN, another workspace gets NOT_FOUND', async () => {
    const mine = await createEndpoint(rx.route().url);
    const count = await t.app.deps.prisma.webhookEndpoint.count();
    const asMember = await gql(t.url, memberToken, CreateEndpoint, { input: { workspaceId: wsGid, url: 'https://example.com/h' } });
    assert.equal(asMember.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    const refused = [
      await gql(t.url, memberToken, UpdateEndpoint, { input: { endpointId: mine.id, enabled: false } }),
      await gql(t.url, memberToken, RotateSecret, { input: { endpointId: mine.id } }),
      await gql(t.url, memberToken, SendTest, { input: { endpointId: mine.id } }),
      await gql(t.url, memberToken, DeleteEndpoint, { input: { endpointId: mine.id } }),
    ];
    assert.deepEqual(refused.map((r) => r.errors?.[0]?.extensions?.code), ['FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN', 'FORBIDDEN']);
    const list = await gql(t.url, memberToken, Endpoints, { id: wsGid });
    assert.equal(list.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    assert.equal((await gql(t.url, t.a.viewerToken, Endpoints, { id: wsGid })).errors?.[0]?.extensions?.code, 'FORBIDDEN');
    // node(id) of an endpoint is null for whoever may not read it.
    assert.equal((await gqlOk(t.url, memberToken, EndpointNode, { id: mine.id })).node, null);
    assert.equal((await gqlOk(t.url, t.b.ownerToken, EndpointNode, { id: mine.id })).node, null);
    assert.equal((await gqlOk(t.url, t.a.ownerToken, EndpointNode, { id: mine.id })).node?.__typename, 'WebhookEndpoint');
    const other = await gql(t.url, t.b.ownerToken, UpdateEndpoint, { input: { endpointId: mine.id, enabled: false } });
    assert.equal(other.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    assert.equal(await t.app.deps.prisma.webhookEndpoint.count(), count);
    const row = await t.app.deps.prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: fromGlobalId(mine.id).id } });
    assert.equal(row.enabled, true);
  });

  test('the secret is returned once; afterwards only its hint is readable', async () => {
    const { id, secret, endpoint } = await createEndpoint(rx.route().url);
    assert.match(secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.equal(fromGlobalId(id).type, 'WebhookEndpoint');
    assert.deepEqual(endpoint.secrets.map((s) => [s.hint, s.current]), [[`${secret.slice(0, 10)}…`, true]]);
    const listed = JSON.stringify(await gqlOk(t.url, t.a.ownerToken, Endpoints, { id: wsGid }));
    assert.ok(listed.includes(fromGlobalId(id).id) || listed.includes(id));
    assert.ok(!listed.includes(secret.slice(6)), 'the secret is not in any read');
  });
});

describe('deliveries', () => {
  test('a delivery is signed the Standard Webhooks way and carries the event as the API shows it', async () => {
    const { url, r } = rx.route(() => ({ status: 200, body: 'thanks' }));
    const { id, secret } = await createEndpoint(url, { description: 'integration test' });
    const ev = await emit('TASK_UPDATED', { title: 'Autumn poster', changed: ['title'] });
    await waitFor(() => r.requests.length >= 1, 'the delivery to arrive');
    const got = r.requests[0]!;
    // webhook-id, webhook-timestamp, webhook-signature: verified by the reference library.
    const body = verify(secret, got) as any;
    assert.match(got.headers['webhook-id']!, /^msg_[0-9a-f]{32}$/);
    assert.ok(Math.abs(Number(got.headers['webhook-timestamp']) - Date.now() / 1000) < 60);
    assert.equal(got.headers['content-type'], 'application/json');
    assert.equal(body.type, 'TASK_UPDATED');
    assert.equal(body.timestamp, ev.occurredAt.toISOString());
    // The same event through the API: global ids, seq, cursor and payload agree.
    const apiEvent = (await gqlOk(t.url, t.a.ownerToken, EventsOfTask, { id: taskGid })).task!.events.edges.map((e) => e.node).find((e) => e.seq === ev.seq)!;
    assert.deepEqual(body.data, {
      id: apiEvent.id,
      taskId: taskGid,
      workspaceId: wsGid,
      seq: ev.seq,
      type: 'TASK_UPDATED',
      visibility: 'MILESTONE',
      occurredAt: ev.occurredAt.toISOString(),
      cursor: apiEvent.cursor,
      redacted: false,
      // The typed fields of the event's type, as the API shows them.
      fields: {
        title: (apiEvent as { title?: string }).title,
        summary: (apiEvent as { summary?: string | null }).summary ?? null,
        inputPolicy: (apiEvent as { inputPolicy?: string | null }).inputPolicy ?? null,
      },
      payload: apiEvent.payload,
      withheld: null,
    });
    assert.equal(body.data.fields.title, 'Autumn poster');
    assert.deepEqual(body.data.payload, { title: 'Autumn poster', changed: ['title'] });
    // Recorded: delivered at the first attempt, the attempt logged with the receiver's answer.
    const d = await waitFor(async () => {
      const x = await deliveryOf(id, ev.seq);
      return x?.status === 'DELIVERED' && x;
    }, 'the delivery recorded as DELIVERED');
    assert.equal(d.webhookId, got.headers['webhook-id']);
    assert.equal(d.kind, 'EVENT');
    assert.equal(d.eventId, apiEvent.id);
    assert.equal(d.eventCursor, apiEvent.cursor);
    assert.equal(d.task?.id, taskGid);
    assert.equal(d.attemptCount, 1);
    assert.deepEqual(d.attempts.map((a) => [a.series, a.number, a.statusCode, a.succeeded, a.error, a.responseBody]), [[1, 1, 200, true, null, 'thanks']]);
    assert.ok(d.attempts[0]!.durationMs >= 0);
  });

  test('a receiver that fails (500) gets retries with the same webhook-id, then succeeds; each attempt is logged', async () => {
    const long = 'e'.repeat(5000);
    const { url, r } = rx.route((_req, n) => (n <= 2 ? { status: 500, body: long } : { status: 204 }));
    const { id, secret } = await createEndpoint(url);
    const ev = await emit('TASK_UPDATED', { title: 'retry me' });
    const d = await waitFor(async () => {
      const x = await deliveryOf(id, ev.seq);
      return x?.status === 'DELIVERED' && x;
    }, 'the delivery to succeed at the third attempt');
    assert.equal(r.requests.length, 3);
    assert.equal(new Set(r.requests.map((q) => q.headers['webhook-id'])).size, 1, 'one webhook-id across retries');
    for (const q of r.requests) verify(secret, q);
    const attempts = [...d.attempts].reverse();
    assert.deepEqual(attempts.map((a) => [a.number, a.statusCode, a.succeeded]), [[1, 500, false], [2, 500, false], [3, 204, true]]);
    assert.equal(attempts[0]!.error, 'The receiver answered 500');
    assert.equal(attempts[0]!.responseBody, 'e'.repeat(1024), 'the answer is kept up to 1 KB');
    assert.equal(attempts[2]!.error, null);
    // The retries waited: later attempts started after earlier ones.
    assert.ok(Date.parse(attempts[1]!.startedAt) >= Date.parse(attempts[0]!.startedAt));
    assert.equal(d.lastStatusCode, 204);
    assert.ok(d.deliveredAt);
  });

  test('a receiver that always fails ends DEAD after the last attempt, with every attempt logged', async () => {
    const { url, r } = rx.route(() => ({ status: 503, body: 'down for maintenance' }));
    const { id } = await createEndpoint(url);
    const ev = await emit('TASK_UPDATED', { title: 'never' });
    const d = await waitFor(async () => {
      const x = await deliveryOf(id, ev.seq);
      return x?.status === 'DEAD' && x;
    }, 'the delivery to be dead-lettered');
    assert.equal(r.requests.length, MAX_ATTEMPTS);
    assert.equal(d.attemptCount, MAX_ATTEMPTS);
    assert.equal(d.lastStatusCode, 503);
    assert.equal(d.lastError, 'The receiver answered 503');
    assert.equal(d.nextAttemptAt, null);
    assert.deepEqual([...d.attempts].reverse().map((a) => [a.number, a.statusCode, a.responseBody]), [1, 2, 3].map((n) => [n, 503, 'down for maintenance']));
    // The dead-letter list.
    assert.deepEqual((await deliveries(id, ['DEAD'])).map((x) => x.id), [d.id]);
    assert.deepEqual(await deliveries(id, ['PENDING', 'DELIVERED']), []);
  });

  test('a receiver that never answers times out and is retried', async () => {
    const { url, r } = rx.route((_req, n) => (n === 1 ? 'hang' : { status: 200 }));
    const { id } = await createEndpoint(url);
    const ev = await emit('TASK_UPDATED', { title: 'slow' });
    const d = await waitFor(async () => {
      const x = await deliveryOf(id, ev.seq);
      return x?.status === 'DELIVERED' && x;
    }, 'the delivery after a timed-out attempt');
    const [second, first] = d.attempts;
    assert.equal(first!.statusCode, null);
    assert.equal(first!.error, `The receiver did not answer within ${TIMEOUT_MS} ms`);
    assert.ok(first!.durationMs >= TIMEOUT_MS - 50, `the attempt waited for the timeout (${first!.durationMs} ms)`);
    assert.equal(second!.statusCode, 200);
    assert.equal(r.requests.length, 2);
    await waitFor(() => r.open === 0, 'the timed-out request to be closed by the sender');
  });

  test('a receiver answering out of order: a held delivery does not hold the next, and the cursors put them back in order', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { url, r } = rx.route(async (req) => {
      if (req.json.data.payload.n === 1) await held;
      return { status: 200 };
    });
    const { id } = await createEndpoint(url);
    const e1 = await emit('TASK_UPDATED', { n: 1 });
    const e2 = await emit('TASK_UPDATED', { n: 2 });
    // The second is delivered while the first is still unanswered.
    await waitFor(async () => (await deliveryOf(id, e2.seq))?.status === 'DELIVERED', 'the second delivery to succeed first');
    assert.equal((await deliveryOf(id, e1.seq))?.status, 'PENDING');
    release();
    await waitFor(async () => (await deliveryOf(id, e1.seq))?.status === 'DELIVERED', 'the first delivery to succeed');
    // The receiver reorders by cursor (and seq): the order of the log.
    const pos = (c: string) => Number(Buffer.from(c, 'base64url').toString('utf8').split(':')[2]);
    const ordered = [...r.requests].sort((a, b) => pos(a.json.data.cursor) - pos(b.json.data.cursor)).map((q) => q.json.data.seq);
    assert.deepEqual(ordered, [e1.seq, e2.seq]);
  });

  test('type and visibility filters select what an endpoint receives', async () => {
    const byType = rx.route();
    const byVisibility = rx.route();
    const both = rx.route();
    const a = await createEndpoint(byType.url, { eventTypes: ['TASK_UPDATED'] });
    const b = await createEndpoint(byVisibility.url, { visibilities: ['DETAIL'] });
    const c = await createEndpoint(both.url, { eventTypes: ['NOTE', 'TASK_UPDATED'], visibilities: ['MILESTONE'] });
    assert.deepEqual(a.endpoint.eventTypes, ['TASK_UPDATED']);
    assert.deepEqual(b.endpoint.visibilities, ['DETAIL']);
    const updated = await emit('TASK_UPDATED', { title: 'filtered' });
    const note = await emit('NOTE', { text: 'a detail' });
    const last = await positionOf(note.seq);
    await waitFor(async () => (await dispatchedThrough(a.id, last)) && (await dispatchedThrough(b.id, last)) && (await dispatchedThrough(c.id, last)), 'every endpoint to pass both events');
    const types = async (e: string) => (await deliveries(e)).map((d) => [d.eventType, d.eventSeq]);
    assert.deepEqual(await types(a.id), [['TASK_UPDATED', updated.seq]]);
    assert.deepEqual(await types(b.id), [['NOTE', note.seq]]);
    assert.deepEqual(await types(c.id), [['TASK_UPDATED', updated.seq]]);
    // Filters change for the events that come after.
    await gqlOk(t.url, t.a.ownerToken, UpdateEndpoint, { input: { endpointId: a.id, eventTypes: ['NOTE'] } });
    const note2 = await emit('NOTE', { text: 'now wanted' });
    await waitFor(async () => (await deliveryOf(a.id, note2.seq))?.status === 'DELIVERED', 'the NOTE after the change');
    await waitFor(() => byType.r.requests.length === 2, 'two requests at the type endpoint');
    assert.deepEqual(byType.r.requests.map((q) => q.json.type), ['TASK_UPDATED', 'NOTE']);
  });

  test('a disabled endpoint gets nothing; enabled again it gets the events from then on', async () => {
    const { url, r } = rx.route();
    const { id } = await createEndpoint(url);
    await gqlOk(t.url, t.a.ownerToken, UpdateEndpoint, { input: { endpointId: id, enabled: false } });
    const during = await emit('TASK_UPDATED', { title: 'while disabled' });
    const duringPos = await positionOf(during.seq);
    await gqlOk(t.url, t.a.ownerToken, UpdateEndpoint, { input: { endpointId: id, enabled: true } });
    assert.ok(await dispatchedThrough(id, duringPos), 'enabling starts after the head');
    const afterwards = await emit('TASK_UPDATED', { title: 'enabled' });
    await waitFor(() => r.requests.length >= 1, 'the event after enabling');
    assert.deepEqual(r.requests.map((q) => q.json.data.seq), [afterwards.seq]);
    assert.deepEqual((await deliveries(id)).map((d) => d.eventSeq), [afterwards.seq]);
    const nothing = await gql(t.url, t.a.ownerToken, UpdateEndpoint, { input: { endpointId: id } });
    assert.equal(nothing.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  });

  test('a private event is delivered without its payload', async () => {
    const { url, r } = rx.route();
    const { id, secret } = await createEndpoint(url);
    const ev = await emit('STEP_DECIDED', { content: 'the hidden prompt zq9private' }, { redaction: 'PRIVATE' });
    await waitFor(() => r.requests.length >= 1, 'the private event delivery');
    const body = verify(secret, r.requests[0]!) as any;
    assert.equal(body.data.seq, ev.seq);
    assert.equal(body.data.redacted, true);
    assert.equal(body.data.payload, null);
    assert.equal(body.data.fields, null);
    assert.ok(!r.requests[0]!.body.includes('zq9private'));
    await waitFor(async () => (await deliveryOf(id, ev.seq))?.status === 'DELIVERED', 'delivered');
  });

  test('sealed content is sent opened while its key lives, and as the withheld marker once it is destroyed — never in the clear otherwise', async () => {
    const prisma = t.app.deps.prisma;
    // A task whose content is sealed: its own data key (as memory in its context gives it).
    const sealedId = (await quietTask('Sealed work')).id;
    const sealedTask = toGlobalId('Task', sealedId);
    const key = await prisma.dataKey.create({ data: { workspaceId: t.a.workspaceId, taskId: sealedId, sources: [], sourcesHash: randomUUID(), material: randomBytes(32) } });
    await prisma.task.update({ where: { id: sealedId }, data: { sealingKeyId: key.id } });
    const { url, r } = rx.route();
    const { id, secret } = await createEndpoint(url);
    const { events } = await transactWithEvents(t.app.deps, async (_tx, e) => {
      e(sealedId, { type: 'NOTE', actor: { kind: 'AGENT' }, payload: { text: 'brand colour zorblaxmauve' } });
    });
    const ev = events[0]!;
    const stored = await prisma.taskEvent.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, taskId: sealedId, seq: ev.seq } });
    assert.ok(!JSON.stringify(stored.payload).includes('zorblaxmauve'), 'stored sealed');
    await waitFor(() => r.requests.length >= 1, 'the sealed event delivery');
    const opened = verify(secret, r.requests[0]!) as any;
    assert.deepEqual(opened.data.payload, { text: 'brand colour zorblaxmauve' });
    assert.equal(opened.data.withheld, null);
    // Forgetting destroys the key: a redelivery sends the marker, not the text.
    await prisma.dataKey.update({ where: { id: key.id }, data: { material: null, destroyedAt: new Date(), destroyedReason: 'FORGOTTEN' } });
    const d = await waitFor(async () => {
      const x = (await deliveries(id)).find((y) => y.eventSeq === ev.seq && y.task?.id === sealedTask);
      return x?.status === 'DELIVERED' && x;
    }, 'the first delivery recorded');
    await gqlOk(t.url, t.a.ownerToken, Redeliver, { input: { deliveryId: d.id } });
    await waitFor(() => r.requests.length >= 2, 'the redelivery');
    const withheld = verify(secret, r.requests[1]!) as any;
    assert.deepEqual(withheld.data.payload, { text: WITHHELD_TEXT });
    assert.equal(withheld.data.withheld.reason, 'FORGOTTEN_MEMORY');
    assert.ok(!r.requests[1]!.body.includes('zorblaxmauve'));
    assert.ok(!r.requests[1]!.body.includes('⟦sealed'), 'never the ciphertext either');
  });

  test('redelivery starts a new series with the same webhook-id', async () => {
    const { url, r } = rx.route();
    const { id, secret } = await createEndpoint(url);
    const ev = await emit('TASK_UPDATED', { title: 'again' });
    const first = await waitFor(async () => {
      const x = await deliveryOf(id, ev.seq);
      return x?.status === 'DELIVERED' && x;
    }, 'the first delivery');
    const again = await gqlOk(t.url, t.a.ownerToken, Redeliver, { input: { deliveryId: first.id } });
    assert.deepEqual([again.redeliverWebhook.delivery.series, again.redeliverWebhook.delivery.status, again.redeliverWebhook.delivery.attemptCount], [2, 'PENDING', 0]);
    assert.equal(again.redeliverWebhook.delivery.webhookId, first.webhookId);
    await waitFor(() => r.requests.length === 2, 'the redelivered request');
    assert.equal(r.requests[1]!.headers['webhook-id'], r.requests[0]!.headers['webhook-id']);
    verify(secret, r.requests[1]!);
    const after = await waitFor(async () => {
      const x = await deliveryOf(id, ev.seq);
      return x?.status === 'DELIVERED' && x.series === 2 && x;
    }, 'the second series delivered');
    assert.deepEqual(after.attempts.map((a) => [a.series, a.number, a.statusCode]), [[2, 1, 200], [1, 1, 200]]);
    // A dead delivery can be redelivered once the receiver is fixed.
    const broken = rx.route((_q, n) => (n <= MAX_ATTEMPTS ? { status: 500 } : { status: 200 }));
    const e2 = await createEndpoint(broken.url);
    const ev2 = await emit('TASK_UPDATED', { title: 'dead then fixed' });
    const dead = await waitFor(async () => {
      const x = await deliveryOf(e2.id, ev2.seq);
      return x?.status === 'DEAD' && x;
    }, 'dead-lettered');
    await gqlOk(t.url, t.a.ownerToken, Redeliver, { input: { deliveryId: dead.id } });
    await waitFor(async () => (await deliveryOf(e2.id, ev2.seq))?.status === 'DELIVERED', 'delivered after the redelivery');
    const node = (await gqlOk(t.url, t.a.ownerToken, DeliveryNode, { id: dead.id })).node;
    assert.ok(node?.__typename === 'WebhookDelivery');
    assert.equal(node.attempts.length, MAX_ATTEMPTS + 1);
    assert.equal((await gql(t.url, memberToken, Redeliver, { input: { deliveryId: dead.id } })).errors?.[0]?.extensions?.code, 'FORBIDDEN');
  });

  test('rotation: during the grace period old and new secrets both verify; after it only the new one', async () => {
    const { url, r } = rx.route();
    const { id, secret: oldSecret } = await createEndpoint(url);
    const rotated = await gqlOk(t.url, t.a.ownerToken, RotateSecret, { input: { endpointId: id, graceSeconds: 3600 } });
    const newSecret = rotated.rotateWebhookSecret.secret;
    assert.notEqual(newSecret, oldSecret);
    assert.deepEqual(rotated.rotateWebhookSecret.endpoint.secrets.map((s) => [s.hint, s.current, s.expiresAt !== null]), [
      [`${newSecret.slice(0, 10)}…`, true, false],
      [`${oldSecret.slice(0, 10)}…`, false, true],
    ]);
    const ping = await gqlOk(t.url, t.a.ownerToken, SendTest, { input: { endpointId: id } });
    assert.deepEqual([ping.sendTestWebhook.delivery.kind, ping.sendTestWebhook.delivery.eventType], ['PING', 'PING']);
    await waitFor(() => r.requests.length === 1, 'the test delivery');
    const during = r.requests[0]!;
    assert.equal(during.headers['webhook-signature']!.split(' ').length, 2);
    assert.equal((verify(oldSecret, during) as any).type, 'PING');
    assert.equal((verify(newSecret, during) as any).data.endpointId, id);
    // A short grace: once it has passed, deliveries carry the new signature only.
    const again = await gqlOk(t.url, t.a.ownerToken, RotateSecret, { input: { endpointId: id, graceSeconds: 1 } });
    const newest = again.rotateWebhookSecret.secret;
    const single = await waitFor(async () => {
      const n = r.requests.length;
      await gqlOk(t.url, t.a.ownerToken, SendTest, { input: { endpointId: id } });
      await waitFor(() => r.requests.length > n, 'a test delivery');
      const q = r.requests.at(-1)!;
      return q.headers['webhook-signature']!.split(' ').length === 1 && q;
    }, 'a delivery after the grace period', { timeoutMs: 15_000, intervalMs: 200 });
    verify(newest, single);
    for (const gone of [oldSecret, newSecret]) assert.throws(() => verify(gone, single), WebhookVerificationError);
    const listed = await gqlOk(t.url, t.a.ownerToken, Endpoints, { id: wsGid });
    const mine = listed.workspace.webhookEndpoints.edges.find((e) => e.node.id === id)!;
    assert.deepEqual(mine.node.secrets.map((s) => s.hint), [`${newest.slice(0, 10)}…`]);
    const bad = await gql(t.url, t.a.ownerToken, RotateSecret, { input: { endpointId: id, graceSeconds: -1 } });
    assert.equal(bad.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
  });
});

describe('after commit, never in the way', () => {
  test('the transaction that makes an event never waits on a slow receiver', async () => {
    const { url, r } = rx.route(() => 'hang');
    await createEndpoint(url);
    await emit('TASK_UPDATED', { title: 'first' });
    await waitFor(() => r.open >= 1, 'a request hanging at the receiver');
    const started = performance.now();
    const ev = await emit('TASK_UPDATED', { title: 'second, while the receiver hangs' });
    const took = performance.now() - started;
    // Committed while the receiver still holds the first request open.
    assert.ok(r.open >= 1, 'the receiver was still hanging when the append returned');
    assert.ok(took < TIMEOUT_MS, `the append took ${Math.round(took)} ms`);
    assert.ok(ev.seq > 0);
  });

  test('a dispatch that dies mid-way writes nothing, and a replayed one adds nothing: each event gets exactly one delivery', async () => {
    const prisma = t.app.deps.prisma;
    const { url, r } = rx.route();
    const { id } = await createEndpoint(url);
    const endpointId = fromGlobalId(id).id;
    const start = Number((await prisma.webhookEndpoint.findUniqueOrThrow({ where: { id: endpointId } })).eventCursor);
    const emitted: { seq: number }[] = [];
    let written: string[] = [];
    // A dispatch pass that dies after writing its deliveries: it holds the endpoint (so the worker's
    // dispatcher skips it meanwhile), writes, and its transaction ends without a commit.
    await assert.rejects(
      prisma.$transaction(
        async (tx) => {
          await tx.$queryRaw`SELECT id FROM webhook_endpoints WHERE workspace_id = ${t.a.workspaceId}::uuid AND id = ${endpointId}::uuid FOR UPDATE`;
          for (let i = 0; i < 5; i++) emitted.push(await emit('TASK_UPDATED', { i }));
          await positionOf(emitted.at(-1)!.seq);
          const moved = await advanceEndpoint(tx, { workspaceId: t.a.workspaceId, endpointId, after: start, limit: 100, types: null });
          written = moved.created;
          assert.equal(written.length, 5);
          throw new Error('the worker died here');
        },
        { timeout: 20_000 },
      ),
      /the worker died here/,
    );
    assert.equal(await prisma.webhookDelivery.count({ where: { id: { in: written } } }), 0, 'none of its deliveries was kept');
    // The live dispatcher then delivers every event once, from the committed cursor.
    const last = await positionOf(emitted.at(-1)!.seq);
    await waitFor(() => dispatchedThrough(id, last), 'the worker to dispatch the events');
    const rows = () => prisma.webhookDelivery.findMany({ where: { workspaceId: t.a.workspaceId, endpointId }, orderBy: { eventSeq: 'asc' } });
    assert.deepEqual((await rows()).map((d) => d.eventSeq), emitted.map((e) => e.seq));
    // A replay from an earlier cursor (a second dispatcher, a pass redone after a crash) adds nothing.
    await prisma.webhookEndpoint.update({ where: { id: endpointId }, data: { eventCursor: start } });
    await dispatchPage(t.app.deps, t.a.workspaceId);
    await waitFor(() => dispatchedThrough(id, last), 'the cursor back at the head');
    assert.deepEqual((await rows()).map((d) => d.eventSeq), emitted.map((e) => e.seq));
    await waitFor(() => r.requests.length >= 5, 'every delivery to arrive');
    assert.deepEqual(r.requests.map((q) => q.json.data.seq).sort((a, b) => a - b), emitted.map((e) => e.seq));
  });
});
