// The envelop plugins that enforce the limits on every transport (HTTP, SSE, graphql-ws): the
// socket transport parses and validates through the same enveloped `parse`/`validate`.
import { validate, type DocumentNode, type GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { noHintsPlugins } from './no-hints.ts';
import { limitRules } from './rules.ts';
import { limitError, type LimitSettings } from './settings.ts';

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
  return [tokens, beforeValidation, ...noHintsPlugins()];
}
