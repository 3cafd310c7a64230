// Repeated fields: one response name selected over and over in one place.
import { Kind, type ValidationRule } from 'graphql';
import { limitError } from './settings.ts';

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
