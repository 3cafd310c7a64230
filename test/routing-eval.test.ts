// The routing evaluation set stays valid, and the offline router's costliest error stays rare.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { evaluate } from './eval/routing.ts';
import { DEFAULT_CASES_FILE, loadCases, validateCases } from './eval/validate-cases.ts';

test('the labelled routing cases are valid and cover every outcome (≥ 80 cases)', () => {
  const v = validateCases(loadCases(DEFAULT_CASES_FILE));
  assert.deepEqual(v.problems, []);
  assert.ok(v.cases.length >= 80);
  for (const o of ['ANSWER', 'LIGHTWEIGHT_TASK', 'EXISTING_TASK', 'NEW_TASK', 'CLARIFY']) {
    assert.ok(v.cases.filter((c) => c.expected.outcome === o).length >= 10, o);
  }
});

test('offline router: deterministic cases are always right, and wrong-task routes stay under 5%', () => {
  const v = validateCases(loadCases(DEFAULT_CASES_FILE));
  const r = evaluate(v.cases);
  const deterministic = v.cases.filter((c) => c.message.taskKey || c.message.cardAction);
  const det = evaluate(deterministic);
  assert.equal(det.correct, det.total, JSON.stringify(det.failures));
  // A regression guard on the costly error, not a target: the full figures are printed by npm run eval:routing.
  assert.ok(r.wrongTask / r.total < 0.05, `wrong-task rate ${r.wrongTask}/${r.total}`);
});
