// Hostile values of each type: what a client could send by mistake or on purpose.
import { getNamedType, getNullableType, isEnumType, isInputObjectType, isListType, isNonNullType, type GraphQLInputType } from 'graphql';
import { toGlobalId } from '../helpers/clients.ts';
import { otherWorkspaceTask, seeds } from './state.ts';
import { RawJson, type Op } from './transport.ts';

export type Hostile = { label: string; value: unknown; httpOnly?: boolean };

const MAX_INT = 2147483647;
const NEAR_LIMIT = 990_000; // just under the 1,000,000-byte body and socket message limits
const MIB = 1_048_576; // over them: 413 over HTTP
const deepArray = (n: number) => new RawJson('['.repeat(n) + ']'.repeat(n));
const deepObject = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};
export const b64 = (s: string) => Buffer.from(s).toString('base64');
export const b64url = (s: string) => Buffer.from(s).toString('base64url');
export const NOBODY = '00000000-0000-4000-8000-000000000000';

function badStrings(): Hostile[] {
  return [
    { label: 'NUL', value: 'a\u0000b' },
    { label: 'only NUL', value: '\u0000' },
    { label: 'lone high surrogate', value: 'x\ud800' },
    { label: 'lone low surrogate', value: '\udc00y' },
    { label: '990 kB string', value: 'x'.repeat(NEAR_LIMIT) },
    { label: '1 MiB string', value: 'x'.repeat(MIB), httpOnly: true },
  ];
}

function badCursors(): Hostile[] {
  return [
    { label: 'cursor garbage', value: 'garbage' },
    { label: 'keyset cursor, dashes for id', value: `2020-01-01T00:00:00Z|${'-'.repeat(36)}` },
    { label: 'keyset cursor, year -271821', value: `-271821-04-19T00:00:00.000Z|${NOBODY}` },
    { label: 'keyset cursor, year 0', value: `0000-01-01T00:00:00.000Z|${NOBODY}` },
    { label: 'keyset cursor, Feb 30', value: `2024-02-30T00:00:00.000Z|${NOBODY}` },
    { label: 'offset cursor, negative', value: b64('OffsetConnection:-5') },
    { label: 'offset cursor, huge', value: b64('OffsetConnection:99999999999999999999') },
    { label: 'offset cursor, not a number', value: b64('OffsetConnection:abc') },
    { label: 'workspace cursor, dashes for id', value: b64url(`v1:${'-'.repeat(36)}:1`) },
    { label: 'workspace cursor, huge position', value: b64url(`v1:${NOBODY}:99999999999999999999`) },
    { label: 'workspace cursor, negative position', value: b64url(`v1:${NOBODY}:-1`) },
    { label: 'cursor with SQL', value: "'; DROP TABLE tasks; --" },
    { label: 'cursor %', value: '%' },
  ];
}

function badIds(kind: string): Hostile[] {
  const other = kind === 'Workspace' ? 'Task' : 'Workspace';
  const own = seeds[kind] ?? '';
  const rawId = own ? Buffer.from(own, 'base64').toString('utf8').split(':')[1] ?? NOBODY : NOBODY;
  const typename = kind === 'Task2' ? 'Task' : kind === 'Flow' ? 'WorkspaceObject' : kind;
  return [
    { label: 'id "x"', value: 'x' },
    { label: 'empty id', value: '' },
    { label: 'raw uuid', value: rawId },
    { label: 'unknown type in id', value: toGlobalId('Nope', rawId) },
    { label: 'id of another type', value: toGlobalId(other, rawId) },
    { label: 'id with SQL', value: toGlobalId(typename, "1' OR 1=1 --") },
    { label: 'id with dashes only', value: toGlobalId(typename, '-'.repeat(36)) },
    { label: 'id of nothing', value: toGlobalId(typename, NOBODY) },
    { label: "id of another workspace's task", value: otherWorkspaceTask },
    { label: 'int as id', value: 5 },
    { label: 'object as id', value: { id: own } },
    ...badStrings().filter((h) => h.label !== '1 MiB string'),
  ];
}

function badScalars(name: string, op: Op, kind?: string): Hostile[] {
  switch (name) {
    case 'Int':
      return [
        { label: 'negative', value: -1 },
        { label: 'most negative int', value: -2147483648 },
        { label: 'largest int', value: MAX_INT },
        { label: 'beyond int', value: MAX_INT + 1 },
        { label: '1e20', value: 1e20 },
        { label: 'fraction', value: 1.5 },
        { label: 'string as int', value: '1' },
        { label: 'boolean as int', value: true },
        { label: '1e400', value: new RawJson('1e400'), httpOnly: true },
      ];
    case 'Float':
      return [
        { label: 'negative', value: -1 },
        { label: '1e308', value: 1e308 },
        { label: '1e400', value: new RawJson('1e400'), httpOnly: true },
        { label: 'string as float', value: '1' },
      ];
    case 'Boolean':
      return [
        { label: 'string as boolean', value: 'true' },
        { label: 'number as boolean', value: 1 },
      ];
    case 'String':
      return [...badStrings(), ...(op === 'mutation' ? [] : badCursors()), { label: 'number as string', value: 5 }];
    case 'ID':
      return badIds(kind ?? 'Task');
    case 'DateTime':
      return [
        { label: 'not a date', value: 'garbage' },
        { label: 'year -271821', value: '-271821-04-19T00:00:00.000Z' },
        { label: 'year 275760', value: '+275760-09-13T00:00:00.000Z' },
        { label: 'month 13', value: '2020-13-45T00:00:00Z' },
        { label: 'number as date', value: 1e20 },
      ];
    case 'JSON':
      return [
        { label: 'JSON 3,000 deep (arrays)', value: new RawJson('['.repeat(3000) + ']'.repeat(3000)), httpOnly: true },
        { label: 'JSON 3,000 deep (objects)', value: deepObject(3000) },
        { label: 'JSON 50,000 deep', value: deepArray(50_000), httpOnly: true },
        { label: 'JSON key with NUL', value: { 'a\u0000': 1 } },
        { label: 'JSON value with NUL', value: { markdown: 'a\u0000' } },
        { label: 'JSON lone surrogate', value: { markdown: '\ud800' } },
        { label: 'JSON 990 kB string', value: { markdown: 'x'.repeat(NEAR_LIMIT) } },
        { label: 'JSON 200,000 numbers', value: new Array(200_000).fill(0) },
        { label: 'JSON infinite number', value: new RawJson('{"markdown":1e400}'), httpOnly: true },
      ];
    default:
      throw new Error(`No hostile values for scalar ${name}: add them to badScalars`);
  }
}

/** Hostile values for the value at one position (wrappers included), given a valid value of it. */
export function hostileValues(type: GraphQLInputType, op: Op, kind: string | undefined, valid: unknown): Hostile[] {
  const out: Hostile[] = [];
  if (isNonNullType(type)) out.push({ label: 'null for a required value', value: null });
  const inner = getNullableType(type) as GraphQLInputType;
  if (isListType(inner)) {
    const item = inner.ofType as GraphQLInputType;
    out.push({ label: 'list nested 50,000 deep', value: deepArray(50_000), httpOnly: true });
    out.push({ label: 'list nested 3,000 deep', value: new RawJson('['.repeat(3000) + ']'.repeat(3000)), httpOnly: true });
    const one = Array.isArray(valid) ? valid[0] : valid;
    out.push({ label: '10,000 items', value: new Array(10_000).fill(one) });
    // Bad items (a list of one); input objects get their fields' own targets.
    if (!isInputObjectType(getNamedType(item))) {
      for (const h of hostileValues(item, op, kind, one)) if (!/nested|items/.test(h.label)) out.push({ ...h, label: `[${h.label}]`, value: [h.value] });
    }
    return out;
  }
  if (isInputObjectType(inner)) {
    out.push({ label: 'string for an input object', value: 'x' });
    out.push({ label: 'list for an input object', value: [] });
    out.push({ label: 'unknown field', value: { ...(valid as object), nope: 1 } });
    return out;
  }
  if (isEnumType(inner)) {
    const first = inner.getValues()[0]!.name;
    out.push(
      { label: 'unknown enum value', value: 'NOPE' },
      { label: 'empty enum value', value: '' },
      { label: 'lowercase enum value', value: first.toLowerCase() },
      { label: 'NUL enum value', value: `${first}\u0000` },
      { label: 'number as enum', value: 5 },
    );
    return out;
  }
  out.push(...badScalars(inner.name, op, kind));
  return out;
}
