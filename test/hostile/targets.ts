// Targets: one per (field, argument, position inside the argument), found from the schema, and the
// operation that sends one hostile value to one target with every other argument valid.
import {
  astFromValue,
  getNamedType,
  getNullableType,
  isCompositeType,
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
} from 'graphql';
import { schema } from './state.ts';
import type { Op } from './transport.ts';
import { validValue } from './valid-values.ts';

export type Segment = { name: string; args: string };
export type Target = {
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

export const label = (x: Target) => `${x.op} ${x.parent.name}.${x.field.name}(${[x.arg.name, ...x.inner].join('.')})`;

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

export function targetsOf(op: Op, parent: GraphQLObjectType, field: GraphQLField<unknown, unknown>, path: Segment[]): Target[] {
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
export function pathsToTypes(): Map<string, Segment[][]> {
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

export function wrap(path: Segment[], inner: string): string {
  return path.reduceRight((acc, s) => `${s.name}${s.args} { ${acc} }`, inner);
}

export function reaches(value: unknown, names: string[]): boolean {
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
export const BASELINE = Symbol('baseline');

/** The operation for one target with one hostile value: all the field's arguments are variables. */
export function operation(x: Target, hostile: unknown): { query: string; variables: Record<string, unknown> } {
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
