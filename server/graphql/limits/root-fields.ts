// Root mutation fields: each is a write and is charged to the rate limit, so one request may carry
// only so many, and the rate limit asks how many the operation that will run has.
import { Kind, type DocumentNode, type FragmentDefinitionNode, type OperationDefinitionNode, type SelectionSetNode, type ValidationRule } from 'graphql';
import { limitError } from './settings.ts';

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
