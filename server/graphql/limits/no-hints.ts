// No schema hints in errors ("Did you mean …") for anyone, on every transport: the names a client
// did not guess are not disclosed through suggestions.
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { blockFieldSuggestionsPlugin } from '@escape.tech/graphql-armor-block-field-suggestions';

/** " Did you mean …?" in any of graphql's phrasings (field, argument, type, enum value, inline fragment). */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

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

/** armor's suggestion mask, and a plugin that strips graphql's other phrasings of a hint. */
export function noHintsPlugins(): Plugin[] {
  const noSuggestions = blockFieldSuggestionsPlugin({ mask: '' }) as Plugin;
  // armor's mask covers `Did you mean "x"?` in validation; graphql also says `Did you mean the enum
  // value "X"?` and `Did you mean to use an inline fragment on "T"?`, and variable values are
  // checked at execution. Both are stripped here, on every transport.
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
  return [noSuggestions, noHints];
}
