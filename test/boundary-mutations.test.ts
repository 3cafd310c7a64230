// The API boundary, mutations: the mutation matrix (role × scope × principal) checked for every
// mutation of the schema, and idempotency keys that name one request.
import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { buildClientSchema, getIntrospectionQuery, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType, isScalarType, type GraphQLInputType, type IntrospectionQuery } from 'graphql';
import { mutationPolicy, mutationRefusal } from '../server/auth/mutation-policy.ts';
import type { Viewer } from '../server/auth/viewer.ts';
import { createToken } from '../server/auth/create-token.ts';
import { toGlobalId } from './helpers/clients.ts';
import { codes, post, t, useBoundaryApp, wsId } from './helpers/boundary.ts';

useBoundaryApp();

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
