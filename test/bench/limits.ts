// Expensive-document benchmark: the worst documents we can build at ~2 KB, ~100 KB and ~1 MB
// (fragment bombs, introspection alias floods, deep nesting, huge id lists, directive floods,
// token floods, mutation floods, …) sent to the real server, in a process of its own, without a
// token, with a forged token and with a valid one. Meanwhile a probe polls /health.
//
//   npm run bench:limits              full run (~1 min)
//   npm run bench:limits -- --quick   CI run (fewer repetitions)
//
// Floors: every document is refused (401 without a token, an error and no data otherwise) within
// 50 ms (2 KB), 500 ms (100 KB) and 2 s (1 MB); /health answers within 100 ms meanwhile. Exit 1
// when a floor is missed or a document is not refused. Each figure is the median over the
// repetitions (the slowest is printed too): a request that blocks the server does so every time,
// while the 2-core machine it shares with PostgreSQL (and whatever else runs) adds single spikes.
//
// The server runs with its default settings, so the body limit (ATELIER_MAX_BODY_BYTES, 1,000,000)
// holds: the "1 MB" documents are just under it, which also puts them past every parser limit
// (the token limit stops parsing after 1,000 tokens of a million). Bigger bodies never reach
// GraphQL at all (413 before parsing, covered by test/http-errors.test.ts).
import { performance } from 'node:perf_hooks';
import { Lexer, Source, TokenKind, getIntrospectionQuery } from 'graphql';
import { loadConfig } from '../../server/config.ts';
import { createPrisma } from '../../server/db/client.ts';
import { initWorkspace } from '../../server/services/workspaces/init-workspace.ts';
import { createTestDatabase } from '../helpers/db.ts';
import { toGlobalId } from '../helpers/ids.ts';
import { startServerProcess } from '../helpers/process.ts';
import { fmt, percentile, round, table } from './stats.ts';
import { pause, waitFor } from '../helpers/wait.ts';

const QUICK = process.argv.includes('--quick');
const REPS = QUICK ? 3 : 7;
const BODY_LIMIT = 1_000_000;
const SIZES = [
  { label: '2 KB', bytes: 2_000, floorMs: 50 },
  { label: '100 KB', bytes: 100_000, floorMs: 500 },
  { label: '1 MB', bytes: BODY_LIMIT - 2_000, floorMs: 2_000 },
] as const;
const HEALTH_FLOOR_MS = 100;

// ---------------------------------------------------------------------------------------------
// Documents: each builder returns a document of about `bytes` characters (the JSON body adds a few).

type Built = { query: string; variables?: Record<string, unknown> };
/**
 * fit 'tokens' (the default): as much of the attack as stays under the token limit — the most work
 * a document can ask for past the parser — then a comment pads it to the size (comments are not
 * tokens, but the lexer reads them). fit 'bytes': the attack fills the size (most go past the
 * token limit, and show how early parsing stops).
 */
type Builder = { name: string; fit?: 'tokens' | 'bytes'; build: (bytes: number, ctx: { taskGid: string }) => Built };

const TOKEN_LIMIT = loadConfig({}).maxQueryTokens;

function tokens(query: string): number {
  const lexer = new Lexer(new Source(query));
  let n = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF) if (++n > TOKEN_LIMIT) break;
  } catch {
    return Infinity;
  }
  return n;
}

/** The largest document of the family under the token limit, padded with a comment to `bytes`. */
function fitTokens(b: Builder, bytes: number, ctx: { taskGid: string }): Built {
  let lo = 0;
  let hi = bytes;
  let best: Built | undefined;
  while (lo <= hi) {
    const mid = Math.floor((lo + hi) / 2);
    const built = b.build(Math.max(1, mid), ctx);
    if (tokens(built.query) <= TOKEN_LIMIT && built.query.length <= bytes) {
      best = built;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  best ??= b.build(1, ctx);
  const pad = bytes - best.query.length - 2;
  return { ...best, query: pad > 0 ? `#${'p'.repeat(pad)}\n${best.query}` : best.query };
}

/** Repeats `unit(i)` until the document reaches `bytes`. */
function fill(bytes: number, head: string, unit: (i: number) => string, tail: string): string {
  const parts = [head];
  let size = head.length + tail.length;
  for (let i = 0; size < bytes; i++) {
    const u = unit(i);
    if (size + u.length > bytes && i > 0) break;
    parts.push(u);
    size += u.length;
  }
  parts.push(tail);
  return parts.join('');
}

const fakeId = (i: number) => toGlobalId('Task', `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`);

/** n fragments, each spreading the next twice: 2^n fields once expanded. */
function chain(n: number, name: (i: number) => string, body = ''): string {
  let doc = `{ ...${name(0)} }\n`;
  for (let i = 0; i < n; i++) doc += `fragment ${name(i)} on Query { ${body}...${name(i + 1)} ...${name(i + 1)} }\n`;
  return doc + `fragment ${name(n)} on Query { __typename }`;
}

const BUILDERS: Builder[] = [
  {
    // As many levels as fit: at 2 KB, ~50 levels (2^50 fields); beyond, the token limit.
    name: 'fragment bomb (F_i spreads F_i+1 twice)',
    build: (bytes) => {
      let n = 1;
      while (chain(n + 1, (i) => `F${i}`).length <= bytes) n++;
      return { query: chain(n, (i) => `F${i}`) };
    },
  },
  {
    // 26 levels within the token limit, the bytes spent on fragment names (long names are cheap in
    // tokens and make every memo key and comparison longer).
    name: 'fragment bomb, 26 levels, long names',
    fit: 'bytes',
    build: (bytes) => {
      const pad = Math.max(1, Math.floor((bytes - chain(26, (i) => `F${i}`).length) / (26 * 4)));
      const name = (i: number) => `F${i}_${'x'.repeat(pad)}`;
      return { query: chain(26, name) };
    },
  },
  {
    name: 'fragment bomb with aliases and directives',
    build: (bytes) => {
      let n = 1;
      const body = (i: number) => `a: __typename @include(if: true) b${i}: viewer { scopes } `;
      const build = (k: number) => {
        let doc = '{ ...F0 }\n';
        for (let i = 0; i < k; i++) doc += `fragment F${i} on Query { ${body(i)}...F${i + 1} ...F${i + 1} }\n`;
        return doc + `fragment F${k} on Query { __typename }`;
      };
      while (build(n + 1).length <= bytes) n++;
      return { query: build(n) };
    },
  },
  {
    name: 'introspection alias flood (a_i: __schema {…})',
    build: (bytes) => ({
      query: fill(bytes, '{', (i) => ` a${i}: __schema { types { name fields { name args { name } type { name ofType { name } } } } }`, ' }'),
    }),
  },
  {
    name: 'nested introspection (types{fields{type{fields…}}})',
    build: (bytes) => {
      const levels = Math.max(1, Math.floor((bytes - 40) / 30));
      return { query: '{ __schema { types { ' + 'fields { type { '.repeat(levels) + 'name' + ' } }'.repeat(levels) + ' } } }' };
    },
  },
  {
    name: 'deep selection (viewer { viewer { … } })',
    build: (bytes) => {
      const levels = Math.max(1, Math.floor((bytes - 20) / 11));
      return { query: '{ ' + 'viewer { '.repeat(levels) + 'scopes' + ' }'.repeat(levels + 1) };
    },
  },
  {
    name: 'deep selection (viewer { viewer { … } })',
    fit: 'bytes',
    build: (bytes) => {
      const levels = Math.max(1, Math.floor((bytes - 20) / 11));
      return { query: '{ ' + 'viewer { '.repeat(levels) + 'scopes' + ' }'.repeat(levels + 1) };
    },
  },
  {
    name: 'introspection alias flood (a_i: __schema {…})',
    fit: 'bytes',
    build: (bytes) => ({
      query: fill(bytes, '{', (i) => ` a${i}: __schema { types { name fields { name args { name } type { name ofType { name } } } } }`, ' }'),
    }),
  },
  {
    name: 'deep list literal ([[[[…]]]])',
    fit: 'bytes',
    build: (bytes) => {
      const levels = Math.max(1, Math.floor((bytes - 40) / 2));
      return { query: `{ nodes(ids: ${'['.repeat(levels)}${']'.repeat(levels)}) { id } }` };
    },
  },
  {
    name: 'nodes(ids: [literal list]) { … on Task { events(first: 500) } }',
    build: (bytes) => ({
      query: fill(bytes, '{ nodes(ids: [', (i) => `${i ? ',' : ''}"${fakeId(i)}"`, ']) { ... on Task { events(first: 500) { edges { node { seq type occurredAt } } } } } }'),
    }),
  },
  {
    name: 'nodes(ids: $ids) with a huge variable list',
    fit: 'bytes',
    build: (bytes) => {
      const ids: string[] = [];
      for (let size = 0, i = 0; size < bytes - 200; i++) {
        ids.push(fakeId(i));
        size += fakeId(i).length + 3;
      }
      return { query: 'query($ids: [ID!]!) { nodes(ids: $ids) { ... on Task { events(first: 100) { edges { node { seq } } } } } }', variables: { ids } };
    },
  },
  {
    name: 'directive flood (__typename @include(if: true) …)',
    build: (bytes) => ({ query: fill(bytes, '{ __typename', () => ' @include(if: true)', ' }') }),
  },
  {
    name: 'token flood ({ a a a … })',
    fit: 'bytes',
    build: (bytes) => ({ query: fill(bytes, '{', () => ' a', ' }') }),
  },
  {
    // Within our limits up to the token limit, so graphql's own rules run (comparing same-name
    // fields pairwise); the unknown field at the end makes it invalid once they have.
    name: 'same-name fields (viewer { scopes } × n), then an unknown field',
    build: (bytes) => ({ query: fill(bytes, '{', () => ' viewer { scopes }', ' nope }') }),
  },
  {
    // Repeats within the per-selection limit (10), nested: each pair of `viewer`s compares their
    // 10 × 10 `workspaces`, each pair of those their `tasks`, …
    name: 'same-name fields 10 × 10 × …, nested, then an unknown field',
    build: (bytes) => {
      const chain = ['viewer', 'workspaces', 'tasks(first: 1)', 'edges', 'node'];
      const level = (d: number, fan: number): string =>
        d === chain.length - 1 ? `${chain[d]} { id }` : `${chain[d]} { ${Array.from({ length: fan }, () => level(d + 1, fan)).join(' ')} }`;
      let fan = 1;
      while (fan < 10 && `{ ${Array.from({ length: fan + 1 }, () => level(0, fan + 1)).join(' ')} nope }`.length <= bytes) fan++;
      return { query: `{ ${Array.from({ length: fan }, () => level(0, fan)).join(' ')} nope }` };
    },
  },
  {
    name: 'distinct fragments spread together, then an unknown field',
    build: (bytes) => {
      const spreads: string[] = [];
      const defs: string[] = [];
      for (let i = 0, size = 10; size < bytes; i++) {
        spreads.push(`...G${i}`);
        const def = `fragment G${i} on Query { viewer { scopes } }\n`;
        defs.push(def);
        size += def.length + 8;
      }
      return { query: `{ ${spreads.join(' ')} nope }\n${defs.join('')}` };
    },
  },
  {
    name: 'mutation flood (m_i: updateTask …)',
    build: (bytes, { taskGid }) => ({
      query: fill(bytes, 'mutation {', (i) => ` m${i}: updateTask(input: { taskId: "${taskGid}", title: "t${i}" }) { task { id } }`, ' }'),
    }),
  },
  {
    name: 'one huge string argument (task(id: "xxxx…"))',
    fit: 'bytes',
    build: (bytes) => ({ query: `{ task(id: "${'x'.repeat(Math.max(1, bytes - 40))}") { id } }` }),
  },
];

// ---------------------------------------------------------------------------------------------
// Measurement

type Who = 'no token' | 'forged token' | 'valid token';
type Sample = { ms: number; status: number; refused: boolean; what: string };

async function send(url: string, token: string | null, body: string): Promise<Sample> {
  const started = performance.now();
  const res = await fetch(`${url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body,
  });
  const text = await res.text();
  const ms = performance.now() - started;
  let json: { data?: unknown; errors?: { message: string; extensions?: { code?: string } }[] } = {};
  try {
    json = JSON.parse(text);
  } catch {
    /* not JSON: not refused the way we expect */
  }
  const errors = json.errors ?? [];
  // Refused: an error and no data at all (nothing executed, or its one field failed).
  const refused = errors.length > 0 && (json.data === undefined || json.data === null);
  const first = errors[0];
  const what = first ? `${first.extensions?.code ?? '?'}: ${first.message}` : `status ${res.status}, no error`;
  return { ms, status: res.status, refused, what };
}

/** Polls /health every 10 ms until stopped; returns the latencies. */
function healthProbe(url: string) {
  const samples: number[] = [];
  let running = true;
  let started = 0;
  let done = 0;
  const loop = (async () => {
    while (running) {
      started++;
      const s = performance.now();
      try {
        await fetch(`${url}/health`).then((r) => r.text());
        samples.push(performance.now() - s);
      } catch {
        samples.push(Infinity);
      } finally {
        done++;
      }
      // The probe's pace: one /health round trip every ~10 ms measures the event loop meanwhile.
      await pause(10);
    }
  })();
  return {
    take: () => samples.splice(0),
    /** Resolves once the round in flight now (one that overlapped the last request) has its sample. */
    caughtUp: () => {
      const inFlight = started;
      return waitFor(() => done >= inFlight, 'the health probe round in flight', { timeoutMs: 30_000, intervalMs: 1 });
    },
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

type Row = {
  doc: string;
  size: string;
  bytes: number;
  floorMs: number;
  who: Who;
  p50Ms: number;
  maxMs: number;
  /** Median over the repetitions of the slowest /health answer during each. */
  healthMs: number;
  healthMaxMs: number;
  refused: boolean;
  what: string;
};

async function main() {
  const started = performance.now();
  const db = await createTestDatabase('benchlimits');
  let server: Awaited<ReturnType<typeof startServerProcess>> | undefined;
  const rows: Row[] = [];
  const accepted: { name: string; ms: number[]; healthMaxMs: number; ok: boolean }[] = [];
  try {
    const prisma = createPrisma(db.url, { max: 1 });
    const init = await initWorkspace(prisma, { workspaceName: 'Bench' });
    await prisma.$disconnect();
    // The real server in a process of its own (default limits), so that building the documents and
    // probing here never share its event loop: a stall /health sees is the server's. The rate limit
    // is lifted so the bench measures the document limits, not the token bucket.
    server = await startServerProcess({ DATABASE_URL: db.url, ATELIER_RATE_LIMIT_PER_MINUTE: '100000000' }, 60_000, ['--api-only']);
    const url = server.url;
    const created = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${init.token}` },
      body: JSON.stringify({
        query: 'mutation($input: CreateTaskInput!) { createTask(input: $input) { task { id } } }',
        variables: { input: { workspaceId: toGlobalId('Workspace', init.workspace.id), title: 'bench' } },
      }),
    }).then((r) => r.json() as Promise<{ data: { createTask: { task: { id: string } } } }>);
    const taskGid = created.data.createTask.task.id;
    const tokens: Record<Who, string | null> = { 'no token': null, 'forged token': 'atl_forged_token_for_the_bench', 'valid token': init.token };

    // Bodies are built before anything is timed.
    const cases = BUILDERS.flatMap((b) =>
      SIZES.map((s) => {
        // JSON escapes (newlines) make a body longer than its document: shrink until it fits.
        let bytes: number = s.bytes;
        let body = '';
        for (;;) {
          const { query, variables } = b.fit === 'bytes' ? b.build(bytes, { taskGid }) : fitTokens(b, bytes, { taskGid });
          body = JSON.stringify({ query, variables });
          if (body.length <= Math.max(s.bytes, BODY_LIMIT - 1_000) || bytes < 1_000) break;
          bytes -= body.length - s.bytes + 100;
        }
        return { doc: `${b.name} ${b.fit === 'bytes' ? '[fills]' : `[≤ ${TOKEN_LIMIT} tokens]`}`, size: s.label, floorMs: s.floorMs, body };
      }),
    );
    process.stderr.write(`bench:limits (${QUICK ? 'quick' : 'full'}): ${cases.length} documents × 3 callers × ${REPS} repetitions against ${url}\n`);

    // Warm-up (JIT, connection pool, token cache), not counted.
    for (let i = 0; i < 3; i++) {
      await send(url, init.token, JSON.stringify({ query: '{ viewer { scopes } }' }));
      await send(url, init.token, cases[0]!.body);
      await send(url, null, cases[0]!.body);
    }

    const probe = healthProbe(url);
    try {
      for (const c of cases) {
        for (const who of Object.keys(tokens) as Who[]) {
          const samples: Sample[] = [];
          const health: number[] = [];
          for (let r = 0; r < REPS; r++) {
            probe.take();
            samples.push(await send(url, tokens[who], c.body));
            await probe.caughtUp(); // a round that overlapped the request counts for it
            health.push(Math.max(0, ...probe.take()));
          }
          const ms = samples.map((s) => s.ms);
          const notRefused = samples.find((s) => !s.refused);
          rows.push({
            doc: c.doc,
            size: c.size,
            bytes: c.body.length,
            floorMs: c.floorMs,
            who,
            p50Ms: percentile(ms, 50),
            maxMs: Math.max(...ms),
            healthMs: percentile(health, 50),
            healthMaxMs: Math.max(...health),
            refused: !notRefused,
            what: (notRefused ?? samples[0]!).what,
          });
        }
      }
    } finally {
      await probe.stop();
    }
    // Not floors: what the largest documents the limits accept cost, for the record.
    const introspection = getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true });
    const heavyQuery = `{ viewer { workspaces { tasks(first: 100) { edges { node { id title status events(first: 30) { edges { node { seq type occurredAt } } } } } } } } }`;
    for (const [name, query] of [
      ['full introspection (GraphiQL)', introspection],
      ['a data query near the cost limit (tasks(first:100) × events(first:30))', heavyQuery],
    ] as const) {
      const probe2 = healthProbe(url);
      const samples: Sample[] = [];
      for (let r = 0; r < REPS; r++) samples.push(await send(url, init.token, JSON.stringify({ query })));
      await probe2.caughtUp();
      const health = probe2.take();
      await probe2.stop();
      accepted.push({ name, ms: samples.map((x) => x.ms), healthMaxMs: health.length ? Math.max(...health) : NaN, ok: samples.every((x) => !x.refused) });
    }
  } finally {
    await server?.stop();
    await db.drop();
  }

  // ---------------------------------------------------------------------------------------------
  // Report

  const failures: string[] = [];
  for (const r of rows) {
    if (!r.refused) failures.push(`${r.doc} [${r.size}, ${r.who}] was not refused: ${r.what}`);
    if (!(r.p50Ms <= r.floorMs)) failures.push(`${r.doc} [${r.size}, ${r.who}] took ${fmt(r.p50Ms)} ms (median; floor ${r.floorMs} ms)`);
    if (!(r.healthMs <= HEALTH_FLOOR_MS)) failures.push(`/health took ${fmt(r.healthMs)} ms (median) during ${r.doc} [${r.size}, ${r.who}] (floor ${HEALTH_FLOOR_MS} ms)`);
  }
  const out: string[] = [];
  out.push('');
  out.push(`Atelier expensive-document benchmark (${QUICK ? 'quick' : 'full'}, ${REPS} repetitions: median ms, slowest in brackets) — node ${process.version}`);
  out.push(`Server: server/main.ts --api-only in its own process, default limits; body limit ${BODY_LIMIT} bytes.`);
  out.push(`Floors: refused within 50 ms (2 KB), 500 ms (100 KB), 2 s (1 MB); /health within ${HEALTH_FLOOR_MS} ms meanwhile.`);
  out.push(`[≤ ${TOKEN_LIMIT} tokens]: as much of the attack as stays under the token limit (the most work past the parser), comment-padded to the size;`);
  out.push(`[fills]: the attack fills the size.`);
  out.push('');
  const docs = [...new Set(rows.map((r) => r.doc))];
  const cell = (doc: string, size: string, who: Who) => {
    const r = rows.find((x) => x.doc === doc && x.size === size && x.who === who)!;
    return `${fmt(r.p50Ms, 0)} (${fmt(r.maxMs, 0)})${r.refused && r.p50Ms <= r.floorMs && r.healthMs <= HEALTH_FLOOR_MS ? '' : ' ✗'}`;
  };
  const header = ['document — ms to refusal: no token / forged token / valid token', ...SIZES.map((s) => s.label)];
  out.push(
    table(
      header,
      docs.map((d) => [d, ...SIZES.map((s) => (['no token', 'forged token', 'valid token'] as Who[]).map((w) => cell(d, s.label, w)).join(' / '))]),
    ),
  );
  out.push('');
  out.push('How each document was refused with a valid token (2 KB | 1 MB):');
  const reason = (d: string, size: string) => {
    const r = rows.find((x) => x.doc === d && x.size === size && x.who === 'valid token')!;
    return r.what.replace(/^BAD_USER_INPUT: /, '').replace(/: it has more than \d+ tokens \(the limit\)/, '').replace(/; send them in separate requests/, '').slice(0, 90);
  };
  for (const d of docs) out.push(`  ${d}: ${reason(d, '2 KB')} | ${reason(d, '1 MB')}`);
  out.push('');
  out.push(
    `/health meanwhile: worst median ${fmt(Math.max(...rows.map((r) => r.healthMs)))} ms (floor ${HEALTH_FLOOR_MS} ms), slowest single answer ${fmt(Math.max(...rows.map((r) => r.healthMaxMs)))} ms; total ${fmt((performance.now() - started) / 1000)} s.`,
  );
  for (const s of SIZES) {
    const xs = rows.filter((r) => r.size === s.label);
    out.push(
      `  ${s.label}: slowest median refusal ${fmt(Math.max(...xs.map((r) => r.p50Ms)))} ms (floor ${s.floorMs} ms), slowest single ${fmt(Math.max(...xs.map((r) => r.maxMs)))} ms`,
    );
  }
  out.push('');
  out.push('Accepted at the limits (not floors; a valid token, the bench database has one task):');
  for (const a of accepted) {
    out.push(`  ${a.name}: ${a.ok ? 'answered' : 'REFUSED'} in ${fmt(percentile(a.ms, 50))} ms (median), /health worst ${fmt(a.healthMaxMs)} ms meanwhile`);
  }
  out.push('');
  out.push(failures.length ? `FAILED (${failures.length}):\n  ${failures.join('\n  ')}` : 'All documents refused within their floors.');
  console.log(out.join('\n'));
  console.log(
    `BENCH_RESULT ${JSON.stringify({
      mode: QUICK ? 'quick' : 'full',
      reps: REPS,
      rows: rows.map((r) => ({ ...r, maxMs: round(r.maxMs), p50Ms: round(r.p50Ms), healthMs: round(r.healthMs), healthMaxMs: round(r.healthMaxMs) })),
      accepted: accepted.map((a) => ({ name: a.name, p50Ms: round(percentile(a.ms, 50)), healthMaxMs: round(a.healthMaxMs), ok: a.ok })),
      failures,
    })}`,
  );
  if (failures.length) process.exitCode = 1;
}

main().then(
  () => process.exit(process.exitCode ?? 0),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
