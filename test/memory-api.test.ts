// The memory API through real HTTP GraphQL: browsing with provenance and history, scope isolation,
// correcting (idempotent, validated), forgetting through the confirmation card, what a memory was
// used for, and the authorisation rules (read-only tokens, other workspaces).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { buildWorkerInput } from '../server/runtime/context.ts';
import { extractEvidence, extractPending } from '../server/services/memory/extract-memories.ts';
import { recordEvidence } from '../server/services/memory/store.ts';
import { createToken } from '../server/auth/create-token.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';

const Send = graphql(`
  mutation MemApiSend($input: SendMessageInput!) {
    sendMessage(input: $input) { message { id } }
  }
`);
const Browse = graphql(`
  query MemApiBrowse($id: ID!, $kind: MemoryKind, $scope: MemoryScope, $subject: String, $query: String, $includeSuperseded: Boolean, $first: Int, $after: String) {
    workspace(id: $id) {
      memories(kind: $kind, scope: $scope, subject: $subject, query: $query, includeSuperseded: $includeSuperseded, first: $first, after: $after) {
        pageInfo { hasNextPage endCursor }
        edges {
          node {
            id kind scope subjectKey origin confidence value content status version validFrom validTo
            evidence { role evidence { id kind status excerpt message { id } task { id } } }
            versions { number status value origin validFrom validTo evidence { role evidence { id kind status excerpt } } }
            usedBy { task { id } stepOrdinal versionNumber usedAt }
          }
        }
      }
      memoryProfile { version text entries { kind subjectKey text } }
    }
  }
`);
const Node = graphql(`
  query MemApiNode($id: ID!) {
    node(id: $id) { id ... on Memory { value } ... on MemoryEvidence { status excerpt } }
  }
`);
const Correct = graphql(`
  mutation MemApiCorrect($input: CorrectMemoryInput!) {
    correctMemory(input: $input) { duplicate versionNumber memory { id value origin version versions { number status value } } }
  }
`);
const ForgetMemory = graphql(`
  mutation MemApiForgetMemory($input: ForgetMemoryInput!) {
    forgetMemory(input: $input) { approval { id kind status title action } }
  }
`);
const ForgetEvidence = graphql(`
  mutation MemApiForgetEvidence($input: ForgetEvidenceInput!) {
    forgetEvidence(input: $input) { approval { id kind status title } }
  }
`);
const Resolve = graphql(`
  mutation MemApiResolve($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { id status outcome } }
  }
`);

let t: TestApp;
let taskId: string;
let n = 0;
const ws = () => toGlobalId('Workspace', t.a.workspaceId);
type Vars = { kind?: 'PREFERENCE' | 'FACT' | 'BRAND_RULE' | 'WORKFLOW_HABIT'; scope?: 'USER' | 'WORKSPACE' | 'TASK'; subject?: string; query?: string; includeSuperseded?: boolean };
const browse = async (vars: Vars = {}, token = t.a.ownerToken) => (await gqlOk(t.url, token, Browse, { id: ws(), ...vars })).workspace!;
const memoriesOf = async (vars: Vars = {}, token = t.a.ownerToken) => (await browse(vars, token)).memories.edges.map((e) => e.node);
const one = async (subject: string) => {
  const [m, ...rest] = await memoriesOf({ subject });
  assert.ok(m && rest.length === 0, `one memory for ${subject}`);
  return m;
};

/** A message written through the API from a task panel, then extracted on demand. */
async function say(text: string) {
  const r = await gqlOk(t.url, t.a.ownerToken, Send, { input: { workspaceId: ws(), taskId: toGlobalId('Task', taskId), text, idempotencyKey: `mapi-${++n}` } });
  await extractPending(t.app.deps.memory, t.a.workspaceId, t.a.ownerId);
  return r.sendMessage.message.id;
}

let colleague: { id: string; token: string };
before(async () => {
  t = await startTestApp('memapi', {}, { memory: { timeoutMs: 30_000 } });
  taskId = (await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Spring poster', goal: 'a poster', status: 'WAITING', createdById: t.a.ownerId } })).id;
  const user = await t.app.deps.prisma.user.create({ data: { email: 'colleague-mapi@example.test', name: 'Colleague' } });
  await t.app.deps.prisma.membership.create({ data: { workspaceId: t.a.workspaceId, userId: user.id, role: 'MEMBER' } });
  colleague = { id: user.id, token: (await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: user.id, name: 'c', scopes: ['READ', 'WRITE'] })).token };
});
after(async () => {
  await t.close();
});

let residenceMsg: string;
describe('browsing', () => {
  test('memories with provenance: kind, scope, origin, current version, sources with excerpt, message and task; filters; the profile', async () => {
    residenceMsg = await say('I live in Quorvia.');
    await say('Our brand color is zinnober teal.');
    const m = await one('user.residence');
    assert.equal(m.kind, 'FACT');
    assert.equal(m.scope, 'USER');
    assert.equal(m.origin, 'USER_STATED');
    assert.equal(m.value, 'Quorvia');
    assert.equal(m.status, 'CURRENT');
    assert.equal(m.version, 1);
    assert.equal(m.validTo, null);
    assert.ok(m.confidence > 0 && m.confidence <= 1);
    assert.equal(m.evidence.length, 1);
    const cite = m.evidence[0]!;
    assert.equal(cite.role, 'ORIGIN');
    assert.equal(cite.evidence.kind, 'MESSAGE');
    assert.equal(cite.evidence.status, 'ACTIVE');
    assert.equal(cite.evidence.excerpt, 'I live in Quorvia.');
    assert.equal(cite.evidence.message?.id, residenceMsg);
    assert.equal(cite.evidence.task?.id, toGlobalId('Task', taskId));
    assert.deepEqual(m.versions.map((v) => [v.number, v.status, v.value]), [[1, 'CURRENT', 'Quorvia']]);

    assert.deepEqual((await memoriesOf({ kind: 'BRAND_RULE' })).map((x) => [x.subjectKey, x.scope, x.value]), [['brand.colors', 'WORKSPACE', 'zinnober teal']]);
    assert.deepEqual((await memoriesOf({ scope: 'USER' })).map((x) => x.subjectKey), ['user.residence']);
    assert.deepEqual((await memoriesOf({ query: 'quorv' })).map((x) => x.subjectKey), ['user.residence'], 'word prefixes match');
    assert.deepEqual(await memoriesOf({ query: 'quorvia teal' }), [], 'all words must match');
    const page = await browse({ first: 1 } as Vars);
    assert.equal(page.memories.edges.length, 1);
    assert.equal(page.memories.pageInfo.hasNextPage, true);
    const next = await gqlOk(t.url, t.a.ownerToken, Browse, { id: ws(), first: 1, after: page.memories.pageInfo.endCursor });
    assert.notEqual(next.workspace!.memories.edges[0]!.node.id, page.memories.edges[0]!.node.id, 'keyset pages do not overlap');
    assert.match(page.memoryProfile!.text, /Lives in Quorvia/);
    assert.match(page.memoryProfile!.text, /zinnober teal/);
  });

  test("scope isolation: a colleague's user memories stay theirs; workspace memories are shared; another workspace sees nothing", async () => {
    for (const text of ['I live in Xanthoria.', 'Our brand font is Grotesk Zeta.']) {
      const ev = await t.app.deps.prisma.$transaction((tx) => recordEvidence(tx, { workspaceId: t.a.workspaceId, userId: colleague.id, kind: 'MESSAGE', text }));
      await extractEvidence(t.app.deps.memory, ev.id);
    }
    const mine = await memoriesOf();
    assert.deepEqual(mine.map((m) => m.subjectKey).sort(), ['brand.colors', 'brand.font', 'user.residence']);
    assert.equal(mine.find((m) => m.subjectKey === 'user.residence')!.value, 'Quorvia');
    assert.deepEqual(await memoriesOf({ query: 'xanthoria' }), []);
    const font = mine.find((m) => m.subjectKey === 'brand.font')!;
    assert.equal(font.evidence[0]!.evidence.excerpt, null, "someone else's source shows no text");
    const theirs = await memoriesOf({ subject: 'user.residence' }, colleague.token);
    assert.deepEqual(theirs.map((m) => m.value), ['Xanthoria']);
    const other = await gql(t.url, t.b.ownerToken, Browse, { id: ws() });
    assert.equal(other.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    const node = await gqlOk(t.url, t.b.ownerToken, Node, { id: mine[0]!.id });
    assert.equal(node.node, null);
    const colleagueMemory = await gqlOk(t.url, t.a.ownerToken, Node, { id: toGlobalId('Memory', (await t.app.deps.prisma.memory.findFirstOrThrow({ where: { userId: colleague.id, scope: 'USER' } })).id) });
    assert.equal(colleagueMemory.node, null, "a colleague's user memory does not load by id either");
  });
});

describe('correcting', () => {
  test('a correction is a new stated version superseding the current one, with the correction as its source; retries are idempotent', async () => {
    const m = await one('user.residence');
    const input = { memoryId: m.id, value: 'Vellmar', idempotencyKey: 'fix-1' };
    const r = await gqlOk(t.url, t.a.ownerToken, Correct, { input });
    assert.equal(r.correctMemory.duplicate, false);
    assert.equal(r.correctMemory.versionNumber, 2);
    assert.equal(r.correctMemory.memory.id, m.id);
    assert.equal(r.correctMemory.memory.value, 'Vellmar');
    const again = await gqlOk(t.url, t.a.ownerToken, Correct, { input });
    assert.equal(again.correctMemory.duplicate, true);
    assert.equal(again.correctMemory.versionNumber, 2);

    const after = await one('user.residence');
    assert.equal(after.value, 'Vellmar');
    assert.equal(after.origin, 'USER_STATED');
    assert.deepEqual(after.versions.map((v) => [v.number, v.status, v.value]), [[1, 'SUPERSEDED', 'Quorvia'], [2, 'CURRENT', 'Vellmar']]);
    assert.equal(after.versions[0]!.validTo, after.versions[1]!.validFrom, 'the old version was valid until the correction');
    assert.deepEqual(after.versions[0]!.evidence.map((e) => e.evidence.kind), ['MESSAGE'], 'history keeps its provenance');
    assert.equal(after.evidence.length, 1);
    assert.equal(after.evidence[0]!.role, 'ORIGIN');
    assert.equal(after.evidence[0]!.evidence.kind, 'NOTE');
    assert.match(after.evidence[0]!.evidence.excerpt ?? '', /Vellmar/);
    assert.equal(await t.app.deps.prisma.memoryEvidence.count({ where: { kind: 'NOTE' } }), 1, 'one correction recorded');
    assert.deepEqual(await extractPending(t.app.deps.memory, t.a.workspaceId, t.a.ownerId), [], 'the note is not re-extracted');
    const profile = (await browse()).memoryProfile!;
    assert.match(profile.text, /Lives in Vellmar/);
    assert.doesNotMatch(profile.text, /Quorvia/);
    assert.deepEqual((await memoriesOf({ query: 'quorvia', includeSuperseded: true })).map((x) => x.value), ['Vellmar'], 'history is searchable');
    assert.deepEqual(await memoriesOf({ query: 'quorvia' }), []);
  });

  test('bad input is BAD_USER_INPUT and changes nothing', async () => {
    const m = await one('user.residence');
    const before = await t.app.deps.prisma.memoryVersion.count();
    for (const input of [
      { memoryId: m.id, value: '   ', idempotencyKey: 'bad-1' },
      { memoryId: m.id, value: 'x'.repeat(201), idempotencyKey: 'bad-2' },
      { memoryId: m.id, value: 'Ok', idempotencyKey: '' },
      { memoryId: toGlobalId('Task', taskId), value: 'Ok', idempotencyKey: 'bad-3' },
      { memoryId: 'not-an-id', value: 'Ok', idempotencyKey: 'bad-4' },
    ]) {
      const r = await gql(t.url, t.a.ownerToken, Correct, { input });
      assert.equal(r.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT', JSON.stringify(input).slice(0, 80));
    }
    assert.equal(await t.app.deps.prisma.memoryVersion.count(), before);
    assert.equal((await one('user.residence')).value, 'Vellmar');
  });

  test('a read-only token cannot correct or forget (FORBIDDEN); another workspace gets NOT_FOUND; nothing changes', async () => {
    const m = await one('user.residence');
    const evidenceId = m.evidence[0]!.evidence.id;
    const before = await t.app.deps.prisma.memoryVersion.count();
    const ro = await gql(t.url, t.a.readToken, Correct, { input: { memoryId: m.id, value: 'Nowhere', idempotencyKey: 'ro-1' } });
    assert.equal(ro.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    assert.equal((await gql(t.url, t.a.readToken, ForgetMemory, { input: { memoryId: m.id } })).errors?.[0]?.extensions?.code, 'FORBIDDEN');
    assert.equal((await gql(t.url, t.a.readToken, ForgetEvidence, { input: { evidenceId } })).errors?.[0]?.extensions?.code, 'FORBIDDEN');
    const other = await gql(t.url, t.b.ownerToken, Correct, { input: { memoryId: m.id, value: 'Nowhere', idempotencyKey: 'b-1' } });
    assert.equal(other.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    assert.equal((await gql(t.url, t.b.ownerToken, ForgetMemory, { input: { memoryId: m.id } })).errors?.[0]?.extensions?.code, 'NOT_FOUND');
    assert.equal((await gql(t.url, t.b.ownerToken, ForgetEvidence, { input: { evidenceId } })).errors?.[0]?.extensions?.code, 'NOT_FOUND');
    const colleagueFix = await gql(t.url, colleague.token, Correct, { input: { memoryId: m.id, value: 'Nowhere', idempotencyKey: 'c-1' } });
    assert.equal(colleagueFix.errors?.[0]?.extensions?.code, 'NOT_FOUND', "another member's user memory does not exist for them");
    assert.equal(await t.app.deps.prisma.memoryVersion.count(), before);
    assert.equal(await t.app.deps.prisma.approval.count(), 0, 'no card was created');
  });
});

describe('use and forgetting', () => {
  test('usedBy lists the task and step whose context used the memory', async () => {
    assert.deepEqual((await one('user.residence')).usedBy, []);
    const input = await buildWorkerInput(t.app.deps.prisma, taskId, undefined, { capabilities: null }, t.app.deps.memory.context);
    assert.match(JSON.stringify(input.messages.map((m) => m.content)), /Vellmar/);
    const m = await one('user.residence');
    assert.deepEqual(m.usedBy.map((u) => [u.task?.id, u.stepOrdinal, u.versionNumber]), [[toGlobalId('Task', taskId), 0, 2]]);
  });

  test('forgetMemory returns the pending card; nothing is forgotten until it is approved; then it is gone from browse, profile and search', async () => {
    const m = await one('user.residence');
    const noteId = m.evidence[0]!.evidence.id;
    const r = await gqlOk(t.url, t.a.ownerToken, ForgetMemory, { input: { memoryId: m.id } });
    const card = r.forgetMemory.approval;
    assert.equal(card.kind, 'IRREVERSIBLE');
    assert.equal(card.status, 'PENDING');
    assert.doesNotMatch(card.title, /Vellmar|Quorvia/);
    assert.equal((await one('user.residence')).value, 'Vellmar', 'nothing forgotten yet');
    assert.match((await browse()).memoryProfile!.text, /Vellmar/);

    const ok = await gqlOk(t.url, t.a.ownerToken, Resolve, { input: { approvalId: card.id, decision: 'APPROVE', idempotencyKey: 'forget-1' } });
    assert.equal(ok.resolveApproval.approval.status, 'APPROVED');
    assert.deepEqual(await memoriesOf({ subject: 'user.residence' }), []);
    assert.deepEqual(await memoriesOf({ subject: 'user.residence', includeSuperseded: true }), []);
    for (const word of ['Vellmar', 'Quorvia']) assert.deepEqual(await memoriesOf({ query: word, includeSuperseded: true }), [], `no search hit for ${word}`);
    assert.doesNotMatch((await browse()).memoryProfile!.text, /Vellmar|Quorvia/);
    assert.equal((await gqlOk(t.url, t.a.ownerToken, Node, { id: m.id })).node, null);
    const note = (await gqlOk(t.url, t.a.ownerToken, Node, { id: noteId })).node;
    assert.ok(note && 'status' in note);
    assert.deepEqual([note.status, note.excerpt], ['REVOKED', null], 'the correction note went with the memory');
    assert.equal((await t.app.deps.prisma.memoryEvidence.findUniqueOrThrow({ where: { id: fromGlobalId(noteId).id } })).text, '');
    const late = await gql(t.url, t.a.ownerToken, Correct, { input: { memoryId: m.id, value: 'Back', idempotencyKey: 'late-1' } });
    assert.equal(late.errors?.[0]?.extensions?.code, 'NOT_FOUND', 'a forgotten memory cannot be corrected');
  });

  test('forgetEvidence: the card, then the source and what rests on it are gone', async () => {
    const brand = await one('brand.colors');
    const r = await gqlOk(t.url, t.a.ownerToken, ForgetEvidence, { input: { evidenceId: brand.evidence[0]!.evidence.id } });
    assert.equal(r.forgetEvidence.approval.status, 'PENDING');
    assert.equal((await one('brand.colors')).value, 'zinnober teal');
    await gqlOk(t.url, t.a.ownerToken, Resolve, { input: { approvalId: r.forgetEvidence.approval.id, decision: 'APPROVE', idempotencyKey: 'forget-2' } });
    assert.deepEqual(await memoriesOf({ subject: 'brand.colors' }), []);
    assert.deepEqual(await memoriesOf({ query: 'zinnober', includeSuperseded: true }), []);
    assert.doesNotMatch((await browse()).memoryProfile!.text, /zinnober/);
    assert.deepEqual((await memoriesOf()).map((m) => m.subjectKey), ['brand.font'], 'the rest is untouched');
  });
});
