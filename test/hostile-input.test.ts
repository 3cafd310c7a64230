// Hostile input, generated from the schema. The schema is introspected; for every argument of every
// root field (Query, Mutation, Subscription) and of every field with arguments reachable below the
// query root, values of the argument's type that a client could send by mistake or on purpose —
// negative and huge numbers, NUL and lone surrogates, strings of a megabyte, JSON nested thousands
// of levels deep, ids of the wrong kind, malformed cursors and enums, wrong types — are sent over
// HTTP and over graphql-ws, with an owner token and every other argument valid (real ids of seeded
// objects). None may be INTERNAL or 5xx or take seconds, and nothing may be written: a mutation
// with one hostile argument must fail. A new field or argument is covered without touching this
// file (an id argument whose kind cannot be guessed from its name fails loudly, see ID_KINDS).
// Then focused cases, one per class of bad input.
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import {
  astFromValue,
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  getNullableType,
  isCompositeType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  print,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputObjectType,
  type GraphQLInputType,
  type GraphQLList,
  type GraphQLObjectType,
  type GraphQLSchema,
  type IntrospectionQuery,
} from 'graphql';
import type { Client as WsClient } from 'graphql-ws';
import { ErrorCode } from '../server/errors.ts';
import { extractPending } from '../server/services/memory/extract-memories.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { toGlobalId, wsClient } from './helpers/clients.ts';

let t: TestApp;
let schema: GraphQLSchema;

// ---------------------------------------------------------------------------------------------
// Transport

type GqlError = { message: string; extensions?: { code?: string; [k: string]: unknown } };
type Outcome = {
  transport: 'http' | 'ws';
  ms: number;
  status?: number;
  errors: GqlError[];
  data?: unknown;
  /** A subscription that started (data, or no error within the grace period). */
  open?: boolean;
  /** The socket closed under the operation (code). */
  closed?: number;
  hung?: boolean;
  unparsable?: string;
};

/** A JSON text spliced into the request body as is (values JSON.stringify cannot produce or would overflow on). */
class RawJson {
  constructor(readonly text: string) {}
}

/** Whether a RawJson sits in the top levels of a value (where the sweep puts them). */
function hasRaw(v: unknown, depth = 0): boolean {
  if (v instanceof RawJson) return true;
  if (depth > 8 || v === null || typeof v !== 'object') return false;
  return Object.values(v).some((x) => hasRaw(x, depth + 1));
}

function toBody(query: string, variables: Record<string, unknown>): string {
  // JSON.stringify with a replacer recurses deeper per level: only used when there is a RawJson.
  if (!hasRaw(variables)) return JSON.stringify({ query, variables });
  const raws: string[] = [];
  const text = JSON.stringify({ query, variables }, (_k, v: unknown) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0001RAW${raws.length - 1}\u0001`;
    }
    return v;
  });
  return text.replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i: string) => raws[Number(i)]!);
}

async function http(query: string, variables: Record<string, unknown> = {}, token = t.a.ownerToken, url = t.url): Promise<Outcome> {
  const body = toBody(query, variables);
  const started = performance.now();
  try {
    const res = await fetch(`${url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', authorization: `Bearer ${token}` },
      body,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    const ms = performance.now() - started;
    try {
      const body = JSON.parse(text) as { data?: unknown; errors?: GqlError[] };
      return { transport: 'http', ms, status: res.status, errors: body.errors ?? [], data: body.data };
    } catch {
      return { transport: 'http', ms, status: res.status, errors: [], unparsable: text.slice(0, 200) };
    }
  } catch (e) {
    return { transport: 'http', ms: performance.now() - started, errors: [], hung: true, unparsable: String(e) };
  }
}

function ws(client: WsClient, query: string, variables: Record<string, unknown>, op: Op): Promise<Outcome> {
  return new Promise((resolve) => {
    const started = performance.now();
    const out: Outcome = { transport: 'ws', ms: 0, errors: [] };
    let done = false;
    let stop = () => {};
    const finish = (extra: Partial<Outcome> = {}) => {
      if (done) return;
      done = true;
      clearTimeout(hang);
      clearTimeout(grace);
      out.ms = performance.now() - started;
      stop();
      resolve({ ...out, ...extra });
    };
    const hang = setTimeout(() => finish({ hung: true }), 15_000);
    // A subscription that is accepted stays open: no error within the grace period means accepted.
    const grace = op === 'subscription' ? setTimeout(() => finish({ open: true }), 1500) : undefined;
    stop = client.subscribe(
      { query, variables },
      {
        next: (r) => {
          if (r.errors?.length) out.errors.push(...(r.errors as GqlError[]));
          out.data = r.data;
          if (op === 'subscription' && r.data && !r.errors?.length) finish({ open: true });
        },
        error: (e: unknown) => {
          if (Array.isArray(e)) out.errors.push(...(e as GqlError[]));
          else if (e && typeof e === 'object' && 'code' in e && 'reason' in e) return finish({ closed: Number((e as { code: number }).code) });
          else out.errors.push({ message: String(e) });
          finish();
        },
        complete: () => finish(),
      },
    );
  });
}

// ---------------------------------------------------------------------------------------------
// Seeded objects and valid values

type Seeds = Record<string, string>;
let seeds: Seeds;
let otherWorkspaceTask: string;
let checklistVersion = 0;
let serial = 0;

/** The kind of object an id argument names, by argument name ("id"/"ids": by the field's type). */
const ID_KINDS: Record<string, string> = {
  workspaceid: 'Workspace',
  taskid: 'Task',
  sourcetaskid: 'Task',
  targettaskid: 'Task2',
  messageid: 'Message',
  objectid: 'WorkspaceObject',
  approvalid: 'Approval',
  memoryid: 'Memory',
  evidenceid: 'MemoryEvidence',
  cardid: 'Card',
};

function idKind(coord: string, name: string, fieldType?: string): string {
  const override: Record<string, string> = { 'EditFlowInput.objectId': 'Flow', 'Mutation.rerouteMessage.taskId': 'Task2' };
  if (override[coord]) return override[coord]!;
  if (name === 'id' || name === 'ids') return fieldType === 'Node' ? 'Task' : fieldType!;
  const kind = ID_KINDS[name.toLowerCase()];
  if (!kind) throw new Error(`No valid id for ${coord}: say which kind of object "${name}" names in ID_KINDS`);
  return kind;
}

function validId(coord: string, name: string, fieldType?: string): string {
  const kind = idKind(coord, name, fieldType);
  const id = seeds[kind];
  if (!id) throw new Error(`No seeded ${kind} for ${coord}`);
  return id;
}

/** Values a successful call would use, by "Type.field" (input fields) or "Type.field.arg" (arguments). */
function validOverrides(): Record<string, () => unknown> {
  return {
    'FindReplaceInput.find': () => 'hello',
    'FindReplaceInput.replace': () => 'hi',
    'CreateObjectInput.kind': () => 'DOCUMENT',
    'CreateObjectInput.content': () => ({ markdown: 'hello world' }),
    'UpdateObjectInput.content': () => ({ markdown: 'hello again' }),
    'UpdateObjectInput.baseVersion': () => 1,
    'EditFlowInput.ops': () => [{ op: 'add_node', node: { id: `n${++serial}`, kind: 'note' } }],
    'EditChecklistInput.baseVersion': () => checklistVersion,
    'ChecklistItemInput.title': () => 'Draft the poster',
    'SignalTaskInput.signal': () => 'PAUSE',
    'ResolveApprovalInput.decision': () => 'REJECT',
    'CorrectMemoryInput.value': () => 'Berlin',
    'Mutation.archiveTask.archived': () => true,
    'UpdateTaskInput.title': () => 'Autumn poster, final',
  };
}

/** Optional input fields a valid call needs anyway (an update with nothing to update is refused). */
const ALSO_SET: Record<string, string[]> = { UpdateTaskInput: ['title'] };

function validValue(type: GraphQLInputType, coord: string, name: string, fieldType?: string): unknown {
  const o = validOverrides()[coord];
  if (o) return o();
  if (isNonNullType(type)) return validValue(type.ofType, coord, name, fieldType);
  if (isListType(type)) return [validValue(type.ofType, coord, name, fieldType)];
  if (isInputObjectType(type)) {
    const value: Record<string, unknown> = {};
    for (const f of Object.values(type.getFields())) {
      const needed = (isNonNullType(f.type) && f.defaultValue === undefined) || ALSO_SET[type.name]?.includes(f.name);
      if (needed) value[f.name] = validValue(f.type, `${type.name}.${f.name}`, f.name);
    }
    return value;
  }
  if (isEnumType(type)) return type.getValues()[0]!.value;
  switch (type.name) {
    case 'ID':
      return validId(coord, name, fieldType);
    case 'String':
      return /idempotency/i.test(name) ? `hostile-${++serial}` : 'hostile test';
    case 'Int':
      return 1;
    case 'Float':
      return 1;
    case 'Boolean':
      return false;
    case 'DateTime':
      return new Date().toISOString();
    case 'JSON':
      return {};
    default:
      throw new Error(`No valid value for ${coord} of type ${type.name}: add the scalar to validValue`);
  }
}

// ---------------------------------------------------------------------------------------------
// Hostile values

type Hostile = { label: string; value: unknown; httpOnly?: boolean };

const MAX_INT = 2147483647;
const NEAR_LIMIT = 990_000; // just under the 1,000,000-byte body and socket message limits
const MIB = 1_048_576; // over them: 413 over HTTP
const deepArray = (n: number) => new RawJson('['.repeat(n) + ']'.repeat(n));
const deepObject = (n: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < n; i++) v = { a: v };
  return v;
};
const b64 = (s: string) => Buffer.from(s).toString('base64');
const b64url = (s: string) => Buffer.from(s).toString('base64url');
const NOBODY = '00000000-0000-4000-8000-000000000000';

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
function hostileValues(type: GraphQLInputType, op: Op, kind: string | undefined, valid: unknown): Hostile[] {
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

// ---------------------------------------------------------------------------------------------
// Targets: one per (field, argument, position inside the argument)

type Op = 'query' | 'mutation' | 'subscription';
type Segment = { name: string; args: string };
type Target = {
  op: Op;
  path: Segment[]; // fields above the target field (queries below the root)
  parent: GraphQLObjectType;
  field: GraphQLField<unknown, unknown>;
  arg: GraphQLArgument;
  inner: (string | number)[]; // position inside the argument's value
  type: GraphQLInputType; // type at that position
  coord: string; // "Type.field" for input fields, "Type.field.arg" for arguments (valid overrides, ids)
  name: string; // the argument or input field name
};

const label = (x: Target) => `${x.op} ${x.parent.name}.${x.field.name}(${[x.arg.name, ...x.inner].join('.')})`;

function positions(type: GraphQLInputType, inner: (string | number)[], coord: string, name: string, seen: Set<string>) {
  const out: { inner: (string | number)[]; type: GraphQLInputType; coord: string; name: string }[] = [{ inner, type, coord, name }];
  const named = getNamedType(type);
  if (!isInputObjectType(named) || seen.has(named.name)) return out;
  const prefix = isListType(getNullableType(type)) ? [...inner, 0] : inner;
  for (const f of Object.values(named.getFields())) {
    out.push(...positions(f.type, [...prefix, f.name], `${named.name}.${f.name}`, f.name, new Set([...seen, named.name])));
  }
  return out;
}

function targetsOf(op: Op, parent: GraphQLObjectType, field: GraphQLField<unknown, unknown>, path: Segment[]): Target[] {
  const out: Target[] = [];
  for (const arg of field.args) {
    for (const p of positions(arg.type, [], `${parent.name}.${field.name}.${arg.name}`, arg.name, new Set())) {
      out.push({ op, path, parent, field, arg, ...p });
    }
  }
  return out;
}

function literalArgs(field: GraphQLField<unknown, unknown>, parent: string): string {
  const parts: string[] = [];
  for (const a of field.args) {
    if (!isNonNullType(a.type) || a.defaultValue !== undefined) continue;
    const v = validValue(a.type, `${parent}.${field.name}.${a.name}`, a.name, getNamedType(field.type).name);
    parts.push(`${a.name}: ${print(astFromValue(v, a.type)!)}`);
  }
  return parts.length ? `(${parts.join(', ')})` : '';
}

/** Candidate paths from the query root to each object type, shortest first (each type expanded once). */
function pathsToTypes(): Map<string, Segment[][]> {
  const candidates = new Map<string, Segment[][]>();
  const expanded = new Set<string>();
  const queue: { type: GraphQLObjectType; path: Segment[] }[] = [{ type: schema.getQueryType()!, path: [] }];
  while (queue.length) {
    const { type, path } = queue.shift()!;
    if (expanded.has(type.name) || path.length > 5) continue;
    expanded.add(type.name);
    for (const f of Object.values(type.getFields())) {
      const named = getNamedType(f.type);
      if (!isObjectType(named) || f.name.startsWith('__')) continue;
      const next = [...path, { name: f.name, args: literalArgs(f, type.name) }];
      const list = candidates.get(named.name) ?? [];
      list.push(next);
      candidates.set(named.name, list);
      queue.push({ type: named, path: next });
    }
  }
  return candidates;
}

function wrap(path: Segment[], inner: string): string {
  return path.reduceRight((acc, s) => `${s.name}${s.args} { ${acc} }`, inner);
}

function reaches(value: unknown, names: string[]): boolean {
  if (value === null || value === undefined) return false;
  if (Array.isArray(value)) return value.some((v) => reaches(v, names));
  if (names.length === 0) return true;
  return reaches((value as Record<string, unknown>)[names[0]!], names.slice(1));
}

/** A copy of a valid argument value with the value at `inner` replaced; optional input objects on the way are filled validly. */
function setAt(root: unknown, type: GraphQLInputType, inner: (string | number)[], value: unknown): unknown {
  if (inner.length === 0) return value;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let cur = copy;
  let curType = getNullableType(type) as GraphQLInputType;
  for (const [i, key] of inner.entries()) {
    let childType: GraphQLInputType;
    let coord: string;
    if (typeof key === 'number') {
      childType = (curType as GraphQLList<GraphQLInputType>).ofType;
      coord = '';
    } else {
      const io = getNamedType(curType) as GraphQLInputObjectType;
      childType = io.getFields()[key]!.type;
      coord = `${io.name}.${key}`;
    }
    if (i === inner.length - 1) {
      cur[key] = value;
      break;
    }
    if (cur[key] === undefined || cur[key] === null) cur[key] = validValue(childType, coord, String(key));
    cur = cur[key] as Record<string | number, unknown>;
    curType = getNullableType(childType) as GraphQLInputType;
  }
  return copy;
}

/** Stands for "no hostile value": the field called with valid required arguments only. */
const BASELINE = Symbol('baseline');

/** The operation for one target with one hostile value: all the field's arguments are variables. */
function operation(x: Target, hostile: unknown): { query: string; variables: Record<string, unknown> } {
  const defs: string[] = [];
  const uses: string[] = [];
  const variables: Record<string, unknown> = {};
  const fieldType = getNamedType(x.field.type).name;
  for (const a of x.field.args) {
    const target = a.name === x.arg.name && hostile !== BASELINE;
    const required = isNonNullType(a.type) && a.defaultValue === undefined;
    if (!target && !required) continue;
    defs.push(`$${a.name}: ${String(a.type)}`);
    uses.push(`${a.name}: $${a.name}`);
    const coord = `${x.parent.name}.${x.field.name}.${a.name}`;
    if (!target) variables[a.name] = validValue(a.type, coord, a.name, fieldType);
    else if (x.inner.length === 0) variables[a.name] = hostile;
    else variables[a.name] = setAt(validValue(a.type, coord, a.name, fieldType), a.type, x.inner, hostile);
  }
  const selection = isCompositeType(getNamedType(x.field.type)) ? ' { __typename }' : '';
  const call = `${x.field.name}${uses.length ? `(${uses.join(', ')})` : ''}${selection}`;
  return { query: `${x.op} Hostile${defs.length ? `(${defs.join(', ')})` : ''} { ${wrap(x.path, call)} }`, variables };
}

// ---------------------------------------------------------------------------------------------
// Judging

const LEAKS = /stack|prisma|postgres|SELECT |INSERT |UPDATE |invocation|\.ts:|node_modules|constraint|Unexpected error/i;
const CLIENT_CODES = new Set<string>(Object.values(ErrorCode).filter((c) => c !== 'INTERNAL' && c !== 'RATE_LIMITED'));
const SLOW_MS = 5000;

type Stats = { requests: number; maxMs: number; maxAt: string; overOneSecond: number };
const stats: Stats = { requests: 0, maxMs: 0, maxAt: '', overOneSecond: 0 };

function judge(what: string, op: Op, o: Outcome, failures: string[]) {
  stats.requests++;
  // An accepted subscription stays open: the wait for its first event is no response time.
  if (o.open) return;
  if (o.ms > stats.maxMs) {
    stats.maxMs = o.ms;
    stats.maxAt = what;
  }
  if (o.ms > 1000) stats.overOneSecond++;
  const fail = (why: string) => failures.push(`${what} [${o.transport}]: ${why}`);
  if (o.hung) return fail(`no answer (${o.unparsable ?? 'timeout'})`);
  if (o.ms > SLOW_MS) fail(`took ${Math.round(o.ms)} ms`);
  if (o.status !== undefined && o.status >= 500) fail(`HTTP ${o.status}`);
  if (o.unparsable !== undefined) return fail(`not a GraphQL response: ${o.unparsable}`);
  if (o.closed !== undefined) return fail(`socket closed (${o.closed})`);
  for (const e of o.errors) {
    const code = e.extensions?.code;
    if (!code || !CLIENT_CODES.has(code)) fail(`code ${code ?? 'none'}: ${e.message.slice(0, 200)}`);
    else if (LEAKS.test(e.message)) fail(`message leaks internals: ${e.message.slice(0, 200)}`);
    else if (!e.message.trim()) fail('empty message');
  }
  if (op === 'mutation' && o.errors.length === 0) fail(`accepted: ${JSON.stringify(o.data).slice(0, 200)}`);
}

async function rowCounts(): Promise<Record<string, number>> {
  const p = t.app.deps.prisma;
  const tables = await p.$queryRawUnsafe<{ t: string }[]>(
    `SELECT tablename AS t FROM pg_tables WHERE schemaname = 'public' AND tablename <> '_prisma_migrations' ORDER BY 1`,
  );
  const [row] = await p.$queryRawUnsafe<Record<string, number>[]>(`SELECT ${tables.map(({ t: n }) => `(SELECT count(*) FROM "${n}")::int AS "${n}"`).join(', ')}`);
  return row!;
}

function changedTables(a: Record<string, number>, b: Record<string, number>): string[] {
  return Object.keys({ ...a, ...b }).filter((k) => a[k] !== b[k]).map((k) => `${k} ${a[k]} → ${b[k]}`);
}

// ---------------------------------------------------------------------------------------------
// Set-up: two tasks, a message (evidence, memory), a document, a flow and a pending approval

async function ok(query: string, variables: Record<string, unknown> = {}, token = t.a.ownerToken): Promise<any> {
  const r = await http(query, variables, token);
  if (r.errors.length || !r.data) throw new Error(`set-up failed: ${JSON.stringify(r.errors)} ${r.unparsable ?? ''}`);
  return r.data;
}

before(async () => {
  t = await startTestApp('hostile', { rateLimitPerMinute: 1_000_000 });
  const wsGid = toGlobalId('Workspace', t.a.workspaceId);
  const mkTask = async (title: string, token = t.a.ownerToken, ws = wsGid) =>
    (await ok(`mutation($i: CreateTaskInput!) { createTask(input: $i) { task { id } } }`, { i: { workspaceId: ws, title } }, token)).createTask.task.id as string;
  const task = await mkTask('Autumn poster');
  const task2 = await mkTask('Spring poster');
  otherWorkspaceTask = await mkTask('beta secret', t.b.ownerToken, toGlobalId('Workspace', t.b.workspaceId));
  const sent = await ok(
    `mutation($i: SendMessageInput!) { sendMessage(input: $i) { message { id } } }`,
    { i: { workspaceId: wsGid, taskId: task, text: 'I live in Quorvia.', idempotencyKey: 'seed-1' } },
  );
  await extractPending(t.app.deps.memory, t.a.workspaceId, t.a.ownerId);
  const create = async (kind: string, name: string, content: unknown) =>
    (await ok(`mutation($i: CreateObjectInput!) { createObject(input: $i) { object { id } } }`, { i: { workspaceId: wsGid, kind, name, content } })).createObject.object.id as string;
  const doc = await create('DOCUMENT', 'Brief', { markdown: 'hello world' });
  const flow = await create('FLOW', 'Pipeline', { nodes: [{ id: 'a', kind: 'note' }], edges: [] });
  const doomed = await create('DOCUMENT', 'Old draft', { markdown: 'bye' });
  const del = await ok(`mutation($id: ID!) { deleteObject(objectId: $id) { approvalId } }`, { id: doomed });
  const thread = (await ok(`query($id: ID!) { workspace(id: $id) { mainThread { id } } }`, { id: wsGid })).workspace.mainThread.id as string;
  const p = t.app.deps.prisma;
  const memory = await p.memory.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId } });
  const evidence = await p.memoryEvidence.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId } });
  checklistVersion = (await ok(`query($id: ID!) { task(id: $id) { checklist { version } } }`, { id: task })).task.checklist?.version ?? 0;
  seeds = {
    Workspace: wsGid,
    Task: task,
    Task2: task2,
    Message: sent.sendMessage.message.id,
    WorkspaceObject: doc,
    Flow: flow,
    Approval: del.deleteObject.approvalId,
    Memory: toGlobalId('Memory', memory.id),
    MemoryEvidence: toGlobalId('MemoryEvidence', evidence.id),
    Thread: thread,
    User: toGlobalId('User', t.a.ownerId),
    Card: randomUUID(), // cards are answered by raw id; none is open, so any card action fails anyway
  };
  const intro = await ok(getIntrospectionQuery());
  schema = buildClientSchema(intro as IntrospectionQuery);
});
after(async () => {
  await t?.close();
});

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
    // a main thread, exists before the counts are taken), checking the field is really reached.
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
    const before = await rowCounts();
    let client = wsClient(t.url, t.a.ownerToken);
    let count = 0;
    for (const x of targets.filter((y) => ops.includes(y.op))) {
      const base = validValue(x.type, x.coord, x.name, getNamedType(x.field.type).name);
      const kind = getNamedType(x.type).name === 'ID' ? idKind(x.coord, x.name, getNamedType(x.field.type).name) : undefined;
      const atField = x.op === 'mutation' ? await rowCounts() : null;
      for (const h of hostileValues(x.type, x.op, kind, base)) {
        if (transport === 'ws' && h.httpOnly) continue;
        const { query, variables } = operation(x, h.value);
        const o = transport === 'http' ? await http(query, variables) : await ws(client, query, variables, x.op);
        count++;
        judge(`${label(x)} = ${h.label}`, x.op, o, failures);
        if (o.closed !== undefined) client = wsClient(t.url, t.a.ownerToken);
      }
      if (atField) {
        const changed = changedTables(atField, await rowCounts());
        if (changed.length) failures.push(`${label(x)} [${transport}]: wrote ${changed.join(', ')}`);
      }
    }
    await client.dispose();
    const changed = changedTables(before, await rowCounts());
    if (changed.length) failures.push(`${transport} sweep wrote: ${changed.join(', ')}`);
    return { failures, count };
  };

  const report = (name: string, r: { failures: string[]; count: number }) => {
    console.log(`# ${name}: ${r.count} requests; slowest so far ${Math.round(stats.maxMs)} ms (${stats.maxAt}); ${stats.overOneSecond} over 1 s`);
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
    const first = ['updateObject', 'replaceMessage', 'rerouteMessage', 'withdrawMessage'];
    const last = ['signalTask', 'archiveTask', 'mergeTasks'];
    const rank = (name: string) => (first.includes(name) ? first.indexOf(name) - 100 : last.includes(name) ? last.indexOf(name) + 100 : 0);
    const byField = new Map(targets.filter((y) => y.op === 'mutation').map((y) => [y.field.name, y]));
    const failed: string[] = [];
    for (const x of [...byField.values()].sort((a, b) => rank(a.field.name) - rank(b.field.name) || a.field.name.localeCompare(b.field.name))) {
      const { query, variables } = operation(x, BASELINE);
      const o = await http(query, variables);
      if (o.errors.length) failed.push(`${x.field.name}: ${o.errors[0]!.extensions?.code} ${o.errors[0]!.message} — fix its valid values (validOverrides, ALSO_SET, ID_KINDS)`);
    }
    assert.deepEqual(failed, []);
  });

  test('the sweep itself: every field with arguments was reached, and every request answered quickly', () => {
    const fields = new Set(targets.map((x) => `${x.parent.name}.${x.field.name}`));
    console.log(`# ${targets.length} argument positions in ${fields.size} fields; ${stats.requests} requests; max ${Math.round(stats.maxMs)} ms (${stats.maxAt}); ${stats.overOneSecond} over 1 s`);
    for (const f of ['Query.node', 'Mutation.createObject', 'Subscription.workspaceEvents', 'Workspace.objects', 'Thread.messages', 'WorkspaceObject.version']) {
      assert.ok(fields.has(f), `${f} is not covered`);
    }
    assert.ok(stats.maxMs < SLOW_MS);
  });
});

// ---------------------------------------------------------------------------------------------
// Focused cases: each class of bad input, as reported

describe('focused cases', () => {
  const code = (o: Outcome) => o.errors[0]?.extensions?.code;
  const expectBad = (o: Outcome, message: RegExp, codes = ['BAD_USER_INPUT']) => {
    assert.ok(o.status === undefined || o.status < 500, `status ${o.status}`);
    assert.ok(codes.includes(code(o) ?? ''), `expected ${codes.join('/')}: ${JSON.stringify(o.errors).slice(0, 300)}`);
    assert.match(o.errors[0]!.message, message);
  };

  test('negative and oversized first/last on every kind of connection', async () => {
    const wsId = seeds.Workspace;
    for (const [field, arg] of [
      ['tasks', 'first: -1'],
      ['tasks', 'last: -1'],
      ['approvals', 'first: -5'],
      ['memories', 'last: -1'],
      ['objects', 'first: -1'],
      ['objects', 'first: 101'],
      ['tasks', 'first: 1000000'],
    ]) {
      expectBad(await http(`query($id: ID!) { workspace(id: $id) { ${field}(${arg}) { __typename } } }`, { id: wsId }), /(first|last) must be a whole number from 0 to \d+/);
    }
    expectBad(await http(`query($id: ID!) { workspace(id: $id) { mainThread { messages(last: -1) { __typename } } } }`, { id: wsId }), /last must be/);
    expectBad(await http(`query($id: ID!) { node(id: $id) { ... on WorkspaceObject { versions(first: -1) { __typename } } } }`, { id: seeds.WorkspaceObject }), /first must be/);
    // An offset list cannot count back from its end.
    expectBad(await http(`query($id: ID!) { workspace(id: $id) { objects(last: 5) { __typename } } }`, { id: wsId }), /last needs before or first/);
  });

  test('NUL and lone surrogates in any text are refused before anything runs, wherever they are', async () => {
    const before = await rowCounts();
    const cases: [string, Record<string, unknown>][] = [
      [`mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }`, { i: { workspaceId: seeds.Workspace, title: 'a\u0000b' } }],
      [`mutation($i: CreateTaskInput!) { createTask(input: $i) { __typename } }`, { i: { workspaceId: seeds.Workspace, title: 'ok', goal: 'x\ud800' } }],
      [`mutation { createTask(input: { workspaceId: "${seeds.Workspace}", title: "a\\u0000b" }) { __typename } }`, {}],
      [`mutation($i: SendMessageInput!) { sendMessage(input: $i) { __typename } }`, { i: { workspaceId: seeds.Workspace, text: '\udfff', idempotencyKey: 'k1' } }],
      [`mutation($i: CreateObjectInput!) { createObject(input: $i) { __typename } }`, { i: { workspaceId: seeds.Workspace, kind: 'FLOW', name: 'f', content: { nodes: [{ id: 'a', kind: 'x', params: { 'k\u0000': 1 } }] } } }],
      [`mutation($i: EditChecklistInput!) { editChecklist(input: $i) { __typename } }`, { i: { taskId: seeds.Task, baseVersion: checklistVersion, items: [{ title: 'step \u0000' }] } }],
      [`query($id: ID!, $q: String) { workspace(id: $id) { memories(query: $q) { __typename } } }`, { id: seeds.Workspace, q: 'Quorvia\u0000' }],
    ];
    for (const [query, variables] of cases) {
      const o = await http(query, variables);
      expectBad(o, /NUL character|unpaired UTF-16 surrogate/);
      assert.equal(o.data ?? null, null, 'nothing executed');
    }
    const c = wsClient(t.url, t.a.ownerToken);
    const sub = await ws(c, `subscription($id: ID!, $after: String) { objectChanges(workspaceId: $id, after: $after) { __typename } }`, { id: seeds.Workspace, after: 'x\u0000' }, 'subscription');
    await c.dispose();
    expectBad(sub, /NUL character/);
    assert.deepEqual(changedTables(before, await rowCounts()), []);
  });

  test('malformed and out-of-range cursors, on every list and stream', async () => {
    const wsId = seeds.Workspace;
    const list = (field: string, arg: string) => http(`query($id: ID!, $c: String) { workspace(id: $id) { ${field}(${arg}: $c) { __typename } } }`, { id: wsId, c: cursorValue });
    let cursorValue = `2020-01-01T00:00:00Z|${'-'.repeat(36)}`;
    expectBad(await list('tasks', 'after'), /after is not a cursor/);
    expectBad(await list('approvals', 'before'), /before is not a cursor/);
    cursorValue = `-271821-04-19T00:00:00.000Z|${NOBODY}`;
    expectBad(await list('memories', 'after'), /after is not a cursor/);
    expectBad(await list('approvals', 'after'), /after is not a cursor/);
    cursorValue = 'garbage';
    expectBad(await list('objects', 'after'), /after is not a cursor/);
    cursorValue = b64('OffsetConnection:-1');
    expectBad(await list('objects', 'before'), /before is not a cursor/);
    expectBad(await http(`query($id: ID!) { workspace(id: $id) { mainThread { messages(after: "garbage|${NOBODY}") { __typename } } } }`, { id: wsId }), /after is not a cursor/);
    const c = wsClient(t.url, t.a.ownerToken);
    for (const after of [b64url(`v1:${'-'.repeat(36)}:1`), b64url(`v1:${NOBODY}:99999999999999999999`)]) {
      expectBad(await ws(c, `subscription($a: String) { workspaceEvents(after: $a) { __typename } }`, { a: after }, 'subscription'), /after is not a cursor/);
      expectBad(await ws(c, `subscription($id: ID!, $a: String) { objectChanges(workspaceId: $id, after: $a) { __typename } }`, { id: wsId, a: after }, 'subscription'), /after is not a cursor/);
    }
    await c.dispose();
  });

  test('node(id) and nodes(ids) with anything but a global id of a kind of object', async () => {
    const raw = Buffer.from(seeds.Task!, 'base64').toString().split(':')[1]!;
    expectBad(await http(`{ node(id: "x") { id } }`), /id is not a valid id/);
    expectBad(await http(`query($id: ID!) { node(id: $id) { id } }`, { id: raw }), /id is not a valid id/);
    expectBad(await http(`query($id: ID!) { node(id: $id) { id } }`, { id: toGlobalId('Nope', raw) }), /not the id of any kind of object/);
    expectBad(await http(`query($id: ID!) { node(id: $id) { id } }`, { id: toGlobalId('TaskEvent', raw) }), /not the id of any kind of object/);
    expectBad(await http(`query($id: ID!) { node(id: $id) { id } }`, { id: toGlobalId('Task', 'not-a-uuid') }), /id is not a valid id/);
    expectBad(await http(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: [seeds.Task, 'x'] }), /is not a valid id/);
    expectBad(await http(`query($ids: [ID!]!) { nodes(ids: $ids) { id } }`, { ids: new Array(101).fill(seeds.Task) }), /at most 100/);
    // Well-formed ids of objects the caller may not see are still null, not an error.
    const other = await http(`query($id: ID!) { node(id: $id) { id } }`, { id: otherWorkspaceTask });
    assert.deepEqual(other.errors, []);
    assert.deepEqual(other.data, { node: null });
  });

  test('deep JSON input is refused by the JSON scalar, and nothing is written', async () => {
    const before = await rowCounts();
    const deep = JSON.parse('['.repeat(3000) + ']'.repeat(3000)) as unknown;
    const create = `mutation($i: CreateObjectInput!) { createObject(input: $i) { __typename } }`;
    for (const content of [
      { nodes: [{ id: 'a', kind: 'x', params: { p: deep } }], edges: [] },
      { file: { path: 'a.png', mime: 'image/png', bytes: 1 }, provenance: { p: deep } },
    ]) {
      expectBad(await http(create, { i: { workspaceId: seeds.Workspace, kind: content.nodes ? 'FLOW' : 'IMAGE', name: 'deep', content } }), /at most 64 levels/);
    }
    const ops = `mutation($i: EditFlowInput!) { editFlow(input: $i) { __typename } }`;
    expectBad(await http(ops, { i: { objectId: seeds.Flow, ops: [{ op: 'add_node', node: { id: 'z', kind: 'x', params: { p: deep } } }] } }), /at most 64 levels/);
    assert.deepEqual(changedTables(before, await rowCounts()), []);
  });

  test('documents nested too deeply to parse are BAD_USER_INPUT, whatever stops them', async () => {
    // With the token limit in place it stops them; with it raised as far as it goes, the parser's
    // own stack overflow must still be the client's error, over HTTP and over a socket.
    const roomy = await startTestApp('hostile-deep', { rateLimitPerMinute: 1_000_000, maxQueryTokens: 10_000_000 });
    try {
      const selection = `{ viewer ${'{ user '.repeat(5000)}${'}'.repeat(5001)} }`;
      const list = `query($id: ID!) { workspace(id: $id) { tasks(statuses: ${'['.repeat(50_000)}${']'.repeat(50_000)}) { __typename } } }`;
      for (const app of [t, roomy]) {
        const id = toGlobalId('Workspace', app.a.workspaceId);
        for (const query of [selection, list]) {
          const o = await http(query, { id }, app.a.ownerToken, app.url);
          expectBad(o, /nested too deeply|too large|too deep/i);
          const c = wsClient(app.url, app.a.ownerToken);
          expectBad(await ws(c, query, { id }, 'query'), /nested too deeply|too large|too deep/i);
          await c.dispose();
        }
      }
    } finally {
      await roomy.close();
    }
  });

  test('/files/ with a malformed percent-encoding is 400', async () => {
    for (const path of ['/files/%E0%A4%A', '/files/%', '/files/%ZZ.png']) {
      const res = await fetch(`${t.url}${path}`, { headers: { authorization: `Bearer ${t.a.ownerToken}` } });
      assert.equal(res.status, 400, path);
      await res.text();
    }
  });
});
