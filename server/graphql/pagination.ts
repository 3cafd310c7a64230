// The one check of connection arguments, used by every connection field: page sizes within
// 0..maxSize and cursors that decode, so a bad page request is BAD_USER_INPUT before any query runs
// (Pothos' own checks throw plain errors, which would surface as INTERNAL, and it silently accepts
// offsets no query can use).
import type { MaybePromise } from '@pothos/core';
import {
  resolveCursorConnection,
  resolveOffsetConnection,
  type DefaultConnectionArguments,
  type ResolveCursorConnectionArgs,
  type ResolveCursorConnectionOptions,
} from '@pothos/plugin-relay';
import { badInput } from '../errors.ts';

export type PageArgs = {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
};

export type PageSize = { defaultSize: number; maxSize: number };

export function checkPageSize(args: PageArgs, maxSize: number): void {
  for (const argument of ['first', 'last'] as const) {
    const n = args[argument];
    if (n == null) continue;
    if (!Number.isInteger(n) || n < 0 || n > maxSize) {
      throw badInput(`${argument} must be a whole number from 0 to ${maxSize}`, { argument });
    }
  }
}

type Rows<U> = U extends readonly (infer N)[] | Promise<readonly (infer N)[] | null> ? N : never;

/** Keyset (cursor) connections: the loader decodes its own cursors, with decodeKeyset. */
export function cursorConnection<U extends Promise<readonly unknown[] | null> | readonly unknown[] | null>(
  options: ResolveCursorConnectionOptions<Rows<U>> & PageSize,
  load: (page: ResolveCursorConnectionArgs) => U,
) {
  checkPageSize(options.args, options.maxSize);
  return resolveCursorConnection(options, load);
}

const OFFSET_CURSOR = /^OffsetConnection:(0|[1-9]\d{0,8})$/;

/** Pothos' offset cursors, base64("OffsetConnection:<n>"), with n below a billion. */
export function decodeOffsetCursor(cursor: string, argument: string): number {
  const text = /^[A-Za-z0-9+/]{1,64}={0,2}$/.test(cursor) ? Buffer.from(cursor, 'base64').toString('utf8') : '';
  const m = OFFSET_CURSOR.exec(text);
  if (!m) throw badInput(`${argument} is not a cursor of this list`, { argument });
  return Number(m[1]);
}

/** Offset connections (lists ordered by something other than creation). */
export function offsetConnection<T, U extends Promise<readonly T[] | null> | readonly T[] | null>(
  options: { args: DefaultConnectionArguments } & PageSize,
  load: (page: { offset: number; limit: number }) => U & (MaybePromise<readonly T[] | null> | null),
) {
  const { args } = options;
  checkPageSize(args, options.maxSize);
  // An empty cursor means "no cursor", as in Pothos.
  if (args.after) decodeOffsetCursor(args.after, 'after');
  if (args.before) decodeOffsetCursor(args.before, 'before');
  if (args.last != null && !args.before && args.first == null) {
    throw badInput('last needs before or first on this list (it is paged by position)', { argument: 'last' });
  }
  return resolveOffsetConnection<T, U>(options, load);
}
