// The limits' settings, and the error every limit reports (a client error: the request asked for
// too much, the server is fine).
import { GraphQLError } from 'graphql';

export type LimitSettings = {
  /** Lexical tokens in a document (parse stops beyond). */
  maxTokens: number;
  /** Nesting of fields, fragments flattened; `__schema` is left to the cost limit (./rules.ts). */
  maxDepth: number;
  /** Aliased fields, fragments expanded (`__typename` aliases are free). */
  maxAliases: number;
  /** Directives, fragments expanded. */
  maxDirectives: number;
  /** Estimated fields resolved (./cost.ts). */
  maxCost: number;
  /** Root fields of a mutation: each is a write (and is charged to the rate limit). */
  maxMutationFields: number;
};

export function limitError(message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT' } });
}
