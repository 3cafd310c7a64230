// Hostile input, generated from the schema. The schema is introspected; for every argument of every
// root field (Query, Mutation, Subscription) and of every field with arguments reachable below the
// query root, values of the argument's type that a client could send by mistake or on purpose —
// negative and huge numbers, NUL and lone surrogates, strings of a megabyte, JSON nested thousands
// of levels deep, ids of the wrong kind, malformed cursors and enums, wrong types — are sent over
// HTTP and over graphql-ws, with an owner token and every other argument valid (real ids of seeded
// objects). None may be INTERNAL or 5xx or take over a second (a slower request is sent once more,
// with a fresh idempotency key, and must not be slow again: a hang is deterministic, a loaded
// machine is not), and nothing may be written — the content of every table is fingerprinted before
// and after, so an UPDATE in place counts as much as a new row: a mutation with one hostile
// argument must fail. A new field or argument is covered without touching this
// file (an id argument whose kind cannot be guessed from its name fails loudly, see ID_KINDS).
// The focused cases, one per class of bad input, are in hostile-input-cases.test.ts; the machinery
// (transport, valid and hostile values, targets, judging, set-up) is in ./hostile/.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { getNamedType, isObjectType } from 'graphql';
import { wsClient } from './helpers/clients.ts';
import { refreshMcpVersion, setUpHostile, tearDownHostile } from './hostile/fixture.ts';
import { hostileValues } from './hostile/hostile-values.ts';
import { changedTables, fingerprint, isSlow, judge, SLOW_MS, stats } from './hostile/judge.ts';
import { schema, t } from './hostile/state.ts';
import { BASELINE, label, operation, pathsToTypes, reaches, targetsOf, wrap, type Segment, type Target } from './hostile/targets.ts';
import { http, ws, type Op } from './hostile/transport.ts';
import { idKind, validValue, withFreshKeys } from './hostile/valid-values.ts';

before(setUpHostile);
after(tearDownHostile);

// ---------------------------------------------------------------------------------------------
// The generated sweep

describe('every argument of every field, with hostile values of its type', () => {
  let targets: Target[] = [];

  before(async () => {
    // Root fields of the three operation types, and fields with arguments below the query root
    // (reached by the first path whose valid query returns data down to the field's parent).
    for (const [op, type] of [
      ['query', schema.getQueryType()],
      ['mutation', schema.getMutationType()],
      ['subscription', schema.getSubscriptionType()],
    ] as const) {
      for (const f of Object.values(type!.getFields())) targets.push(...targetsOf(op, type!, f, []));
    }
    const paths = pathsToTypes();
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) || type.name.startsWith('__') || type === schema.getQueryType()) continue;
      if (type === schema.getMutationType() || type === schema.getSubscriptionType()) continue;
      const withArgs = Object.values(type.getFields()).filter((f) => f.args.length > 0);
      if (!withArgs.length) continue;
      let reached: Segment[] | undefined;
      for (const path of paths.get(type.name) ?? []) {
        const r = await http(`query { ${wrap(path, '__typename')} }`);
        if (!r.errors.length && reaches(r.data, path.map((s) => s.name))) {
          reached = path;
          break;
        }
      }
      assert.ok(reached, `no seeded path reaches a ${type.name}: seed one so ${withArgs.map((f) => f.name).join(', ')} get tested`);
      for (const f of withArgs) targets.push(...targetsOf('query', type, f, reached));
    }
    // Warm-up: every query target once with valid values (whatever is created on first read, like
    // a main thread, exists before the fingerprints are taken), checking the field is really reached.
    const fields = new Map(targets.filter((y) => y.op === 'query').map((y) => [`${y.parent.name}.${y.field.name}`, y]));
    for (const x of fields.values()) {
      const { query, variables } = operation(x, BASELINE);
      const r = await http(query, variables);
      assert.deepEqual(r.errors, [], `valid ${x.parent.name}.${x.field.name} fails: ${query}`);
      // Its parent exists, so the field itself was resolved (to a list, perhaps empty, or a value).
      assert.ok(reaches(r.data, x.path.map((s) => s.name)), `${x.parent.name}.${x.field.name} was not reached: ${query}`);
    }
  });

  const sweep = async (transport: 'http' | 'ws', ops: Op[]) => {
    const failures: string[] = [];
    const before = await fingerprint();
    let client = wsClient(t.url, t.a.ownerToken);
    let count = 0;
    const slowFirst: string[] = [];
    const send = async (query: string, variables: Record<string, unknown>, op: Op) => {
      const o = transport === 'http' ? await http(query, variables) : await ws(client, query, variables, op);
      if (o.closed !== undefined) client = wsClient(t.url, t.a.ownerToken);
      return o;
    };
    for (const x of targets.filter((y) => ops.includes(y.op))) {
      const base = validValue(x.type, x.coord, x.name, getNamedType(x.field.type).name);
      const kind = getNamedType(x.type).name === 'ID' ? idKind(x.coord, x.name, getNamedType(x.field.type).name) : undefined;
      const atField = x.op === 'mutation' ? await fingerprint() : null;
      for (const h of hostileValues(x.type, x.op, kind, base)) {
        if (transport === 'ws' && h.httpOnly) continue;
        const what = `${label(x)} = ${h.label}`;
        const { query, variables } = operation(x, h.value);
        const o = await send(query, variables, x.op);
        count++;
        if (!isSlow(o)) {
          judge(what, x.op, o, failures);
          continue;
        }
        // Slower than a second: the same document once more, as a new request. Slow again is a hang.
        const first = `${what} [${transport}] ${o.hung ? 'no answer' : `${Math.round(o.ms)} ms`}`;
        slowFirst.push(first);
        stats.slowFirst.push(first);
        judge(what, x.op, o, failures, { timed: false });
        const again = await send(query, withFreshKeys(variables), x.op);
        if (isSlow(again)) stats.slowAgain.push(`${what} [${transport}]`);
        judge(`${what} (sent again)`, x.op, again, failures);
      }
      if (atField) {
        const changed = changedTables(atField, await fingerprint());
        if (changed.length) failures.push(`${label(x)} [${transport}]: wrote ${changed.join(', ')}`);
      }
    }
    await client.dispose();
    const changed = changedTables(before, await fingerprint());
    if (changed.length) failures.push(`${transport} sweep wrote: ${changed.join(', ')}`);
    return { failures, count, slowFirst };
  };

  const report = (name: string, r: { failures: string[]; count: number; slowFirst: string[] }) => {
    console.log(
      `${name}: ${r.count} requests; slowest answer that counted ${Math.round(stats.maxMs)} ms (${stats.maxAt}); ` +
        `${r.slowFirst.length} slower than ${SLOW_MS} ms the first time, sent again${r.slowFirst.length ? `: ${r.slowFirst.join('; ')}` : ''}`,
    );
    assert.deepEqual(r.failures, [], `${r.failures.length} of ${r.count} hostile requests were mishandled`);
  };

  test('queries and mutations over HTTP: typed errors, no writes', async () => {
    report('HTTP', await sweep('http', ['query', 'mutation']));
  });

  test('queries and subscriptions over graphql-ws (and mutations, when the socket takes them)', async () => {
    // Mutations over a socket are only as hostile as over HTTP when the transport runs them at all.
    const probe = wsClient(t.url, t.a.ownerToken);
    const p = await ws(probe, `mutation { updateTask(input: { taskId: "x" }) { __typename } }`, {}, 'mutation');
    await probe.dispose();
    const mutationsOverWs = !p.errors.some((e) => /POST request/i.test(e.message));
    const ops: Op[] = mutationsOverWs ? ['query', 'subscription', 'mutation'] : ['query', 'subscription'];
    report(`graphql-ws (${ops.join(', ')})`, await sweep('ws', ops));
  });

  test('the valid calls the sweep starts from succeed, so every refusal above was the hostile value', async () => {
    // After the sweeps (these write). Ordered so that no call undoes the precondition of a later one.
    const first = ['updateObject', 'replaceMessage', 'rerouteMessage', 'withdrawMessage', 'updateSchedule'];
    const last = ['signalTask', 'archiveTask', 'mergeTasks', 'deleteWebhookEndpoint', 'updateMcpServer', 'refreshMcpServer', 'removeMcpServer', 'revokeEgressHost', 'deleteSchedule'];
    const rank = (name: string) => (first.includes(name) ? first.indexOf(name) - 100 : last.includes(name) ? last.indexOf(name) + 100 : 0);
    const byField = new Map(targets.filter((y) => y.op === 'mutation').map((y) => [y.field.name, y]));
    const failed: string[] = [];
    await refreshMcpVersion();
    for (const x of [...byField.values()].sort((a, b) => rank(a.field.name) - rank(b.field.name) || a.field.name.localeCompare(b.field.name))) {
      const { query, variables } = operation(x, BASELINE);
      const o = await http(query, variables);
      if (o.errors.length) failed.push(`${x.field.name}: ${o.errors[0]!.extensions?.code} ${o.errors[0]!.message} — fix its valid values (validOverrides, ALSO_SET, ID_KINDS)`);
    }
    assert.deepEqual(failed, []);
  });

  test('the sweep itself: every field with arguments was reached, and every request answered quickly', () => {
    const fields = new Set(targets.map((x) => `${x.parent.name}.${x.field.name}`));
    console.log(
      `${targets.length} argument positions in ${fields.size} fields; ${stats.requests} answers judged; slowest that counted ${Math.round(stats.maxMs)} ms (${stats.maxAt}); ` +
        `${stats.slowFirst.length} slower than ${SLOW_MS} ms the first time, ${stats.slowAgain.length} slow again`,
    );
    for (const f of ['Query.node', 'Mutation.createObject', 'Subscription.workspaceEvents', 'Workspace.objects', 'Thread.messages', 'WorkspaceObject.version']) {
      assert.ok(fields.has(f), `${f} is not covered`);
    }
    assert.deepEqual(stats.slowAgain, [], 'slower than a second twice in a row: a hang');
    assert.ok(stats.maxMs <= SLOW_MS, `${Math.round(stats.maxMs)} ms (${stats.maxAt})`);
  });
});
