// The validation rules of the limits, in order: graphql-armor's depth, aliases and directives (with
// our own sentences for their rejections), then cost, root mutation fields and repeated fields.
import type { GraphQLError, ValidationContext, ValidationRule } from 'graphql';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import { costRule } from './cost.ts';
import { repeatedFieldsRule } from './repeated-fields.ts';
import { mutationFieldsRule } from './root-fields.ts';
import { limitError, type LimitSettings } from './settings.ts';

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
