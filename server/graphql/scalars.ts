import { GraphQLError, Kind } from 'graphql';
import { builder } from './builder.ts';

const bad = (message: string) => new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });

// ISO-8601 only (Date would also take "March 7" or year -271821), within years PostgreSQL and
// toISOString() both handle.
const ISO_DATE_TIME = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/;

function parseDateTime(v: unknown): Date {
  const d = typeof v === 'string' && v.length <= 40 && ISO_DATE_TIME.test(v) ? new Date(v) : null;
  if (!d || Number.isNaN(d.getTime()) || d.getUTCFullYear() < 1 || d.getUTCFullYear() > 9999) {
    throw bad('DateTime must be an ISO-8601 string between the years 0001 and 9999, e.g. 2026-11-29T08:00:00.000Z');
  }
  return d;
}

builder.scalarType('DateTime', {
  description: 'An ISO-8601 timestamp in UTC, e.g. 2026-11-29T08:00:00.000Z',
  serialize: (d) => (d instanceof Date ? d : new Date(d as string)).toISOString(),
  parseValue: parseDateTime,
  parseLiteral: (ast) => parseDateTime(ast.kind === Kind.STRING ? ast.value : null),
});

export const MAX_JSON_DEPTH = 64;
export const MAX_JSON_SIZE = 500_000;

/**
 * JSON input is bounded before any code sees it: everything downstream (zod, canonical hashing,
 * JSON.stringify, Prisma) recurses, so a deeply nested value would overflow the stack, and none of
 * our JSON inputs needs more than a few levels. Size counts every value plus the characters of
 * strings and keys. Iterative, so the check itself cannot overflow.
 */
export function checkJsonInput(value: unknown): void {
  const stack: { v: unknown; depth: number }[] = [{ v: value, depth: 1 }];
  let size = 0;
  while (stack.length > 0) {
    const { v, depth } = stack.pop()!;
    size += typeof v === 'string' ? v.length + 1 : 1;
    if (v !== null && typeof v === 'object') {
      if (depth > MAX_JSON_DEPTH) throw bad(`JSON values may nest at most ${MAX_JSON_DEPTH} levels deep`);
      if (Array.isArray(v)) {
        for (const item of v) stack.push({ v: item, depth: depth + 1 });
      } else {
        for (const [k, item] of Object.entries(v)) {
          size += k.length;
          stack.push({ v: item, depth: depth + 1 });
        }
      }
    } else if (typeof v === 'number' && !Number.isFinite(v)) {
      throw bad('JSON numbers must be finite');
    }
    if (size > MAX_JSON_SIZE) throw bad(`JSON values are limited to about ${MAX_JSON_SIZE.toLocaleString('en')} characters`);
  }
}

builder.scalarType('JSON', {
  description: `Arbitrary JSON value (at most ${MAX_JSON_DEPTH} levels deep).`,
  serialize: (v) => v,
  parseValue: (v) => {
    checkJsonInput(v);
    return v;
  },
  parseLiteral: () => {
    throw bad('JSON values must be passed as variables');
  },
});
