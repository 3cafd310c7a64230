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
// The parts live in ./limits/: the settings and their error, the cost limit (./limits/cost.ts, with
// how it counts), root mutation fields, repeated fields, the rule list with graphql-armor's rules,
// the plugins (with the removal of schema hints from errors) and the bounded parser cache.

export { costRule, introspectionBudget, MAX_NODE_IDS } from './limits/cost.ts';
export { MAX_CACHED_DOCUMENT_CHARS, parserCache } from './limits/parser-cache.ts';
export { limitPlugins } from './limits/plugins.ts';
export { MAX_REPEATS, repeatedFieldsRule } from './limits/repeated-fields.ts';
export { mutationFieldsOf, mutationFieldsRule, rootFieldCount } from './limits/root-fields.ts';
export { limitRules } from './limits/rules.ts';
export { limitError, type LimitSettings } from './limits/settings.ts';
