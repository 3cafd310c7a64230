// The cost limit (hand-written: armor's cost-limit multiplies only by literal `first`/`last`, so it
// misses variables, defaults and `ids` lists, and it skips introspection): every field costs 1; a
// field returning a list multiplies the cost of its selection by the number of items it can return:
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
//
// Fragments are measured once each (memo by name), so the check is linear in the document.
import {
  Kind,
  getNamedType,
  getNullableType,
  getIntrospectionQuery,
  isAbstractType,
  isCompositeType,
  isIntrospectionType,
  isInterfaceType,
  isListType,
  isObjectType,
  parse,
  SchemaMetaFieldDef,
  TypeMetaFieldDef,
  type ASTVisitor,
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
import { introspectionMultipliers, type Multipliers } from './introspection-sizes.ts';
import { limitError } from './settings.ts';

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
    // Fragments on different object types of an abstract selection exclude each other: a value is
    // exactly one object type, so only the dearest of them can apply (one per event type of
    // TaskEvent, say). Each object type's fragments are summed; the maximum over types is added.
    const byObjectType = new Map<string, Cost>();
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
        const condition = sel.kind === Kind.INLINE_FRAGMENT ? sel.typeCondition?.name.value : getFragment(sel.name.value)?.typeCondition.name.value;
        const c =
          sel.kind === Kind.INLINE_FRAGMENT
            ? (() => {
                const t = sel.typeCondition ? schema.getType(sel.typeCondition.name.value) : type;
                return setCost(sel.selectionSet, isCompositeType(t) ? t : undefined);
              })()
            : fragmentCost(sel.name.value);
        const conditionType = condition ? schema.getType(condition) : undefined;
        if (condition && isObjectType(conditionType) && isAbstractType(type)) {
          const seen = byObjectType.get(condition) ?? ZERO;
          byObjectType.set(condition, { data: seen.data + c.data, intro: seen.intro + c.intro });
        } else {
          data += c.data;
          introCost += c.intro;
        }
      }
    }
    let dearest = ZERO;
    for (const c of byObjectType.values()) dearest = { data: Math.max(dearest.data, c.data), intro: Math.max(dearest.intro, c.intro) };
    return { data: data + dearest.data, intro: introCost + dearest.intro };
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

/** What one introspection may cost on this schema (see the top of this file). */
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
