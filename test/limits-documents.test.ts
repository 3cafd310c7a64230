// Expensive documents are refused before anything expensive happens, in time linear in their size:
// fragment bombs, introspection floods, huge id lists, deep nesting. Mutation floods:
// limits-mutations.test.ts; hints, transports and settings: limits-transports.test.ts.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { getIntrospectionQuery, parse, validate } from 'graphql';
import { introspectionBudget, limitRules, type LimitSettings } from '../server/graphql/limits.ts';
import { schema } from '../server/graphql/schema.ts';
import { codes, fakeIds, FAST_MS, fragmentBomb, healthDuring, introspectionAliases, messages, post, t, useLimitsApp } from './helpers/limits.ts';

useLimitsApp();

describe('fragment bombs (validation is linear, and anonymous callers never reach it)', () => {
  test('without a token: 401 at once, /health stays responsive', async () => {
    const { result: r, worstHealthMs } = await healthDuring(t.url, post(t.url, null, fragmentBomb()));
    assert.equal(r.status, 401);
    assert.deepEqual(codes(r), ['UNAUTHENTICATED']);
    assert.ok(r.ms < FAST_MS, `answered in ${r.ms.toFixed(0)} ms`);
    assert.ok(worstHealthMs < FAST_MS, `/health took ${worstHealthMs.toFixed(0)} ms`);
  });

  test('without a credential even a broken document is 401, not a parse error', async () => {
    const r = await post(t.url, null, '{ viewer { ');
    assert.equal(r.status, 401);
    assert.deepEqual(codes(r), ['UNAUTHENTICATED']);
  });

  test('with a token: refused as too expensive, quickly, nothing executed', async () => {
    const { result: r, worstHealthMs } = await healthDuring(t.url, post(t.url, t.a.readToken, fragmentBomb()));
    assert.deepEqual(codes(r), ['BAD_USER_INPUT']);
    assert.match(messages(r), /Query is too expensive: cost 67108864 exceeds the limit of 20000/);
    assert.equal(r.json.data, undefined);
    assert.ok(r.ms < FAST_MS, `answered in ${r.ms.toFixed(0)} ms`);
    assert.ok(worstHealthMs < FAST_MS, `/health took ${worstHealthMs.toFixed(0)} ms`);
  });

  test('a forged token meets the same linear limits', async () => {
    const r = await post(t.url, 'atl_forged', fragmentBomb());
    assert.ok(r.ms < FAST_MS, `answered in ${r.ms.toFixed(0)} ms`);
    assert.deepEqual(codes(r), ['BAD_USER_INPUT']);
  });

  // 26 levels: an expanding check takes seconds (2^26 fields), a memoised one milliseconds; many
  // more levels would hang a regression rather than fail it.
  test('every rule memoises fragments: 2^26 aliases, directives and fields measured in well under a second', () => {
    const settings: LimitSettings = { maxTokens: 1e9, maxDepth: 12, maxAliases: 30, maxDirectives: 20, maxCost: 20_000, maxMutationFields: 10 };
    let doc = '{ ...F0 }\n';
    for (let i = 0; i < 26; i++) doc += `fragment F${i} on Query { a${i}: viewer @include(if: true) { scopes } ...F${i + 1} ...F${i + 1} }\n`;
    doc += 'fragment F26 on Query { __typename }';
    const document = parse(doc, { maxTokens: 1e9 });
    const started = performance.now();
    const errors = validate(schema, document, limitRules(settings), { maxErrors: 10 });
    const ms = performance.now() - started;
    assert.deepEqual(
      errors.map((e) => e.message),
      [
        'Too many aliases: 67108863 exceeds the limit of 30',
        'Too many directives: 67108863 exceeds the limit of 20',
        'Query is too expensive: cost 201326590 exceeds the limit of 20000',
      ],
    );
    assert.ok(ms < 1_000, `${ms.toFixed(0)} ms`);
  });
});

describe('introspection counts', () => {
  test('2,000 aliased __schema selections (189 KB) are refused at once', async () => {
    const doc = introspectionAliases(2000);
    assert.ok(doc.length > 150_000);
    const r = await post(t.url, t.a.readToken, doc);
    assert.deepEqual(codes(r), ['BAD_USER_INPUT']);
    assert.ok(r.ms < FAST_MS, `answered in ${r.ms.toFixed(0)} ms`);
  });

  test('within the token and alias limits, introspection still has a cost budget', () => {
    const settings: LimitSettings = { maxTokens: 1e9, maxDepth: 12, maxAliases: 1e9, maxDirectives: 20, maxCost: 20_000, maxMutationFields: 10 };
    const budget = introspectionBudget(schema);
    const errors = validate(schema, parse(introspectionAliases(100)), limitRules(settings));
    assert.equal(errors.length, 1);
    const m = new RegExp(`^Introspection is too expensive: cost (\\d+) exceeds the limit of ${budget}$`).exec(errors[0]!.message);
    assert.ok(m, errors[0]!.message);
    assert.ok(Number(m[1]) > budget);
  });

  test("GraphiQL's full introspection query still works", async () => {
    const q = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
    const r = await post(t.url, t.a.readToken, q);
    assert.equal(r.json.errors, undefined, messages(r));
    assert.ok(((r.json.data as { __schema: { types: unknown[] } }).__schema.types.length) > 50);
  });
});

describe('list arguments count', () => {
  test('nodes(ids:) with 5,000 ids and a connection under it is refused before execution', async () => {
    const q = `{ nodes(ids: ${JSON.stringify(fakeIds(5000))}) { ... on Task { events(first: 100) { edges { node { seq type occurredAt } } } } } }`;
    const r = await post(t.url, t.a.readToken, q);
    assert.deepEqual(codes(r), ['BAD_USER_INPUT']);
    assert.match(messages(r), /Query is too large/); // 10,000 tokens
    assert.equal(r.json.data, undefined);
    assert.ok(r.ms < FAST_MS, `answered in ${r.ms.toFixed(0)} ms`);
    // Without the token limit, the list and the cost are refused by validation.
    const settings: LimitSettings = { maxTokens: 1e9, maxDepth: 12, maxAliases: 30, maxDirectives: 20, maxCost: 20_000, maxMutationFields: 10 };
    const errors = validate(schema, parse(q, { maxTokens: 1e9 }), limitRules(settings)).map((e) => e.message);
    assert.deepEqual(errors, [
      'Too many ids: nodes(ids:) takes at most 100, this request has 5000',
      'Query is too expensive: cost 2505001 exceeds the limit of 20000',
    ]);
    const within = `{ nodes(ids: ${JSON.stringify(fakeIds(100))}) { ... on Task { events(first: 100) { edges { node { seq } } } } } }`;
    const r100 = await post(t.url, t.a.readToken, within);
    assert.match(messages(r100), /Query is too expensive: cost 30101 exceeds the limit of 20000/);
  });

  test('ids in a variable count as the most nodes accepts; more than that is BAD_USER_INPUT', async () => {
    const costly = await post(t.url, t.a.readToken, 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on Task { events(first: 100) { edges { node { seq } } } } } }', {
      ids: fakeIds(2),
    });
    assert.match(messages(costly), /Query is too expensive: cost \d+ exceeds the limit of 20000/);
    const many = await post(t.url, t.a.readToken, 'query($ids: [ID!]!) { nodes(ids: $ids) { id } }', { ids: fakeIds(5000) });
    assert.deepEqual(codes(many), ['BAD_USER_INPUT'], messages(many));
    assert.ok(many.ms < FAST_MS);
  });

  test('connection defaults and first/last multiply, nested', () => {
    const settings: LimitSettings = { maxTokens: 1e9, maxDepth: 20, maxAliases: 30, maxDirectives: 20, maxCost: 1e12, maxMutationFields: 10 };
    const cost = (q: string) => {
      const e = validate(schema, parse(q), limitRules({ ...settings, maxCost: 0 }));
      return Number(/cost (\d+)/.exec(e[0]!.message)![1]);
    };
    // viewer 1 + workspaces 1 + tasks (default page 20) × (edges 1 + node 1 + id 1)
    assert.equal(cost('{ viewer { workspaces { tasks { edges { node { id } } } } } }'), 1 + 1 + 1 + 20 * 3);
    assert.equal(cost('{ viewer { workspaces { tasks(last: 5) { edges { node { id } } } } } }'), 3 + 5 * 3);
    // A variable page counts as the largest page; Task.events defaults to 100 and goes up to 500.
    assert.equal(cost('query($n: Int) { viewer { workspaces { tasks(first: $n) { edges { node { id } } } } } }'), 3 + 100 * 3);
    assert.equal(cost('query($id: ID!) { task(id: $id) { events { edges { node { seq } } } } }'), 2 + 100 * 3);
    assert.equal(cost('query($id: ID!, $n: Int) { task(id: $id) { events(first: $n) { edges { node { seq } } } } }'), 2 + 500 * 3);
    // Nested connections multiply: 1 + 1 + 1 + 10 × (1 + 1 + 1 + 50 × 3)
    assert.equal(cost('{ viewer { workspaces { tasks(first: 10) { edges { node { events(first: 50) { edges { node { seq } } } } } } } } }'), 3 + 10 * (3 + 50 * 3));
    // A size argument's default counts (ledgerByDay(days = 30)).
    assert.equal(cost('query($id: ID!) { workspace(id: $id) { ledgerByDay { day } } }'), 2 + 30);
  });
});

describe('parser limits', () => {
  test('5,000-deep selections and a 50,000-deep list are BAD_USER_INPUT, not a crash', async () => {
    const deep = '{ ' + 'viewer { '.repeat(5000) + 'scopes' + ' }'.repeat(5001);
    const list = `{ nodes(ids: ${'['.repeat(50_000)}${']'.repeat(50_000)}) { id } }`;
    for (const doc of [deep, list]) {
      const r = await post(t.url, t.a.readToken, doc);
      assert.deepEqual(codes(r), ['BAD_USER_INPUT'], messages(r));
      assert.match(messages(r), /Query is too large: it has more than 1000 tokens/);
      assert.ok(r.ms < FAST_MS);
    }
  });

  test('cyclic fragments end the limit checks and are refused by validation', async () => {
    const r = await post(t.url, t.a.readToken, '{ ...A } fragment A on Query { viewer { scopes } ...B } fragment B on Query { ...A }');
    assert.deepEqual([...new Set(codes(r))], ['BAD_USER_INPUT']);
    assert.match(messages(r), /Cannot spread fragment "A" within itself/);
  });

  test('one field selected more than 10 times in one place is refused before graphql compares them pairwise', async () => {
    const r = await post(t.url, t.a.readToken, '{' + ' viewer { scopes }'.repeat(11) + ' }');
    assert.deepEqual(codes(r), ['BAD_USER_INPUT']);
    assert.equal(messages(r), 'Field "viewer" is selected more than 10 times in one place; select it once');
    const ten = await post(t.url, t.a.readToken, '{' + ' viewer { scopes }'.repeat(10) + ' }');
    assert.deepEqual(ten.json.data, { viewer: { scopes: ['READ'] } });
  });

  test('the token limit applies before validation', async () => {
    const r = await post(t.url, t.a.readToken, '{ ' + 'nope '.repeat(1001) + '}');
    assert.deepEqual(codes(r), ['BAD_USER_INPUT']);
    assert.match(messages(r), /too large/);
    assert.doesNotMatch(messages(r), /Cannot query field/);
  });
});
