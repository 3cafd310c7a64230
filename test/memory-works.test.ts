// Works stay the person's: a forget card lists the works whose current name or content contains the
// value being forgotten (and none other), nothing in them changes until the person chooses, the
// choice (redactWorks) writes new versions without the value and withholds the older versions that
// held it, and the card itself keeps no readable trace of the value once the forgetting is approved.
// Through real HTTP GraphQL; memories come from the offline extractor on real messages.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { createToken } from '../server/auth/create-token.ts';
import type { Viewer } from '../server/auth/viewer.ts';
import { extractEvidence } from '../server/services/memory/extract-memories.ts';
import { sendMessage } from '../server/services/messages/send-message.ts';
import { readObjectOp } from '../server/store/objects/operations.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gql, gqlOk, toGlobalId } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { CreateObject, UpdateObject } from './helpers/object-documents.ts';

const ForgetMemory = graphql(`
  mutation WorksForgetMemory($input: ForgetMemoryInput!) {
    forgetMemory(input: $input) { approval { id status reasons { code message } action works { objectId name kind version where status redactedInVersion withheldVersions } } }
  }
`);
const ForgetEvidence = graphql(`
  mutation WorksForgetEvidence($input: ForgetEvidenceInput!) {
    forgetEvidence(input: $input) { approval { id status works { objectId name version where status } } }
  }
`);
const Resolve = graphql(`
  mutation WorksResolve($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { id status } }
  }
`);
const Redact = graphql(`
  mutation WorksRedact($input: RedactWorksInput!) {
    redactWorks(input: $input) { approval { id status works { objectId name kind version where status redactedInVersion withheldVersions } } }
  }
`);
const Card = graphql(`
  query WorksCard($id: ID!) {
    node(id: $id) { ... on Approval { id status action works { objectId name version where status redactedInVersion withheldVersions } } }
  }
`);
const Work = graphql(`
  query WorksObject($id: ID!, $n: Int!) {
    node(id: $id) {
      ... on WorkspaceObject {
        id name currentVersion content
        current { version name markdown content author { kind user { id } } withheld { reason } }
        version(n: $n) { version name markdown content summary withheld { reason message inVersion } }
        versions(first: 20) { edges { node { version name content withheld { reason } } } }
      }
    }
  }
`);
const DeleteObject = graphql(`
  mutation WorksDelete($objectId: ID!) {
    deleteObject(objectId: $objectId) { approvalId }
  }
`);

let t: TestApp;
let viewer: Viewer;
let taskId: string;
let colleagueToken: string;
let n = 0;
const ws = () => toGlobalId('Workspace', t.a.workspaceId);

before(async () => {
  t = await startTestApp('memworks', {}, { memory: { timeoutMs: 30_000 } });
  viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]), principal: 'HUMAN' } as Viewer;
  taskId = (await t.app.deps.prisma.task.create({ data: { workspaceId: t.a.workspaceId, title: 'Brand kit', goal: 'brand kit', status: 'WAITING', createdById: t.a.ownerId } })).id;
  const user = await t.app.deps.prisma.user.create({ data: { email: 'colleague-works@example.test', name: 'Colleague' } });
  await t.app.deps.prisma.membership.create({ data: { workspaceId: t.a.workspaceId, userId: user.id, role: 'MEMBER' } });
  colleagueToken = (await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: user.id, name: 'c', scopes: ['READ', 'WRITE', 'APPROVE'] })).token;
});
after(async () => {
  await t.close();
});

/** A message from a task panel (the real path), then its extraction. */
async function tell(text: string) {
  const sent = await sendMessage(t.app.deps, viewer, { workspaceId: t.a.workspaceId, text, taskId, idempotencyKey: `w-${++n}` });
  const ev = await t.app.deps.prisma.memoryEvidence.findUniqueOrThrow({ where: { messageId: sent.messageId } });
  await extractEvidence(t.app.deps.memory, ev.id);
  return ev.id;
}

async function create(kind: 'DOCUMENT' | 'FLOW' | 'IMAGE', name: string, content: unknown, token = t.a.ownerToken, workspace = ws()) {
  const r = await gqlOk(t.url, token, CreateObject, { input: { workspaceId: workspace, kind, name, content, idempotencyKey: `c-${++n}` } });
  return r.createObject.object.id;
}
const doc = (markdown: string) => ({ markdown });
async function update(id: string, baseVersion: number, content: unknown) {
  await gqlOk(t.url, t.a.ownerToken, UpdateObject, { input: { objectId: id, baseVersion, content, idempotencyKey: `u-${++n}` } });
}
const work = async (id: string, version = 1) => (await gqlOk(t.url, t.a.ownerToken, Work, { id, n: version })).node as {
  id: string;
  name: string;
  currentVersion: number;
  content: unknown;
  current: { version: number; name: string; markdown: string | null; content: unknown; author: { kind: string; user: { id: string } | null }; withheld: unknown };
  version: { version: number; name: string; markdown: string | null; content: unknown; summary: string; withheld: { reason: string; message: string; inVersion: number } | null } | null;
  versions: { edges: { node: { version: number; name: string; content: unknown; withheld: { reason: string } | null } }[] };
};

/** The approval's row as stored, as text. */
async function approvalRow(id: string): Promise<string> {
  const c = new pg.Client({ connectionString: t.dbUrl });
  await c.connect();
  try {
    const r = await c.query(`SELECT to_jsonb(a)::text AS j FROM approvals a WHERE id = $1`, [id]);
    return r.rows[0].j as string;
  } finally {
    await c.end();
  }
}

const W: Record<string, string> = {};
let memoryId: string;
let cardId: string;

describe('the forget card lists the works that contain the value', () => {
  test('current name or content (documents, flows, asset prompts), whatever the case and spacing; not partial words, old versions or other workspaces', async () => {
    await tell('Our brand color is zinnober teal.');
    const m = await t.app.deps.prisma.memory.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, subjectKey: 'brand.colors' }, include: { versions: true } });
    assert.equal(m.versions[0]!.value, 'zinnober teal');
    memoryId = m.id;

    W.brief = await create('DOCUMENT', 'Brand brief', doc('# Brief\nColours to be decided.'));
    await update(W.brief, 1, doc('# Brief\nMain colour: Zinnober  teal, with cream.\n\n## Type\nGrotesk.'));
    W.copy = await create('DOCUMENT', 'Zinnober Teal poster copy', doc('Hello, festival.'));
    W.flow = await create('FLOW', 'Poster flow', { nodes: [{ id: 'gen', kind: 'generate_image', params: { prompt: 'a retro poster in zinnober teal' } }], edges: [] });
    W.image = await create('IMAGE', 'Poster 2', { file: { path: 'poster-2.png', mime: 'image/png', bytes: 10 }, provenance: { prompt: 'poster 2, ZINNOBER-TEAL background' } });
    // Not listed: the words apart, a word that only starts the same, a value only in an old version.
    W.apart = await create('DOCUMENT', 'Palette notes', doc('Teal alone; zinnober elsewhere; zinnoberteal as one word.'));
    W.old = await create('DOCUMENT', 'Old draft', doc('Try zinnober teal.'));
    await update(W.old, 1, doc('Try something warmer.'));
    const other = await create('DOCUMENT', 'Zinnober teal elsewhere', doc('zinnober teal'), t.b.ownerToken, toGlobalId('Workspace', t.b.workspaceId));
    assert.ok(other);

    const r = await gqlOk(t.url, t.a.ownerToken, ForgetMemory, { input: { memoryId: toGlobalId('Memory', memoryId) } });
    const card = r.forgetMemory.approval;
    cardId = card.id;
    assert.equal(card.status, 'PENDING');
    const listed = Object.fromEntries(card.works.map((w) => [w.name, { id: w.objectId, version: w.version, where: w.where, status: w.status, kind: w.kind }]));
    assert.deepEqual(Object.keys(listed).sort(), ['Brand brief', 'Poster 2', 'Poster flow', 'Zinnober Teal poster copy']);
    assert.deepEqual(listed['Brand brief'], { id: W.brief, version: 2, where: ['CONTENT'], status: 'OFFERED', kind: 'DOCUMENT' });
    assert.deepEqual(listed['Zinnober Teal poster copy'], { id: W.copy, version: 1, where: ['NAME'], status: 'OFFERED', kind: 'DOCUMENT' });
    assert.deepEqual(listed['Poster flow'], { id: W.flow, version: 1, where: ['CONTENT'], status: 'OFFERED', kind: 'FLOW' });
    assert.deepEqual(listed['Poster 2'], { id: W.image, version: 1, where: ['CONTENT'], status: 'OFFERED', kind: 'IMAGE' });
    assert.ok(card.reasons.some((x) => x.code === 'WORKS_CONTAIN_VALUE' && /4 of your works/.test(x.message)), 'the card says so, by count');
    assert.equal(JSON.stringify(card.reasons).toLowerCase().includes('zinnober'), false, 'no value or name in the reasons');
    assert.equal('works' in (card.action as object), false, 'the raw action shows no works part (no match key)');
  });

  test('forgetting a source lists the works containing the values resting on it', async () => {
    const ev = await tell('I live in Quorvia.');
    const trip = await create('DOCUMENT', 'Trip notes', doc('Studio visit near quorvia station.'));
    await create('DOCUMENT', 'Trip budget', doc('Flights and hotels.'));
    const r = await gqlOk(t.url, t.a.ownerToken, ForgetEvidence, { input: { evidenceId: toGlobalId('MemoryEvidence', ev) } });
    assert.deepEqual(
      r.forgetEvidence.approval.works.map((w) => [w.objectId, w.name, w.version, w.where]),
      [[trip, 'Trip notes', 1, ['CONTENT']]],
    );
  });
});

describe('choosing', () => {
  test('refused with typed errors: not approved yet, not your card, a bad id, another workspace, an unlisted work, not a forget card', async () => {
    const call = (input: { approvalId: string; objectIds: string[]; idempotencyKey: string }, token = t.a.ownerToken) => gql(t.url, token, Redact, { input });
    const notYet = await call({ approvalId: cardId, objectIds: [W.brief!], idempotencyKey: 'r-early' });
    assert.equal(notYet.errors?.[0]?.extensions?.code, 'CONFLICT');
    assert.equal(notYet.errors?.[0]?.extensions?.reason, 'FORGET_NOT_APPROVED');
    const colleague = await call({ approvalId: cardId, objectIds: [W.brief!], idempotencyKey: 'r-col' }, colleagueToken);
    assert.equal(colleague.errors?.[0]?.extensions?.code, 'FORBIDDEN');
    assert.equal(colleague.errors?.[0]?.extensions?.reason, 'NOT_YOUR_FORGET_CARD');
    const bad = await call({ approvalId: 'not-an-id', objectIds: [], idempotencyKey: 'r-bad' });
    assert.equal(bad.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const badObject = await call({ approvalId: cardId, objectIds: [toGlobalId('Task', taskId)], idempotencyKey: 'r-bad2' });
    assert.equal(badObject.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    const foreign = await call({ approvalId: cardId, objectIds: [], idempotencyKey: 'r-b' }, t.b.ownerToken);
    assert.equal(foreign.errors?.[0]?.extensions?.code, 'NOT_FOUND');
    const readOnly = await call({ approvalId: cardId, objectIds: [], idempotencyKey: 'r-ro' }, t.a.readToken);
    assert.equal(readOnly.errors?.[0]?.extensions?.code, 'FORBIDDEN');

    const del = await gqlOk(t.url, t.a.ownerToken, DeleteObject, { objectId: W.apart! });
    const notForget = await call({ approvalId: del.deleteObject.approvalId, objectIds: [], idempotencyKey: 'r-del' });
    assert.equal(notForget.errors?.[0]?.extensions?.reason, 'NOT_A_FORGET_CARD', JSON.stringify(notForget.errors));

    await gqlOk(t.url, t.a.ownerToken, Resolve, { input: { approvalId: cardId, decision: 'APPROVE', idempotencyKey: 'approve-forget' } });
    const unlisted = await call({ approvalId: cardId, objectIds: [W.brief!, W.apart!], idempotencyKey: 'r-unlisted' });
    assert.equal(unlisted.errors?.[0]?.extensions?.code, 'BAD_USER_INPUT');
    assert.equal(unlisted.errors?.[0]?.extensions?.reason, 'WORK_NOT_LISTED');
  });

  test('after the forgetting, nothing in a work has changed without the click, and the card holds no readable trace of the value', async () => {
    for (const [id, version] of [[W.brief, 2], [W.copy, 1], [W.flow, 1], [W.image, 1]] as const) {
      const o = await work(id!);
      assert.equal(o.currentVersion, version, 'no new version');
      assert.match(JSON.stringify([o.name, o.content]).toLowerCase(), /zinnober/, 'the value is still in the work');
    }
    const row = (await approvalRow(fromGlobalId(cardId).id)).toLowerCase();
    assert.ok(row.includes('"status": "approved"'), row.slice(0, 200));
    for (const word of ['zinnober', 'teal']) assert.equal(row.includes(word), false, `"${word}" is not in the approval row`);
    const card = (await gqlOk(t.url, t.a.ownerToken, Card, { id: cardId })).node as { works: { status: string }[] };
    assert.deepEqual(card.works.map((w) => w.status), ['OFFERED', 'OFFERED', 'OFFERED', 'OFFERED']);
  });

  test('one click: the chosen works get a new version by the person with the value removed, their older versions with it are withheld; the others stay', async () => {
    const r = await gqlOk(t.url, t.a.ownerToken, Redact, { input: { approvalId: cardId, objectIds: [W.brief!, W.flow!], idempotencyKey: 'redact-1' } });
    const byId = Object.fromEntries(r.redactWorks.approval.works.map((w) => [w.objectId, w]));
    assert.deepEqual([byId[W.brief!]!.status, byId[W.brief!]!.redactedInVersion, byId[W.brief!]!.withheldVersions], ['REDACTED', 3, [2]]);
    assert.deepEqual([byId[W.flow!]!.status, byId[W.flow!]!.redactedInVersion, byId[W.flow!]!.withheldVersions], ['REDACTED', 2, [1]]);
    assert.deepEqual([byId[W.copy!]!.status, byId[W.image!]!.status], ['KEPT', 'KEPT']);

    // The brief: version 3 by the person, the value replaced, everything around it kept.
    const brief = await work(W.brief!, 2);
    assert.equal(brief.currentVersion, 3);
    assert.equal(brief.current.markdown, '# Brief\nMain colour: [removed], with cream.\n\n## Type\nGrotesk.');
    assert.deepEqual([brief.current.author.kind, brief.current.author.user?.id && fromGlobalId(brief.current.author.user.id).id], ['USER', t.a.ownerId]);
    // Version 2 held the value: withheld, with the reason, through version(n) and the history.
    assert.equal(brief.version!.withheld?.reason, 'FORGOTTEN_VALUE');
    assert.equal(brief.version!.withheld?.inVersion, 3);
    assert.match(brief.version!.withheld!.message, /forget/);
    assert.equal(JSON.stringify(brief.version).toLowerCase().includes('zinnober'), false, 'version 2 is unreadable');
    const history = brief.versions.edges.map((e) => e.node);
    assert.deepEqual(history.map((v) => [v.version, v.withheld?.reason ?? null]), [[3, null], [2, 'FORGOTTEN_VALUE'], [1, null]]);
    assert.equal(JSON.stringify(history).toLowerCase().includes('zinnober'), false);
    // Version 1 never held it: readable as it was.
    assert.equal((await work(W.brief!, 1)).version!.markdown, '# Brief\nColours to be decided.');

    // The flow: the prompt without the value; version 1 withheld.
    const flow = await work(W.flow!, 1);
    assert.equal(flow.currentVersion, 2);
    assert.deepEqual((flow.current.content as { nodes: { params: unknown }[] }).nodes[0]!.params, { prompt: 'a retro poster in [removed]' });
    assert.equal(flow.version!.withheld?.reason, 'FORGOTTEN_VALUE');
    assert.equal(JSON.stringify(flow.version).toLowerCase().includes('zinnober'), false);

    // Not chosen: exactly as they were.
    const copy = await work(W.copy!);
    assert.deepEqual([copy.currentVersion, copy.name, copy.current.withheld], [1, 'Zinnober Teal poster copy', null]);
    const image = await work(W.image!);
    assert.deepEqual([image.currentVersion, (image.current.content as { provenance: { prompt: string } }).provenance.prompt], [1, 'poster 2, ZINNOBER-TEAL background']);

    // A task reading the old version gets it withheld too.
    const read = await readObjectOp(t.app.deps.prisma, { workspaceId: t.a.workspaceId, objectId: fromGlobalId(W.brief!).id, version: 2 });
    assert.equal(JSON.stringify(read.version).toLowerCase().includes('zinnober'), false);

    // The card: the choice recorded, the match key gone.
    const row = await approvalRow(fromGlobalId(cardId).id);
    assert.equal(row.includes('"match"'), false);
    assert.ok(row.includes('"settled"'));
  });

  test('the withheld versions are emptied where they are stored too: the value is in no version row of the work', async () => {
    const c = new pg.Client({ connectionString: t.dbUrl });
    await c.connect();
    try {
      for (const id of [W.brief!, W.flow!]) {
        const rows = await c.query(`SELECT version, withheld_at IS NOT NULL AS w, to_jsonb(v)::text AS j FROM object_versions v WHERE object_id = $1 ORDER BY version`, [fromGlobalId(id).id]);
        assert.ok(rows.rows.length >= 2);
        for (const r of rows.rows) assert.equal((r.j as string).toLowerCase().includes('zinnober'), false, `version ${r.version} of ${id}`);
      }
      const brief = await c.query(`SELECT version, withheld_at IS NOT NULL AS w FROM object_versions WHERE object_id = $1 ORDER BY version`, [fromGlobalId(W.brief!).id]);
      assert.deepEqual(brief.rows.map((r) => [r.version, r.w]), [[1, false], [2, true], [3, false]]);
    } finally {
      await c.end();
    }
  });

  test('idempotent: a retry changes nothing; the choice is final; a key names one request', async () => {
    const before = [(await work(W.brief!)).currentVersion, (await work(W.flow!)).currentVersion, (await work(W.copy!)).currentVersion];
    await gqlOk(t.url, t.a.ownerToken, Redact, { input: { approvalId: cardId, objectIds: [W.flow!, W.brief!], idempotencyKey: 'redact-1' } });
    await gqlOk(t.url, t.a.ownerToken, Redact, { input: { approvalId: cardId, objectIds: [W.brief!, W.flow!], idempotencyKey: 'redact-again' } });
    assert.deepEqual([(await work(W.brief!)).currentVersion, (await work(W.flow!)).currentVersion, (await work(W.copy!)).currentVersion], before);
    const more = await gql(t.url, t.a.ownerToken, Redact, { input: { approvalId: cardId, objectIds: [W.copy!], idempotencyKey: 'redact-2' } });
    assert.equal(more.errors?.[0]?.extensions?.reason, 'WORKS_ALREADY_CHOSEN');
    const reused = await gql(t.url, t.a.ownerToken, Redact, { input: { approvalId: cardId, objectIds: [W.copy!], idempotencyKey: 'redact-1' } });
    assert.equal(reused.errors?.[0]?.extensions?.code, 'IDEMPOTENCY_KEY_REUSED');
    assert.equal((await work(W.copy!)).currentVersion, 1);
  });

  test('leaving every work as it is: an empty choice changes nothing and drops the match key', async () => {
    const ev = await tell('I live in Brelindor.');
    const notes = await create('DOCUMENT', 'Brelindor notes', doc('Brelindor, spring.'));
    const r = await gqlOk(t.url, t.a.ownerToken, ForgetEvidence, { input: { evidenceId: toGlobalId('MemoryEvidence', ev) } });
    const id = r.forgetEvidence.approval.id;
    assert.deepEqual(r.forgetEvidence.approval.works.map((w) => w.objectId), [notes]);
    await gqlOk(t.url, t.a.ownerToken, Resolve, { input: { approvalId: id, decision: 'APPROVE', idempotencyKey: 'approve-b' } });
    const kept = await gqlOk(t.url, t.a.ownerToken, Redact, { input: { approvalId: id, objectIds: [], idempotencyKey: 'keep-b' } });
    assert.deepEqual(kept.redactWorks.approval.works.map((w) => w.status), ['KEPT']);
    const o = await work(notes);
    assert.deepEqual([o.currentVersion, o.current.markdown], [1, 'Brelindor, spring.']);
    const row = (await approvalRow(fromGlobalId(id).id)).toLowerCase();
    assert.equal(row.includes('brelindor'), false);
    assert.equal(row.includes('"match"'), false);
  });
});
