// Limits on what one GraphQL document may ask for, checked before any resolver runs and on every
// transport (HTTP, SSE, graphql-ws): they are envelop plugins, and the socket transport parses and
// validates through the same enveloped `parse`/`validate`.
//
// Every check is linear in the size of the document. Fragments are expanded with a memo (each
// fragment is measured once, however often it is spread), so a chain of fragments that each
// spread the next twice costs as much to check as it is long, not 2^n. The checks run in two steps:
//  1. parse: a token limit (graphql-armor max-tokens). Parsing stops at the limit, so a megabyte of
//     selections or a 50,000-deep list never becomes a tree, and recursion in the parser (and in
//     everything after it) is bounded by the limit;
//  2. before graphql's own validation rules: depth, aliases, directives (graphql-armor, whose rules
//     memoise fragments), cost, root mutation fields and repeated fields (below). graphql's rules
//     are not all linear (fields of the same name are compared pairwise), so they only see
//     documents that passed.
//
// Cost (hand-written: armor's cost-limit multiplies only by literal `first`/`last`, so it misses
// variables, defaults and `ids` lists, and it skips introspection): every field costs 1; a field
// returning a list multiplies the cost of its selection by the number of items it can return:
//  - connections: `first`/`last` (a literal; a variable counts as the field's largest page), else
//    the field's default page;
//  - `nodes(ids:)`: the length of the list (a variable counts as the most the field accepts);
//  - other size arguments with a default (`ledgerByDay(days:)`): the value, else the default;
//  - introspection lists: the schema's average per parent (e.g. `types` = number of types);
//  - other lists: 1, their length is bounded by the data (a task's turns), not by the request.
// Introspection is counted the same way against a budget of its own: what the complete standard
// introspection query (GraphiQL's, every option on) costs on this schema, plus a tenth for other
// clients' variants of it. Tools keep working as the schema grows, and one request holds at most
// one introspection's worth: cheap per field (memory, no database), but 2,000 aliased `__schema`
// selections are not.
import {
  GraphQLError,
  Kind,
  getNamedType,
  getNullableType,
  getIntrospectionQuery,
  isCompositeType,
  isEnumType,
  isIntrospectionType,
  isInputObjectType,
  isInterfaceType,
  isListType,
  isObjectType,
  isUnionType,
  parse,
  validate,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLCompositeType,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';

export type LimitSettings = {
  /** Lexical tokens in a document (parse stops beyond). */
  maxTokens: number;
  /** Nesting of fields, fragments flattened; `__schema` is left to the cost limit (see below). */
  maxDepth: number;
  /** Aliased fields, fragments expanded (`__typename` aliases are free). */
  maxAliases: number;
  /** Directives, fragments expanded. */
  maxDirectives: number;
  /** Estimated fields resolved (see above). */
  maxCost: number;
  /** Root fields of a mutation: each is a write (and is charged to the rate limit). */
  maxMutationFields: number;
};

/** `Query.nodes` refuses more ids than this (server/graphql/builder.ts); a longer literal list is refused here. */
export const MAX_NODE_IDS = 100;
const CONNECTION_DEFAULT_PAGE = 20;
const CONNECTION_MAX_PAGE = 100;
/** Connections and size arguments whose page differs from the relay defaults above. */
const PAGES: Record<string, { default: number; max: number }> = {
  'Task.events': { default: 100, max: 500 },
};
/** Size arguments (besides first/last/ids) and the most they accept. */
const SIZE_ARGS: Record<string, number> = { days: 366 };

export function limitError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

// ---------------------------------------------------------------------------------------------
// Cost

type Multipliers = Map<string, number>; // "Type.field" → items per parent, for introspection lists

/** Average list sizes of the schema's introspection, e.g. how many fields a type has on average. */
function introspectionMultipliers(schema: GraphQLSchema): Multipliers {
  const types = Object.values(schema.getTypeMap());
  let fields = 0;
  let args = 0;
  let inputFields = 0;
  let enumValues = 0;
  let interfaces = 0;
  let possible = 0;
  for (const t of types) {
    if (isObjectType(t) || isInterfaceType(t)) {
      const fs = Object.values(t.getFields());
      fields += fs.length;
      for (const f of fs) args += f.args.length;
      interfaces += t.getInterfaces().length;
    }
    if (isInterfaceType(t) || isUnionType(t)) possible += schema.getPossibleTypes(t).length;
    if (isInputObjectType(t)) inputFields += Object.keys(t.getFields()).length;
    if (isEnumType(t)) enumValues += t.getValues().length;
  }
  const directives = schema.getDirectives();
  const dirArgs = directives.reduce((n, d) => n + d.args.length, 0);
  const avg = (n: number, d: number) => Math.max(1, Math.ceil(n / Math.max(1, d)));
  return new Map([
    ['__Schema.types', types.length],
    ['__Schema.directives', directives.length],
    ['__Type.fields', avg(fields, types.length)],
    ['__Type.inputFields', avg(inputFields, types.length)],
    ['__Type.enumValues', avg(enumValues, types.length)],
    ['__Type.interfaces', avg(interfaces, types.length)],
    ['__Type.possibleTypes', avg(possible, types.length)],
    ['__Field.args', avg(args, fields)],
    ['__Directive.args', avg(dirArgs, directives.length)],
  ]);
}

function intArg(field: FieldNode, name: string): { literal?: number; variable?: true } | undefined {
  const arg = field.arguments?.find((a) => a.name.value === name);
  if (!arg) return undefined;
  if (arg.value.kind === Kind.INT) return { literal: Number(arg.value.value) };
  if (arg.value.kind === Kind.VARIABLE) return { variable: true };
  return {}; // null or a wrong type: graphql's rules report it
}

/** How many items the field can return per parent (1 for a single value). */
function multiplier(
  parent: GraphQLCompositeType,
  def: GraphQLField<unknown, unknown>,
  node: FieldNode,
  intro: Multipliers,
  report: (message: string) => void,
): number {
  const key = `${parent.name}.${def.name}`;
  const known = intro.get(key);
  if (known !== undefined) return known;
  const returns = getNullableType(def.type);
  const named = getNamedType(def.type);
  const isConnection = isObjectType(named) && named.name.endsWith('Connection') && 'edges' in named.getFields();
  if (isConnection) {
    const page = PAGES[key] ?? { default: CONNECTION_DEFAULT_PAGE, max: CONNECTION_MAX_PAGE };
    const size = intArg(node, 'first') ?? intArg(node, 'last');
    if (size?.variable) return page.max;
    // Absent or null: the default page. More than the maximum: the resolver refuses or clamps it.
    if (size?.literal === undefined) return page.default;
    return Math.max(1, Math.min(size.literal, page.max));
  }
  if (!isListType(returns)) return 1;
  // A connection's edges are its page, already counted on the connection field.
  if (parent.name.endsWith('Connection')) return 1;
  const ids = node.arguments?.find((a) => a.name.value === 'ids');
  if (ids) {
    if (ids.value.kind === Kind.LIST) {
      if (ids.value.values.length > MAX_NODE_IDS) {
        report(`Too many ids: ${def.name}(ids:) takes at most ${MAX_NODE_IDS}, this request has ${ids.value.values.length}`);
      }
      return Math.max(1, ids.value.values.length);
    }
    // A variable holds up to the maximum; a single value is a list of one (input coercion).
    return ids.value.kind === Kind.VARIABLE ? MAX_NODE_IDS : 1;
  }
  for (const a of def.args) {
    const max = SIZE_ARGS[a.name];
    if (max === undefined) continue;
    const v = intArg(node, a.name);
    if (v?.variable) return max;
    if (v?.literal === undefined) return Math.max(1, typeof a.defaultValue === 'number' ? a.defaultValue : max);
    return Math.max(1, Math.min(v.literal, max));
  }
  return 1;
}

type Cost = { data: number; intro: number };
const ZERO: Cost = { data: 0, intro: 0 };

/**
 * The cost of each operation, fragments measured once each (memo by name: a fragment's cost does
 * not depend on where it is spread, only on its type condition). Cycles count as 0 here; graphql's
 * NoFragmentCyclesRule refuses them.
 */
function operationCosts(
  schema: GraphQLSchema,
  getFragment: (name: string) => FragmentDefinitionNode | undefined | null,
  report: (message: string) => void,
): (op: OperationDefinitionNode) => Cost {
  const intro = introspection(schema).multipliers;
  const memo = new Map<string, Cost>();

  const fragmentCost = (name: string): Cost => {
    const known = memo.get(name);
    if (known) return known;
    const frag = getFragment(name);
    if (!frag) return ZERO;
    memo.set(name, ZERO); // in progress: a cycle adds nothing
    const type = schema.getType(frag.typeCondition.name.value);
    const cost = isCompositeType(type) ? setCost(frag.selectionSet, type) : ZERO;
    memo.set(name, cost);
    return cost;
  };

  const setCost = (set: SelectionSetNode, type: GraphQLCompositeType | undefined): Cost => {
    let data = 0;
    let introCost = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        const def = type ? fieldDef(schema, type, sel.name.value) : undefined;
        let inner = ZERO;
        let times = 1;
        if (sel.selectionSet) {
          const t = def ? getNamedType(def.type) : undefined;
          inner = setCost(sel.selectionSet, isCompositeType(t) ? t : undefined);
          if (def && type) times = multiplier(type, def, sel, intro, report);
        }
        // __schema, __type and every field of an introspection type are introspection.
        const isIntro = (type !== undefined && isIntrospectionType(type)) || (def !== undefined && isIntrospectionType(getNamedType(def.type)));
        if (isIntro) introCost += 1;
        else data += 1;
        data += times * inner.data;
        introCost += times * inner.intro;
      } else {
        const c =
          sel.kind === Kind.INLINE_FRAGMENT
            ? (() => {
                const t = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type;
                return setCost(sel.selectionSet, isCompositeType(t) ? t : undefined);
              })()
            : fragmentCost(sel.name.value);
        data += c.data;
        introCost += c.intro;
      }
    }
    return { data, intro: introCost };
  };

  return (op) => setCost(op.selectionSet, schema.getRootType(op.operation) ?? undefined);
}

type Introspection = { multipliers: Multipliers; budget: number };
const introspectionBySchema = new WeakMap<GraphQLSchema, Introspection>();

/** List sizes for introspection and its budget, computed once per schema. */
function introspection(schema: GraphQLSchema): Introspection {
  let known = introspectionBySchema.get(schema);
  if (known) return known;
  known = { multipliers: introspectionMultipliers(schema), budget: 0 };
  introspectionBySchema.set(schema, known);
  const full = parse(
    getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, schemaDescription: true, inputValueDeprecation: true, oneOf: true }),
  );
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of full.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  const op = full.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION)!;
  known.budget = Math.ceil(1.1 * operationCosts(schema, (n) => fragments.get(n), () => {})(op).intro);
  return known;
}

/** What one introspection may cost on this schema (see above). */
export function introspectionBudget(schema: GraphQLSchema): number {
  return introspection(schema).budget;
}

const shown = (n: number) => (Number.isFinite(n) && n < 1e15 ? String(n) : 'beyond 10^15');

export function costRule(maxCost: number): ValidationRule {
  return (context: ValidationContext): ASTVisitor => {
    const schema = context.getSchema();
    const reported = new Set<string>();
    const report = (message: string) => {
      if (reported.has(message)) return;
      reported.add(message);
      context.reportError(limitError(message));
    };
    const costOf = operationCosts(schema, (name) => context.getFragment(name), report);
    const budget = introspectionBudget(schema);
    return {
      OperationDefinition(op: OperationDefinitionNode) {
        const { data, intro } = costOf(op);
        if (data > maxCost) report(`Query is too expensive: cost ${shown(data)} exceeds the limit of ${maxCost}`);
        if (intro > budget) report(`Introspection is too expensive: cost ${shown(intro)} exceeds the limit of ${budget}`);
      },
    };
  };
}

function fieldDef(schema: GraphQLSchema, type: GraphQLCompositeType, name: string): GraphQLField<unknown, unknown> | undefined {
  // __schema and __type are not in Query's field map; graphql exports their definitions.
  if (type === schema.getQueryType()) {
    if (name === SchemaMetaFieldDef.name) return SchemaMetaFieldDef as GraphQLField<unknown, unknown>;
    if (name === TypeMetaFieldDef.name) return TypeMetaFieldDef as GraphQLField<unknown, unknown>;
  }
  return isObjectType(type) || isInterfaceType(type) ? type.getFields()[name] : undefined;
}

// ---------------------------------------------------------------------------------------------
// Root mutation fields

/** Root fields of an operation, fragments expanded (each spread counts; each fragment is measured once). */
export function rootFieldCount(op: OperationDefinitionNode, getFragment: (name: string) => FragmentDefinitionNode | undefined | null): number {
  const memo = new Map<string, number>();
  const count = (set: SelectionSetNode): number => {
    let n = 0;
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) n += sel.name.value === '__typename' ? 0 : 1;
      else if (sel.kind === Kind.INLINE_FRAGMENT) n += count(sel.selectionSet);
      else {
        const name = sel.name.value;
        if (!memo.has(name)) {
          memo.set(name, 0); // a cycle adds nothing (NoFragmentCyclesRule refuses it)
          const frag = getFragment(name);
          memo.set(name, frag ? count(frag.selectionSet) : 0);
        }
        n += memo.get(name)!;
      }
    }
    return n;
  };
  return count(op.selectionSet);
}

// ---------------------------------------------------------------------------------------------
// Repeated fields

/** Times one response name may be selected in one selection set (as written). */
export const MAX_REPEATS = 10;

/**
 * graphql's OverlappingFieldsCanBeMergedRule compares the fields of one response name pairwise:
 * `{ viewer { scopes } viewer { scopes } … }` 250 times, within the token limit, costs ~50 ms of
 * validation. No document needs a field more than a few times in one place (fragments that share
 * a field are compared pair by pair, memoised, and are not counted here).
 */
export function repeatedFieldsRule(max = MAX_REPEATS): ValidationRule {
  return (context) => ({
    SelectionSet(set) {
      const seen = new Map<string, number>();
      for (const sel of set.selections) {
        if (sel.kind !== Kind.FIELD) continue;
        const name = (sel.alias ?? sel.name).value;
        const n = (seen.get(name) ?? 0) + 1;
        seen.set(name, n);
        if (n === max + 1) {
          context.reportError(limitError(`Field "${name}" is selected more than ${max} times in one place; select it once`));
        }
      }
    },
  });
}

export function mutationFieldsRule(max: number): ValidationRule {
  return (context) => ({
    OperationDefinition(op) {
      if (op.operation !== 'mutation') return;
      const n = rootFieldCount(op, (name) => context.getFragment(name));
      if (n > max) {
        context.reportError(limitError(`Too many mutations in one request: ${n} exceeds the limit of ${max}; send them in separate requests`));
      }
    },
  });
}

/** Root mutation fields of the operation that will run (for the rate limit): 0 for a query. */
export function mutationFieldsOf(document: DocumentNode, operationName?: string | null): number {
  const ops = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const op = operationName ? ops.find((o) => o.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
  if (!op || op.operation !== 'mutation') return 0;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);
  return rootFieldCount(op, (name) => fragments.get(name));
}

// ---------------------------------------------------------------------------------------------
// The plugins

/** armor reports "Syntax Error: <what> limit of N exceeded, found M."; we say it in a plain sentence. */
function armorReject(say: (found: string | undefined) => string) {
  return (ctx: ValidationContext | null, err: GraphQLError) => {
    const found = /found (\d+)/.exec(err.message)?.[1];
    ctx?.reportError(limitError(say(found)));
  };
}

export function limitRules(s: LimitSettings): ValidationRule[] {
  const callbacks = { propagateOnRejection: false, exposeLimits: true } as const;
  return [
    // ignoreIntrospection: GraphiQL's own introspection query is 15 deep (TypeRef's ofType chain);
    // `__schema` stays bounded by the cost limit, which counts it. flattenFragments: a fragment
    // spread is not a level of the response.
    maxDepthRule({
      n: s.maxDepth,
      ignoreIntrospection: true,
      flattenFragments: true,
      ...callbacks,
      onReject: [armorReject((d) => `Query is too deep: depth ${d ?? 'over the limit'} exceeds the limit of ${s.maxDepth}`)],
    }) as unknown as ValidationRule,
    maxAliasesRule({
      n: s.maxAliases,
      ...callbacks,
      onReject: [armorReject((n) => `Too many aliases: ${n ?? 'more than the limit'} exceeds the limit of ${s.maxAliases}`)],
    }) as unknown as ValidationRule,
    maxDirectivesRule({
      n: s.maxDirectives,
      ...callbacks,
      onReject: [armorReject((n) => `Too many directives: ${n ?? 'more than the limit'} exceeds the limit of ${s.maxDirectives}`)],
    }) as unknown as ValidationRule,
    costRule(s.maxCost),
    mutationFieldsRule(s.maxMutationFields),
    repeatedFieldsRule(),
  ];
}

/** " Did you mean …?" in any of graphql's phrasings (field, argument, type, enum value, inline fragment). */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/**
 * The envelop plugins, in order: the token limit on parse, the limits before graphql's validation,
 * and no schema hints in errors ("Did you mean …") for anyone.
 */
export function limitPlugins(s: LimitSettings): Plugin[] {
  const checked = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  const tokens = maxTokensPlugin({
    n: s.maxTokens,
    exposeLimits: true,
    // Thrown from the callback so the caller sees our sentence rather than armor's "Syntax Error".
    onReject: [
      () => {
        throw limitError(`Query is too large: it has more than ${s.maxTokens} tokens (the limit)`);
      },
    ],
  }) as Plugin;
  const beforeValidation: Plugin = {
    onValidate({ params, setResult }) {
      // The parser cache hands back the same document for the same text, so a document is measured once.
      let errors = checked.get(params.documentAST);
      if (!errors) {
        errors = validate(params.schema, params.documentAST, limitRules(s), { maxErrors: 10 });
        checked.set(params.documentAST, errors);
      }
      // Over a limit: graphql's own rules never see the document.
      if (errors.length) setResult([...errors]);
    },
  };
  const noSuggestions = blockFieldSuggestionsPlugin({ mask: '' }) as Plugin;
  // armor's mask covers `Did you mean "x"?` in validation; graphql also says `Did you mean the enum
  // value "X"?` and `Did you mean to use an inline fragment on "T"?`, and variable values are
  // checked at execution. Both are stripped here, on every transport.
  const stripOne = <E extends Error>(e: E): E | GraphQLError => {
    if (!(e instanceof GraphQLError)) return e;
    // Only errors about the request (no cause, or a GraphQLError cause, which the masking reads
    // its message from); a resolver's own error is the masking's business.
    const cause = e.originalError;
    if (cause && !(cause instanceof GraphQLError)) return e;
    const message = e.message.replace(SUGGESTION, '');
    const inner = cause ? stripOne(cause) : undefined;
    if (message === e.message && inner === cause) return e;
    return new GraphQLError(message, {
      nodes: e.nodes,
      source: e.source,
      positions: e.positions,
      path: e.path,
      originalError: inner,
      extensions: e.extensions,
    });
  };
  const strip = <E extends Error>(errors: readonly E[]): (E | GraphQLError)[] => errors.map(stripOne);
  const noHints: Plugin = {
    onValidate: () => ({ valid, result, setResult }) => {
      if (!valid) setResult(strip(result));
    },
    onExecute: () => ({
      onExecuteDone({ result, setResult }) {
        if ('errors' in result && result.errors?.length) setResult({ ...result, errors: strip(result.errors) });
      },
    }),
    onSubscribe: () => ({
      onSubscribeResult({ result, setResult }) {
        if ('errors' in result && result.errors?.length) setResult({ ...result, errors: strip(result.errors) });
      },
    }),
  };
  return [tokens, beforeValidation, noSuggestions, noHints];
}

/** Documents longer than this are parsed every time rather than kept in Yoga's parser cache. */
export const MAX_CACHED_DOCUMENT_CHARS = 16_384;

/**
 * Yoga keeps parsed documents and parse errors keyed by their text (1,024 of each by default). A
 * flood of distinct near-megabyte documents would then hold a gigabyte of keys; no document the
 * apps send is longer than a few kilobytes, so longer ones are not kept. (Map order is insertion
 * order: a hit is re-inserted, the oldest entry is dropped first.)
 */
export function parserCache(max = 1024) {
  const bounded = <T>() => {
    const m = new Map<string, T>();
    return {
      get(key: string): T | undefined {
        if (key.length > MAX_CACHED_DOCUMENT_CHARS) return undefined;
        const v = m.get(key);
        if (v !== undefined) {
          m.delete(key);
          m.set(key, v);
        }
        return v;
      },
      set(key: string, value: T): void {
        if (key.length > MAX_CACHED_DOCUMENT_CHARS) return;
        m.delete(key);
        m.set(key, value);
        if (m.size > max) m.delete(m.keys().next().value as string);
      },
    };
  };
  return { documentCache: bounded<DocumentNode>(), errorCache: bounded<unknown>(), validationCache: true };
}
