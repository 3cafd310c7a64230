// Applies the mutation matrix (auth/mutation-policy.ts) to every root field of a mutation before
// any of them runs: a request with one refused field changes nothing. Runs inside Yoga's envelope,
// so HTTP, SSE and WebSocket are covered alike.
import { GraphQLError, Kind, type DocumentNode, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { mutationRefusal } from '../auth/mutation-policy.ts';
import { AppError } from '../errors.ts';
import type { Context } from './context.ts';

/** Root field names of an operation, through inline fragments and fragment spreads. */
export function rootFieldNames(doc: DocumentNode, op: OperationDefinitionNode): string[] {
  const fragments = new Map(
    doc.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d.selectionSet] as const] : [])),
  );
  const names = new Set<string>();
  const seen = new Set<string>();
  const visit = (set: SelectionSetNode) => {
    for (const sel of set.selections) {
      if (sel.kind === Kind.FIELD) {
        if (sel.name.value !== '__typename') names.add(sel.name.value);
      } else if (sel.kind === Kind.INLINE_FRAGMENT) visit(sel.selectionSet);
      else if (!seen.has(sel.name.value)) {
        seen.add(sel.name.value);
        const f = fragments.get(sel.name.value);
        if (f) visit(f);
      }
    }
  };
  visit(op.selectionSet);
  return [...names];
}

export function selectedOperation(doc: DocumentNode, operationName?: string | null): OperationDefinitionNode | undefined {
  const ops = doc.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return operationName ? ops.find((o) => o.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
}

export const authorizeMutations: Plugin<Context> = {
  onExecute({ args, setResultAndStopExecution }) {
    const op = selectedOperation(args.document, args.operationName);
    if (!op || op.operation !== 'mutation') return;
    const viewer = (args.contextValue as Context).viewer;
    const errors = rootFieldNames(args.document, op).flatMap((field) => {
      const why = mutationRefusal(field, viewer);
      if (!why) return [];
      const cause = new AppError('FORBIDDEN', why, { mutation: field });
      return [new GraphQLError(why, { path: [field], originalError: cause, extensions: { code: 'FORBIDDEN', mutation: field } })];
    });
    if (errors.length) setResultAndStopExecution({ data: null, errors });
  },
};
