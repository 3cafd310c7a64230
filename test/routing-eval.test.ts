// The routing evaluation sets stay valid, the offline router meets the floors of both sets
// (test/eval/floors.ts), and the floors can fail: a router that always clarifies (which never
// routes a message into the wrong task) or always answers is below them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RouteDecision } from '../server/routing/types.ts';
import { belowFloors, loadSet, scoreSet, SETS, type Router } from './eval/routing.ts';
import { coverageFor, loadCases, OUTCOMES, validateCases } from './eval/validate-cases.ts';

const stub =
  (outcome: RouteDecision['outcome']): Router =>
  () => ({ outcome, method: 'RETRIEVAL', taskId: null, candidates: [], reason: `stub: always ${outcome}` });

test('both routing sets are valid and cover every outcome', () => {
  for (const s of SETS) {
    const v = validateCases(loadCases(s.file), coverageFor(s.file));
    assert.deepEqual(v.problems, [], s.name);
    for (const o of OUTCOMES) assert.ok(v.cases.filter((c) => c.expected.outcome === o).length >= 10, `${s.name}: ${o}`);
  }
});

test('the development and held-out sets share no message', () => {
  const [dev, heldout] = SETS.map((s) => loadSet(s.file));
  const texts = new Set(dev!.map((c) => c.message.text.trim().toLowerCase()));
  assert.deepEqual(heldout!.filter((c) => texts.has(c.message.text.trim().toLowerCase())).map((c) => c.id), []);
});

test('offline router: every floor of both sets is met, deterministic cases are always right', () => {
  for (const s of SETS) {
    const r = scoreSet(loadSet(s.file));
    assert.equal(r.deterministic.correct, r.deterministic.total, `${s.name}: ${JSON.stringify(r.deterministic.failures)}`);
    assert.deepEqual(belowFloors(r, s.floors), [], s.name);
  }
});

test('the floors catch a router that always clarifies, and one that always answers', () => {
  for (const s of SETS) {
    const cases = loadSet(s.file);
    const clarify = scoreSet(cases, stub('CLARIFY'));
    // It never delivers to a wrong task, and deterministic routes stay right: only accuracy can catch it.
    assert.equal(clarify.judgement.wrongTask, 0);
    assert.equal(clarify.deterministic.correct, clarify.deterministic.total);
    const misses = belowFloors(clarify, s.floors);
    assert.ok(misses.some((m) => m.startsWith('judgement overall')), `${s.name}: ${misses.join('; ')}`);
    for (const o of ['ANSWER', 'LIGHTWEIGHT_TASK', 'EXISTING_TASK', 'NEW_TASK']) assert.ok(misses.some((m) => m.startsWith(`judgement ${o} `)), `${s.name}: ${o}`);
    assert.notDeepEqual(belowFloors(scoreSet(cases, stub('ANSWER')), s.floors), [], `${s.name}: always ANSWER`);
  }
});
