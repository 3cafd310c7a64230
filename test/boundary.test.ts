// The API boundary: which origins the session cookie works from (and what CORS grants), sessions
// that never outlive their token, the mutation matrix (role × scope × principal) checked for every
// mutation of the schema, idempotency keys that name one request, and transports that agree
// (mutations and rate limits over graphql-ws, one error code per bad document, 4401 on bad tokens).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildClientSchema, getIntrospectionQuery, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, type GraphQLInputType, type IntrospectionQuery } from 'graphql';
import WebSocket from 'ws';
import { createClient as createWsClient } from 'graphql-ws';
import { mutationPolicy, mutationRefusal } from '../server/auth/mutation-policy.ts';
import type { Viewer } from '../server/auth/viewer.ts';
import { createToken } from '../server/auth/create-token.ts';
import { revokeToken } from '../server/auth/revoke-token.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { toGlobalId, wsClient } from './helpers/clients.ts';
import { eventually } from './helpers/produce.ts';

let t: TestApp;
const OTHER = 'http://127.0.0.1:1'; // another port of the same host: another origin
const LISTED = 'https://studio.example.test';

type Gql = { status: number; headers: Headers; body: { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] } };

async function post(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}, token?: string | null): Promise<Gql> {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Gql['body'] };
}
const codes = (r: Gql) => (r.body.errors ?? []).map((e) => e.extensions?.code);

async function sessionCookie(token: string, origin?: string): Promise<{ status: number; cookie: string | null; body: any }> {
  const res = await fetch(`${t.url}/auth/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-atelier-csrf': '1', ...(origin ? { origin } : {}) },
    body: JSON.stringify({ token }),
  });
  const set = res.headers.get('set-cookie');
  const m = set ? /atelier_session=([^;]+)/.exec(set) : null;
  return { status: res.status, cookie: m ? decodeURIComponent(m[1]!) : null, body: await res.json() };
}

const wsId = () => toGlobalId('Workspace', t.a.workspaceId);

before(async () => {
  t = await startTestApp('boundary', { allowedOrigins: [LISTED], wsReauthMs: 200, rateLimitPerMinute: 100_000 });
});
after(async () => {
  await t.close();
});

describe('origins and CORS', () => {
  const preflight = (origin: string, headers = 'content-type,x-atelier-csrf') =>
    fetch(`${t.url}/graphql`, { method: 'OPTIONS', headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers } });

  test('a foreign origin gets no credentialed CORS and cannot send the CSRF header', async () => {
    const r = await preflight(OTHER);
    // Plain CORS for bearer tokens: the origin may be echoed, but never with credentials.
    assert.equal(r.headers.get('access-control-allow-credentials'), null);
    assert.doesNotMatch(r.headers.get('access-control-allow-headers') ?? '', /x-atelier-csrf/i);
  });

  test('the server origin and the allow-list get credentialed CORS', async () => {
    for (const origin of [t.url, LISTED]) {
      const r = await preflight(origin);
      assert.equal(r.headers.get('access-control-allow-origin'), origin);
      assert.equal(r.headers.get('access-control-allow-credentials'), 'true');
      assert.match(r.headers.get('access-control-allow-headers') ?? '', /x-atelier-csrf/i);
    }
  });

  test('a bearer-token request never gets credentialed CORS, from any origin', async () => {
    for (const origin of [t.url, LISTED, OTHER]) {
      const r = await post('{ viewer { user { id } } }', {}, { origin }, t.a.ownerToken);
      assert.equal(r.status, 200);
      assert.equal(r.headers.get('access-control-allow-credentials'), null, origin);
    }
  });

  test('the session cookie is refused from a foreign origin (reads and writes), accepted from the allow-list', async () => {
    const { cookie } = await sessionCookie(t.a.ownerToken);
    assert.ok(cookie);
    const headers = (origin: string) => ({ cookie: `atelier_session=${encodeURIComponent(cookie!)}`, 'x-atelier-csrf': '1', origin });
    const read = await post('{ viewer { user { id } } }', {}, headers(OTHER));
    assert.deepEqual(codes(read), ['FORBIDDEN']);
    assert.equal(read.body.data ?? null, null);
    const before = await t.app.deps.prisma.task.count();
    const write = await post('mutation($i: CreateTaskInput!) { createTask(input: $i) { task { id } } }', { i: { workspaceId: wsId(), title: 'cross-origin' } }, headers(OTHER));
    assert.deepEqual(codes(write), ['FORBIDDEN']);
    assert.equal(await t.app.deps.prisma.task.count(), before);
    const ok = await post('{ viewer { user { id } } }', {}, headers(LISTED));
    assert.equal(ok.body.errors, undefined);
    assert.ok(ok.body.data.viewer.user.id);
    const own = await post('{ viewer { user { id } } }', {}, headers(t.url));
    assert.equal(own.body.errors, undefined);
  });

  test('signing in from a foreign origin is refused', async () => {
    const r = await sessionCookie(t.a.ownerToken, OTHER);
    assert.equal(r.status, 403);
    assert.equal(r.cookie, null);
  });

  test('a cookie WebSocket from a foreign origin is not authenticated (4401)', async () => {
    const { cookie } = await sessionCookie(t.a.ownerToken);
    const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
      const ws = new WebSocket(t.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws', {
        headers: { cookie: `atelier_session=${encodeURIComponent(cookie!)}`, origin: OTHER },
      });
      ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init' })));
      ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
    });
    assert.equal(closed.code, 4401);
    assert.match(closed.reason, /^UNAUTHENTICATED/);
  });
});

describe('sessions never outlive their token', () => {
  test('revoking a token ends the sessions made from it, and sessions of sessions', async () => {
    const made = await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'to revoke', scopes: ['READ', 'WRITE'] });
    const s1 = await sessionCookie(made.token);
    assert.equal(s1.status, 200);
    const s2 = await sessionCookie(s1.cookie!); // a session exchanged again
    assert.equal(s2.status, 200);
    for (const s of [s1.cookie!, s2.cookie!]) assert.equal((await post('{ viewer { user { id } } }', {}, {}, s)).body.errors, undefined);
    await revokeToken(t.app.deps.prisma, made.token);
    for (const s of [made.token, s1.cookie!, s2.cookie!]) assert.deepEqual(codes(await post('{ viewer { user { id } } }', {}, {}, s)), ['UNAUTHENTICATED']);
  });

  test('a session never expires later than the token it was made from, however often it is exchanged', async () => {
    const expiresAt = new Date(Date.now() + 3_600_000);
    const made = await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'short', scopes: ['READ'], expiresAt });
    let current = made.token;
    for (let i = 0; i < 3; i++) {
      const s = await sessionCookie(current);
      assert.equal(s.status, 200);
      assert.ok(new Date(s.body.expiresAt).getTime() <= expiresAt.getTime(), `exchange ${i} extended the expiry`);
      current = s.cookie!;
    }
    const rows = await t.app.deps.prisma.apiToken.findMany({ where: { parentTokenId: made.id } });
    assert.equal(rows.length, 3);
    for (const r of rows) assert.ok(r.expiresAt && r.expiresAt.getTime() <= expiresAt.getTime());
  });

  test('a live WebSocket of a revoked token is closed with 4401 within seconds, ending its subscriptions', async () => {
    const made = await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'ws', scopes: ['READ'] });
    let closeCode = 0;
    const client = createWsClient({
      url: t.url.replace(/^http/, 'ws') + '/graphql',
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${made.token}` },
      retryAttempts: 0,
      on: { closed: (e) => (closeCode = (e as { code: number }).code) },
    });
    let ended: unknown = null;
    let acked = false;
    client.on('connected', () => (acked = true));
    client.subscribe({ query: `subscription($w: ID!) { workspaceEvents(workspaceId: $w) { cursor } }`, variables: { w: wsId() } }, {
      next: () => {},
      error: (e) => (ended = e ?? 'error'),
      complete: () => (ended = 'complete'),
    });
    await eventually(() => acked, 'the socket to open');
    const revokedAt = Date.now();
    await revokeToken(t.app.deps.prisma, made.token);
    await eventually(() => closeCode !== 0 && ended !== null, 'the socket to close', 10_000);
    assert.equal(closeCode, 4401);
    assert.ok(Date.now() - revokedAt < 10_000);
    await client.dispose();
  });
});

describe('the mutation matrix', () => {
  let schemaMutations: { name: string; args: { name: string; type: GraphQLInputType }[] }[];
  let creds: { label: string; token: string; viewer: Viewer }[];

  before(async () => {
    const r = await post(getIntrospectionQuery(), {}, {}, t.a.ownerToken);
    const schema = buildClientSchema(r.body.data as IntrospectionQuery);
    schemaMutations = Object.values(schema.getMutationType()!.getFields()).map((f) => ({ name: f.name, args: f.args.map((a) => ({ name: a.name, type: a.type })) }));
    const prisma = t.app.deps.prisma;
    const member = await prisma.user.create({ data: { email: 'member-alpha@example.test', name: 'Member Alpha' } });
    await prisma.membership.create({ data: { workspaceId: t.a.workspaceId, userId: member.id, role: 'MEMBER' } });
    const mk = async (label: string, userId: string, scopes: ('READ' | 'WRITE' | 'APPROVE')[], principal: 'HUMAN' | 'SERVICE', role: 'OWNER' | 'MEMBER' | 'VIEWER') => {
      const tok = await createToken(prisma, { workspaceId: t.a.workspaceId, userId, name: label, scopes, principal });
      const viewer: Viewer = { userId, credentialId: tok.id, scopes: new Set(tok.scopes), memberships: new Map([[t.a.workspaceId, role]]), principal };
      return { label, token: tok.token, viewer };
    };
    creds = [
      await mk('human owner', t.a.ownerId, ['READ', 'WRITE', 'APPROVE'], 'HUMAN', 'OWNER'),
      await mk('service owner', t.a.ownerId, ['READ', 'WRITE', 'APPROVE'], 'SERVICE', 'OWNER'),
      await mk('human member', member.id, ['READ', 'WRITE', 'APPROVE'], 'HUMAN', 'MEMBER'),
      await mk('member without approve', member.id, ['READ', 'WRITE'], 'HUMAN', 'MEMBER'),
      await mk('read-only owner', t.a.ownerId, ['READ'], 'HUMAN', 'OWNER'),
      await mk('viewer', t.a.viewerId, ['READ'], 'HUMAN', 'VIEWER'),
    ];
  });

  test('every mutation of the schema has exactly one entry, and no entry names a missing mutation', () => {
    assert.deepEqual(schemaMutations.map((m) => m.name).sort(), Object.keys(mutationPolicy).sort());
  });

  /** A value of the type that passes GraphQL coercion (so the call reaches authorisation). */
  function sample(type: GraphQLInputType, depth = 0): unknown {
    if (isNonNullType(type)) return sample(type.ofType as GraphQLInputType, depth);
    if (isListType(type)) return [sample(type.ofType as GraphQLInputType, depth)];
    if (isEnumType(type)) return type.getValues()[0]!.value;
    if (isInputObjectType(type)) {
      const out: Record<string, unknown> = {};
      for (const f of Object.values(type.getFields())) if (isNonNullType(f.type) && depth < 5) out[f.name] = sample(f.type, depth + 1);
      return out;
    }
    const name = getNamedType(type).name;
    if (name === 'ID') return toGlobalId('Task', '00000000-0000-4000-8000-000000000000');
    if (name === 'Int' || name === 'Float') return 1;
    if (name === 'Boolean') return true;
    if (name === 'JSON') return {};
    if (name === 'DateTime') return new Date().toISOString();
    if (isScalarType(getNamedType(type))) return 'x';
    return null;
  }

  test('each credential is refused exactly the mutations the matrix refuses it, before anything runs', async () => {
    const before = await t.app.deps.prisma.task.count();
    for (const m of schemaMutations) {
      const vars = m.args.map((a, i) => `$v${i}: ${a.type.toString()}`).join(', ');
      const call = m.args.map((a, i) => `${a.name}: $v${i}`).join(', ');
      const query = `mutation${vars ? `(${vars})` : ''} { ${m.name}${call ? `(${call})` : ''} { __typename } }`;
      const variables = Object.fromEntries(m.args.map((a, i) => [`v${i}`, sample(a.type)]));
      for (const c of creds) {
        const r = await post(query, variables, {}, c.token);
        const refused = mutationRefusal(m.name, c.viewer) !== null;
        const got = codes(r);
        if (refused) assert.deepEqual(got, ['FORBIDDEN'], `${c.label} → ${m.name}: ${JSON.stringify(r.body.errors)}`);
        else assert.ok(!got.includes('FORBIDDEN') && !got.includes('INTERNAL'), `${c.label} → ${m.name} was refused: ${JSON.stringify(r.body.errors)}`);
      }
    }
    assert.equal(await t.app.deps.prisma.task.count(), before);
  });

  test('a service token cannot change the spending settings, even as owner; a person owner can', async () => {
    const service = creds.find((c) => c.label === 'service owner')!;
    const settings = () => t.app.deps.prisma.workspaceSettings.findUnique({ where: { workspaceId: t.a.workspaceId } });
    const before = await settings();
    const q = 'mutation($i: UpdateWorkspaceSettingsInput!) { updateWorkspaceSettings(input: $i) { settings { autonomy } } }';
    const r = await post(q, { i: { workspaceId: wsId(), autonomy: 'AUTONOMOUS', perActionFreeCents: 10_000_000, dailyFreeCents: 10_000_000 } }, {}, service.token);
    assert.deepEqual(codes(r), ['FORBIDDEN']);
    assert.deepEqual(await settings(), before);
    const ok = await post(q, { i: { workspaceId: wsId(), dailyFreeCents: 500 } }, {}, t.a.ownerToken);
    assert.equal(ok.body.errors, undefined, JSON.stringify(ok.body.errors));
  });
});

describe('idempotency keys name one request', () => {
  const CreateTask = 'mutation($i: CreateTaskInput!) { createTask(input: $i) { task { id status } } }';
  const Signal = 'mutation($i: SignalTaskInput!) { signalTask(input: $i) { task { id status } } }';
  const Send = 'mutation($i: SendMessageInput!) { sendMessage(input: $i) { message { id text } duplicate } }';
  async function newTask(title: string): Promise<string> {
    const r = await post(CreateTask, { i: { workspaceId: wsId(), title } }, {}, t.a.ownerToken);
    return r.body.data.createTask.task.id;
  }
  const taskUuid = (gid: string) => Buffer.from(gid, 'base64').toString('utf8').split(':')[1]!;

  test('PAUSE then CANCEL on one key: the cancel is refused, not silently dropped', async () => {
    const id = await newTask('pause then cancel');
    const p = await post(Signal, { i: { taskId: id, signal: 'PAUSE', idempotencyKey: 'S1' } }, {}, t.a.ownerToken);
    assert.equal(p.body.data.signalTask.task.status, 'PAUSED');
    const again = await post(Signal, { i: { taskId: id, signal: 'PAUSE', idempotencyKey: 'S1' } }, {}, t.a.ownerToken);
    assert.equal(again.body.data.signalTask.task.status, 'PAUSED');
    const c = await post(Signal, { i: { taskId: id, signal: 'CANCEL', idempotencyKey: 'S1' } }, {}, t.a.ownerToken);
    assert.deepEqual(codes(c), ['IDEMPOTENCY_KEY_REUSED']);
    assert.match(c.body.errors![0]!.message, /different/);
    assert.equal((await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: taskUuid(id) } })).status, 'PAUSED');
  });

  test('ADD_CONTEXT then REVISE on one key: the revise is refused; one inbox item', async () => {
    const id = await newTask('context then revise');
    const a = await post(Signal, { i: { taskId: id, signal: 'ADD_CONTEXT', text: 'use teal', idempotencyKey: 'S2' } }, {}, t.a.ownerToken);
    assert.equal(a.body.errors, undefined);
    const r = await post(Signal, { i: { taskId: id, signal: 'REVISE', text: 'make it red', idempotencyKey: 'S2' } }, {}, t.a.ownerToken);
    assert.deepEqual(codes(r), ['IDEMPOTENCY_KEY_REUSED']);
    assert.equal(await t.app.deps.prisma.inboxItem.count({ where: { taskId: taskUuid(id), kind: 'SIGNAL' } }), 1);
  });

  test("a client's key never collides with a key the server wrote itself", async () => {
    const id = await newTask('server keys');
    const uuid = taskUuid(id);
    await t.app.deps.prisma.inboxItem.create({
      data: { taskId: uuid, workspaceId: t.a.workspaceId, kind: 'MESSAGE', text: 'Confirmed', idempotencyKey: 'approval:abc', consumedAt: new Date() },
    });
    const r = await post(Signal, { i: { taskId: id, signal: 'ADD_CONTEXT', text: 'from the client', idempotencyKey: 'approval:abc' } }, {}, t.a.ownerToken);
    assert.equal(r.body.errors, undefined);
    const texts = (await t.app.deps.prisma.inboxItem.findMany({ where: { taskId: uuid } })).map((i) => i.text);
    assert.ok(texts.includes('from the client'), JSON.stringify(texts));
  });

  test('sendMessage: the same text returns the recorded message; new text on the key is refused', async () => {
    const first = await post(Send, { i: { workspaceId: wsId(), text: 'a poster of a fox', idempotencyKey: 'M1' } }, {}, t.a.ownerToken);
    assert.equal(first.body.errors, undefined, JSON.stringify(first.body.errors));
    const same = await post(Send, { i: { workspaceId: wsId(), text: 'a poster of a fox', idempotencyKey: 'M1' } }, {}, t.a.ownerToken);
    assert.equal(same.body.data.sendMessage.duplicate, true);
    assert.equal(same.body.data.sendMessage.message.id, first.body.data.sendMessage.message.id);
    const count = await t.app.deps.prisma.message.count();
    const other = await post(Send, { i: { workspaceId: wsId(), text: 'something else entirely', idempotencyKey: 'M1' } }, {}, t.a.ownerToken);
    assert.deepEqual(codes(other), ['IDEMPOTENCY_KEY_REUSED']);
    assert.equal(await t.app.deps.prisma.message.count(), count);
  });

  test('two different requests racing on one key: one wins, the other is refused', async () => {
    const [x, y] = await Promise.all([
      post(CreateTask, { i: { workspaceId: wsId(), title: 'race one', idempotencyKey: 'R1' } }, {}, t.a.ownerToken),
      post(CreateTask, { i: { workspaceId: wsId(), title: 'race two', idempotencyKey: 'R1' } }, {}, t.a.ownerToken),
    ]);
    const outcomes = [x, y].map((r) => (r.body.errors ? r.body.errors[0]!.extensions!.code : 'OK')).sort();
    assert.deepEqual(outcomes, ['IDEMPOTENCY_KEY_REUSED', 'OK']);
    assert.equal(await t.app.deps.prisma.task.count({ where: { title: { in: ['race one', 'race two'] } } }), 1);
  });

  test('resolveApproval: another note or choice on the same key is refused; the same request returns the decision', async () => {
    const id = await newTask('approval keys');
    const uuid = taskUuid(id);
    const approval = await t.app.deps.prisma.approval.create({
      data: {
        workspaceId: t.a.workspaceId,
        taskId: uuid,
        kind: 'CHECKPOINT',
        title: 'Pick one',
        action: { type: 'CHECKPOINT', kind: 'CHOOSE', toolCallId: 'x:1:0' },
        options: [{ id: 'a', label: 'A' }, { id: 'b', label: 'B' }],
        reasons: [],
        requestKey: `test:${uuid}`,
        requestedByKind: 'AGENT',
      },
    });
    const gid = toGlobalId('Approval', approval.id);
    const Resolve = 'mutation($i: ResolveApprovalInput!) { resolveApproval(input: $i) { approval { status choice note } } }';
    const ok = await post(Resolve, { i: { approvalId: gid, decision: 'APPROVE', choice: 'a', note: 'nice', idempotencyKey: 'A1' } }, {}, t.a.ownerToken);
    assert.equal(ok.body.errors, undefined, JSON.stringify(ok.body.errors));
    const same = await post(Resolve, { i: { approvalId: gid, decision: 'APPROVE', choice: 'a', note: 'nice', idempotencyKey: 'A1' } }, {}, t.a.ownerToken);
    assert.equal(same.body.data.resolveApproval.approval.choice, 'a');
    for (const changed of [{ note: 'other note' }, { choice: 'b' }, { choice: 'zzz' }]) {
      const r = await post(Resolve, { i: { approvalId: gid, decision: 'APPROVE', choice: 'a', note: 'nice', idempotencyKey: 'A1', ...changed } }, {}, t.a.ownerToken);
      assert.deepEqual(codes(r), ['IDEMPOTENCY_KEY_REUSED'], JSON.stringify(changed));
    }
  });
});

describe('transports agree', () => {
  test('mutations work over graphql-ws', async () => {
    const client = wsClient(t.url, t.a.ownerToken);
    const result = await new Promise<any>((resolve, reject) => {
      client.subscribe({ query: 'mutation($i: CreateTaskInput!) { createTask(input: $i) { task { title } } }', variables: { i: { workspaceId: wsId(), title: 'over a socket' } } }, {
        next: resolve,
        error: reject,
        complete: () => {},
      });
    });
    assert.equal(result.errors, undefined, JSON.stringify(result.errors));
    assert.equal(result.data.createTask.task.title, 'over a socket');
    await client.dispose();
  });

  test('the same bad document gets the same code over HTTP, SSE and WebSocket', async () => {
    const docs = ['{ viewer { nope } }', '{ viewer { user { id } }', 'subscription { nope }', `{ ${'viewer { '.repeat(3000)} }`];
    for (const query of docs) {
      const http = await post(query, {}, {}, t.a.ownerToken);
      const httpCodes = codes(http);
      const sseRes = await fetch(`${t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${t.a.ownerToken}` },
        body: JSON.stringify({ query }),
      });
      const sseText = await sseRes.text();
      const sseCodes = [...sseText.matchAll(/"code":"([A-Z_]+)"/g)].map((m) => m[1]);
      const client = wsClient(t.url, t.a.ownerToken);
      const wsErrors = await new Promise<any[]>((resolve) => {
        client.subscribe({ query }, { next: (r) => resolve((r.errors as any[]) ?? []), error: (e) => resolve(Array.isArray(e) ? e : [e]), complete: () => resolve([]) });
      });
      await client.dispose();
      const wsCodes = wsErrors.map((e) => e.extensions?.code);
      assert.ok(httpCodes.length > 0, query.slice(0, 40));
      assert.ok(!httpCodes.includes('INTERNAL'));
      assert.deepEqual([...new Set(wsCodes)], [...new Set(httpCodes)], `ws vs http for ${query.slice(0, 40)}`);
      assert.deepEqual([...new Set(sseCodes)], [...new Set(httpCodes)], `sse vs http for ${query.slice(0, 40)}`);
      for (const e of wsErrors) assert.doesNotMatch(String(e.message), /call stack/i);
    }
  });

  test('a missing or bad token on a WebSocket closes it with 4401 UNAUTHENTICATED', async () => {
    for (const token of [null, 'atl_not-a-real-token']) {
      const closed = await new Promise<{ code: number; reason: string }>((resolve) => {
        const ws = new WebSocket(t.url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
        ws.on('open', () => ws.send(JSON.stringify({ type: 'connection_init', payload: token ? { authorization: `Bearer ${token}` } : {} })));
        ws.on('close', (code, reason) => resolve({ code, reason: reason.toString() }));
      });
      assert.equal(closed.code, 4401, String(token));
      assert.match(closed.reason, /^UNAUTHENTICATED/);
    }
  });
});

describe('rate limits over each transport', () => {
  let r: TestApp;
  before(async () => {
    r = await startTestApp('ratelimit', { rateLimitPerMinute: 3 });
  });
  after(async () => {
    await r.close();
  });

  test('HTTP answers 429 with Retry-After; a WebSocket fails the one operation and keeps the socket', async () => {
    const client = wsClient(r.url, r.a.ownerToken);
    let closed = false;
    client.on('closed', () => (closed = true));
    const run = () =>
      new Promise<any>((resolve) => {
        client.subscribe({ query: '{ viewer { user { id } } }' }, { next: resolve, error: (e) => resolve({ errors: Array.isArray(e) ? e : [e] }), complete: () => {} });
      });
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await run());
    const limited = results.filter((x) => x.errors?.[0]?.extensions?.code === 'RATE_LIMITED');
    assert.ok(limited.length >= 2, JSON.stringify(results));
    assert.equal(closed, false);
    const res = await fetch(`${r.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${r.a.ownerToken}` },
      body: JSON.stringify({ query: '{ viewer { user { id } } }' }),
    });
    assert.equal(res.status, 429);
    assert.ok(Number(res.headers.get('retry-after')) >= 1, `retry-after: ${res.headers.get('retry-after')}`);
    await client.dispose();
  });
});
