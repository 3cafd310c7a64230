// bench:limits' documents: the families of expensive documents, each built at every size of
// ./config.ts, and the request bodies the bench sends. Each builder returns a document of about
// `bytes` characters (the JSON body adds a few).
import { Lexer, Source, TokenKind } from 'graphql';
import { toGlobalId } from '../../helpers/ids.ts';
import { BODY_LIMIT, SIZES, TOKEN_LIMIT } from './config.ts';

type Built = { query: string; variables?: Record<string, unknown> };
/**
 * fit 'tokens' (the default): as much of the attack as stays under the token limit — the most work
 * a document can ask for past the parser — then a comment pads it to the size (comments are not
 * tokens, but the lexer reads them). fit 'bytes': the attack fills the size (most go past the
 * token limit, and show how early parsing stops).
 */
type Builder = { name: string; fit?: 'tokens' | 'bytes'; build: (bytes: number, ctx: { taskGid: string }) => Built };

/** One document at one size, as the body sent. */
export type Case = { doc: string; size: string; floorMs: number; body: string };

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

/** Every family at every size, as request bodies, built before anything is timed. */
export function buildCases(taskGid: string): Case[] {
  return BUILDERS.flatMap((b) =>
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
}
