// Query depth and cost limits as GraphQL validation rules, so they run on every transport
// (HTTP, SSE, graphql-ws) before anything executes.
//
// Cost: every field costs 1; a field taking `first`/`last` multiplies the cost of its selection by
// that number (a literal; a variable counts as the largest page, 100, since validation cannot see
// variable values). Connection fields without `first` count as their default page (20).
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';

const VARIABLE_PAGE = 100;
const DEFAULT_PAGE = 20;

function limitError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}

type Walk = { depth: number; cost: number };

function walk(
  set: SelectionSetNode,
  fragments: Record<string, FragmentDefinitionNode>,
  seen: Set<string>,
): Walk {
  let depth = 0;
  let cost = 0;
  for (const sel of set.selections) {
    if (sel.kind === Kind.FIELD) {
      if (sel.name.value.startsWith('__')) continue; // introspection meta fields
      const inner = sel.selectionSet ? walk(sel.selectionSet, fragments, seen) : { depth: 0, cost: 0 };
      depth = Math.max(depth, 1 + inner.depth);
      cost += 1 + multiplier(sel) * inner.cost;
    } else if (sel.kind === Kind.INLINE_FRAGMENT) {
      const inner = walk(sel.selectionSet, fragments, seen);
      depth = Math.max(depth, inner.depth);
      cost += inner.cost;
    } else {
      const name = sel.name.value;
      const frag = fragments[name];
      if (!frag || seen.has(name)) continue; // unknown or cyclic: graphql's own rules report it
      seen.add(name);
      const inner = walk(frag.selectionSet, fragments, seen);
      seen.delete(name);
      depth = Math.max(depth, inner.depth);
      cost += inner.cost;
    }
  }
  return { depth, cost };
}

function multiplier(field: FieldNode): number {
  const arg = field.arguments?.find((a) => a.name.value === 'first' || a.name.value === 'last');
  if (!arg) return field.name.value === 'tasks' || field.name.value === 'messages' ? DEFAULT_PAGE : 1;
  if (arg.value.kind === Kind.INT) return Math.max(1, Number(arg.value.value));
  if (arg.value.kind === Kind.VARIABLE) return VARIABLE_PAGE;
  return 1;
}

export function limitsRule(maxDepth: number, maxCost: number) {
  return (context: ValidationContext): ASTVisitor => {
    const doc = context.getDocument();
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of doc.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
    return {
      OperationDefinition(op) {
        const { depth, cost } = walk(op.selectionSet, fragments, new Set());
        if (depth > maxDepth) {
          context.reportError(limitError(`Query is too deep: depth ${depth} exceeds the limit of ${maxDepth}`));
        }
        if (cost > maxCost) {
          context.reportError(limitError(`Query is too expensive: cost ${cost} exceeds the limit of ${maxCost}`));
        }
      },
    };
  };
}
