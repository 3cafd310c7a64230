// One check of all text a request brings, before anything executes (queries, mutations and
// subscriptions, on every transport): every string in the variables (object keys included, at any
// depth, so input objects and JSON values are covered) and every string literal in the document.
// PostgreSQL cannot store U+0000 in text or jsonb, and a lone UTF-16 surrogate is not text at all
// (UTF-8 turns it into U+FFFD; jsonb refuses it) — left alone, either fails deep inside a write as a
// driver error, or silently corrupts what was stored. Refusing them up front makes them what they
// are: BAD_USER_INPUT, with nothing written, whichever argument they arrive in.
//
// The same plugin turns a parser stack overflow (a document nested thousands of levels deep) into
// BAD_USER_INPUT: it is the request's shape, not a server fault.
import { GraphQLError, Kind, visit, type ASTNode, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be accepted as text, or null. */
export function badText(s: string): string | null {
  if (s.includes('\u0000')) return 'contains a NUL character (U+0000), which text cannot hold';
  if (LONE_SURROGATE.test(s)) return 'contains an unpaired UTF-16 surrogate, which is not valid Unicode text';
  return null;
}

const badInput = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });

const describePath = (path: (string | number)[]) =>
  path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('').slice(0, 200);

type Entry = { v: unknown; key: string | number | null; parent: Entry | null };

function pathOf(e: Entry): (string | number)[] {
  const path: (string | number)[] = [];
  for (let x: Entry | null = e; x && x.key !== null; x = x.parent) path.push(x.key);
  return path.reverse();
}

/** The first bad string in a variables object (iterative, with parent links: variables may nest arbitrarily deep). */
export function findBadVariable(variables: unknown): GraphQLError | null {
  if (variables === null || typeof variables !== 'object') return null;
  const stack: Entry[] = [{ v: variables, key: null, parent: null }];
  while (stack.length > 0) {
    const e = stack.pop()!;
    const v = e.v;
    if (typeof v === 'string') {
      const why = badText(v);
      if (why) return badInput(`Variable $${describePath(pathOf(e))} ${why}`);
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], key: i, parent: e });
    } else if (v !== null && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        const why = badText(k);
        if (why) return badInput(`Variable $${describePath(pathOf(e)) || k} has a key that ${why}`);
        stack.push({ v: item, key: k, parent: e });
      }
    }
  }
  return null;
}

const literalVerdicts = new WeakMap<DocumentNode, GraphQLError | null>();

/** The first bad string literal in a document (argument values, defaults of variables). */
export function findBadLiteral(document: DocumentNode): GraphQLError | null {
  const known = literalVerdicts.get(document);
  if (known !== undefined) return known;
  let found: GraphQLError | null = null;
  visit(document, {
    StringValue(node, _key, parent, _path, ancestors) {
      const why = badText(node.value);
      if (!why) return undefined;
      // ancestors stops above the parent, which may itself be the object field holding the string.
      const names = ([...ancestors, parent] as (ASTNode | readonly ASTNode[] | undefined)[])
        .filter((a): a is ASTNode => !!a && !Array.isArray(a) && 'kind' in a)
        .filter((a) => a.kind === Kind.ARGUMENT || a.kind === Kind.OBJECT_FIELD || a.kind === Kind.VARIABLE_DEFINITION)
        .map((a) => (a.kind === Kind.VARIABLE_DEFINITION ? `$${a.variable.name.value}` : 'name' in a && a.name ? a.name.value : ''));
      found = new GraphQLError(`Argument ${names.join('.') || 'value'} ${why}`, { nodes: [node], extensions: { code: 'BAD_USER_INPUT' } });
      return false;
    },
  });
  literalVerdicts.set(document, found);
  return found;
}

const isStackOverflow = (e: unknown) => e instanceof RangeError && /call stack/i.test(e.message);

export const TOO_DEEP_MESSAGE = 'The document is nested too deeply to be read; flatten the selection or the value.';

export const inputGuard: Plugin = {
  onParse() {
    return ({ result, replaceParseResult }) => {
      if (isStackOverflow(result)) replaceParseResult(badInput(TOO_DEEP_MESSAGE));
    };
  },
  onExecute({ args, setResultAndStopExecution }) {
    const error = findBadLiteral(args.document) ?? findBadVariable(args.variableValues);
    if (error) setResultAndStopExecution({ errors: [error] });
  },
  onSubscribe({ args, setResultAndStopExecution }) {
    const error = findBadLiteral(args.document) ?? findBadVariable(args.variableValues);
    if (error) setResultAndStopExecution({ errors: [error] });
  },
};
