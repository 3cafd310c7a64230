// The query limits hold on every transport (HTTP, graphql-ws, SSE), no error gives schema hints to
// anyone, and every limit is a setting with a sane default.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { loadConfig } from '../server/config.ts';
import { sseClient, wsClient } from './helpers/clients.ts';
import { codes, FAST_MS, fragmentBomb, introspectionAliases, messages, post, t, taskGid, useLimitsApp } from './helpers/limits.ts';

useLimitsApp();

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
