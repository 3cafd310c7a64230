// Expensive documents are refused before anything expensive happens, in time linear in their size,
// on every transport: fragment bombs, introspection floods, huge id lists, deep nesting, mutation
// floods (which also pay the rate limit per mutation), and no schema hints for anyone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getIntrospectionQuery, parse, validate } from 'graphql';
import { loadConfig } from '../server/config.ts';
import { RateLimiter } from '../server/graphql/rate-limit.ts';
import { introspectionBudget, limitRules, type LimitSettings } from '../server/graphql/limits.ts';
import { schema } from '../server/graphql/schema.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gqlOk, sseClient, toGlobalId, wsClient } from './helpers/clients.ts';
import { CreateTask } from './helpers/documents.ts';

let t: TestApp;
let taskGid: string;
before(async () => {
  t = await startTestApp('limits');
  const d = await gqlOk(t.url, t.a.ownerToken, CreateTask, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), title: 'original' } });
  taskGid = d.createTask.task.id;
});
after(async () => {
  await t.close();
});

type Res = { status: number; ms: number; headers: Headers; json: { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] } };

async function post(url: string, token: string | null, query: string, variables?: Record<string, unknown>): Promise<Res> {
  const started = performance.now();
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
  });
  const json = (await res.json()) as Res['json'];
  return { status: res.status, ms: performance.now() - started, headers: res.headers, json };
}

/** /health latencies while `work` runs: the event loop must stay free. */
async function healthDuring<T>(url: string, work: Promise<T>): Promise<{ result: T; worstHealthMs: number }> {
  let done = false;
  let worst = 0;
  const probe = (async () => {
    while (!done) {
      const s = performance.now();
      await fetch(`${url}/health`).then((r) => r.text());
      worst = Math.max(worst, performance.now() - s);
      await new Promise((r) => setTimeout(r, 5));
    }
  })();
  try {
    return { result: await work, worstHealthMs: worst };
  } finally {
    done = true;
    await probe;
  }
}

const codes = (r: Res) => (r.json.errors ?? []).map((e) => e.extensions?.code);
const messages = (r: Res) => (r.json.errors ?? []).map((e) => e.message).join(' | ');

/** 26 fragments, each spreading the next twice: 2^26 fields once expanded, 1 KB of text. */
function fragmentBomb(levels = 26): string {
  let doc = '{ ...F0 }\n';
  for (let i = 0; i < levels; i++) doc += `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }\n`;
  return doc + `fragment F${levels} on Query { __typename }`;
}

const introspectionAliases = (n: number) =>
  '{' + Array.from({ length: n }, (_, i) => `a${i}: __schema { types { name fields { name args { name } type { name ofType { name } } } } }`).join(' ') + '}';

const fakeIds = (n: number) => Array.from({ length: n }, (_, i) => toGlobalId('Task', `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`));

// Generous bounds for a loaded 2-core CI machine; before the limits these documents took 10–20 s.
const FAST_MS = 2_000;

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

describe('mutation floods', () => {
  const updates = (n: number, title: string) =>
    'mutation {' + Array.from({ length: n }, (_, i) => ` m${i}: updateTask(input: { taskId: "${taskGid}", title: "${title} ${i}" }) { task { id } }`).join('') + ' }';

  test('1,000 aliased updateTask fields are refused and change nothing', async () => {
    const r = await post(t.url, t.a.ownerToken, updates(1000, 'flood'));
    assert.deepEqual(codes(r), ['BAD_USER_INPUT']);
    assert.equal(r.json.data, undefined);
    assert.ok(r.ms < FAST_MS);
    // Short of the token limit, the number of root fields is limited.
    const eleven = await post(t.url, t.a.ownerToken, updates(11, 'eleven'));
    assert.deepEqual(codes(eleven), ['BAD_USER_INPUT']);
    assert.match(messages(eleven), /^Too many mutations in one request: 11 exceeds the limit of 10; send them in separate requests$/);
    // Through fragments too (each spread of a fragment counts its fields).
    const viaFragments = await post(
      t.url,
      t.a.ownerToken,
      `mutation { ...M ...M ...M } fragment M on Mutation { a: updateTask(input: { taskId: "${taskGid}", title: "f" }) { task { id } } b: archiveTask(taskId: "${taskGid}") { task { id } } c: promoteTask(taskId: "${taskGid}") { task { id } } d: archiveTask(taskId: "${taskGid}", archived: false) { task { id } } }`,
    );
    assert.match(messages(viaFragments), /Too many mutations in one request: 12 exceeds the limit of 10/);
    const task = await post(t.url, t.a.readToken, `{ task(id: "${taskGid}") { title } }`);
    assert.deepEqual(task.json.data, { task: { title: 'original' } });
  });

  test('each root mutation field is charged to the rate limit; 429 carries Retry-After', async () => {
    const small = await startTestApp('limits-rate', { rateLimitPerMinute: 12 });
    try {
      const created = await gqlOk(small.url, small.a.ownerToken, CreateTask, {
        input: { workspaceId: toGlobalId('Workspace', small.a.workspaceId), title: 'rate' },
      }); // 1 token
      const id = created.createTask.task.id;
      const many = (n: number, title: string) =>
        'mutation {' + Array.from({ length: n }, (_, i) => ` m${i}: updateTask(input: { taskId: "${id}", title: "${title}" }) { task { id } }`).join('') + ' }';
      const ten = await post(small.url, small.a.ownerToken, many(10, 'ten')); // 10 tokens: 1 left
      assert.equal(ten.json.errors, undefined, messages(ten));
      const three = await post(small.url, small.a.ownerToken, many(3, 'three'));
      assert.equal(three.status, 429);
      assert.deepEqual(codes(three), ['RATE_LIMITED']);
      const retry = Number(three.headers.get('retry-after'));
      assert.ok(Number.isInteger(retry) && retry >= 1 && retry <= 60, `Retry-After ${three.headers.get('retry-after')}`);
      assert.equal(three.json.errors![0]!.extensions!.retryAfterSeconds, retry);
      const after = await post(small.url, small.a.readToken, `{ task(id: "${id}") { title } }`);
      assert.deepEqual(after.json.data, { task: { title: 'ten' } }, 'the refused request changed nothing');
      // The plain per-request limit says when to come back too.
      let last: Res | undefined;
      for (let i = 0; i < 3 && last?.status !== 429; i++) last = await post(small.url, small.a.ownerToken, '{ viewer { scopes } }');
      assert.equal(last!.status, 429);
      assert.ok(Number(last!.headers.get('retry-after')) >= 1);
      assert.equal(last!.json.errors![0]!.extensions!.retryAfterSeconds, Number(last!.headers.get('retry-after')));
    } finally {
      await small.close();
    }
  });

  test('RateLimiter: take(n) is all or nothing; retryAfterSeconds says when n tokens are back', () => {
    let now = 0;
    const l = new RateLimiter(60, () => now); // one token a second
    assert.equal(l.take('k', 59), true);
    assert.equal(l.take('k', 2), false, 'one left: two cannot be taken');
    assert.equal(l.retryAfterSeconds('k', 2), 1);
    assert.equal(l.take('k', 1), true);
    assert.equal(l.take('k'), false);
    assert.equal(l.retryAfterSeconds('k', 5), 5);
    now += 5_000;
    assert.equal(l.take('k', 5), true);
    assert.equal(l.retryAfterSeconds('k', 1000), 60, 'more than the bucket: a full minute');
  });
});

describe('no schema hints', () => {
  test('a misspelled field without a token gets no "Did you mean"', async () => {
    const r = await post(t.url, null, '{ viewr { scopes } }');
    assert.doesNotMatch(JSON.stringify(r.json), /Did you mean|viewer/);
  });

  test('nor with a token: fields, arguments, enum values, input fields', async () => {
    const cases = [
      await post(t.url, t.a.readToken, '{ viewr { scopes } }'),
      await post(t.url, t.a.readToken, '{ viewer { workspaces { tasks(fist: 2) { edges { cursor } } } } }'),
      await post(t.url, t.a.readToken, '{ viewer { workspaces { tasks(statuses: [RUNNIN]) { edges { cursor } } } } }'),
      await post(t.url, t.a.ownerToken, 'mutation($input: UpdateTaskInput!) { updateTask(input: $input) { task { id } } }', {
        input: { taskId: taskGid, titel: 'x' },
      }),
    ];
    for (const [i, r] of cases.entries()) {
      assert.deepEqual(codes(r), ['BAD_USER_INPUT'], `case ${i}: ${messages(r)}`);
      assert.doesNotMatch(messages(r), /Did you mean/, `case ${i}`);
    }
  });
});

describe('every transport', () => {
  test('graphql-ws: the same limits, the same codes', async () => {
    const c = wsClient(t.url, t.a.ownerToken);
    const run = (query: string) =>
      new Promise<{ errors: unknown; ms: number }>((resolve) => {
        const started = performance.now();
        c.subscribe(
          { query },
          {
            next: (r) => resolve({ errors: r.errors, ms: performance.now() - started }),
            error: (e) => resolve({ errors: e, ms: performance.now() - started }),
            complete: () => resolve({ errors: undefined, ms: performance.now() - started }),
          },
        );
      });
    try {
      const cases: [string, RegExp][] = [
        [fragmentBomb(), /Query is too expensive/],
        [introspectionAliases(2000), /too large/],
        ['{' + Array.from({ length: 40 }, (_, i) => ` a${i}: viewer { scopes }`).join('') + ' }', /Too many aliases: 40 exceeds the limit of 30/],
        ['mutation {' + Array.from({ length: 11 }, (_, i) => ` m${i}: updateTask(input: { taskId: "${taskGid}", title: "ws" }) { task { id } }`).join('') + ' }', /Too many mutations/],
        ['{ ' + 'viewer { '.repeat(5000) + 'scopes' + ' }'.repeat(5001), /too large/],
        ['{ viewr { scopes } }', /Cannot query field/],
      ];
      for (const [query, expected] of cases) {
        const r = await run(query);
        const text = JSON.stringify(r.errors);
        assert.match(text, expected);
        assert.match(text, /BAD_USER_INPUT/);
        assert.doesNotMatch(text, /Did you mean/);
        assert.ok(r.ms < FAST_MS, `${r.ms.toFixed(0)} ms`);
      }
    } finally {
      await c.dispose();
    }
  });

  test('SSE: the same limits', async () => {
    const c = sseClient(t.url, t.a.readToken);
    try {
      const errors = await new Promise<unknown>((resolve) => {
        c.subscribe(
          { query: fragmentBomb() },
          { next: (r) => resolve(r.errors), error: (e) => resolve(e), complete: () => resolve(undefined) },
        );
      });
      assert.match(JSON.stringify(errors) ?? String(errors), /too expensive/);
    } finally {
      c.dispose();
    }
  });
});

describe('settings', () => {
  test('every limit is a setting with a sane default', () => {
    const d = loadConfig({});
    assert.deepEqual(
      [d.maxQueryTokens, d.maxQueryDepth, d.maxAliases, d.maxDirectives, d.maxQueryCost, d.maxMutationsPerRequest],
      [1000, 12, 30, 20, 20_000, 10],
    );
    const c = loadConfig({
      ATELIER_MAX_QUERY_TOKENS: '500',
      ATELIER_MAX_ALIASES: '5',
      ATELIER_MAX_DIRECTIVES: '3',
      ATELIER_MAX_MUTATIONS_PER_REQUEST: '2',
    });
    assert.deepEqual([c.maxQueryTokens, c.maxAliases, c.maxDirectives, c.maxMutationsPerRequest], [500, 5, 3, 2]);
  });
});
