// Mutation floods are refused before anything runs, and each root mutation field pays the rate
// limit.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { RateLimiter } from '../server/graphql/rate-limit.ts';
import { startTestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { CreateTask } from './helpers/documents.ts';
import { codes, FAST_MS, messages, post, type Res, t, taskGid, useLimitsApp } from './helpers/limits.ts';

useLimitsApp();

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
