// The routing evaluation sets stay valid, the offline router meets the floors of every set
// (test/eval/floors.ts), and the floors can fail: a router that always clarifies (which never
// routes a message into the wrong task) or always answers is below them, and so is one that routes
// like the product but drops intents and seeds (it would deliver "stop the PPT" as a request).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { routeOffline } from '../server/routing/offline-router.ts';
import type { RouteDecision } from '../server/routing/types.ts';
import { belowFloors, loadSet, scoreSet, SETS, type Router } from './eval/routing.ts';
import { coverageFor, loadCases, OUTCOMES, validateCases } from './eval/validate-cases.ts';

const stub =
  (outcome: RouteDecision['outcome']): Router =>
  () => ({ outcome, method: 'RETRIEVAL', taskId: null, candidates: [], reason: `stub: always ${outcome}` });

test('every routing set is valid and covers every outcome', () => {
  for (const s of SETS) {
    const coverage = coverageFor(s.file);
    const v = validateCases(loadCases(s.file), coverage);
    assert.deepEqual(v.problems, [], s.name);
    for (const o of OUTCOMES) assert.ok(v.cases.filter((c) => c.expected.outcome === o).length >= coverage.minPerOutcome, `${s.name}: ${o}`);
  }
});

test('the development set shares no message with a held-out set, nor the held-out sets with each other', () => {
  const sets = SETS.map((s) => ({ name: s.name, texts: new Set(loadSet(s.file).map((c) => c.message.text.trim().toLowerCase())) }));
  for (const [i, a] of sets.entries()) {
    for (const b of sets.slice(i + 1)) assert.deepEqual([...a.texts].filter((x) => b.texts.has(x)), [], `${a.name} / ${b.name}`);
  }
});

test('offline router: every floor of both sets is met, deterministic cases are always right', () => {
  for (const s of SETS) {
    const r = scoreSet(loadSet(s.file));
    assert.equal(r.deterministic.correct, r.deterministic.total, `${s.name}: ${JSON.stringify(r.deterministic.failures)}`);
    assert.deepEqual(belowFloors(r, s.floors), [], s.name);
  }
});

test('the floors catch a router that drops intents and seeds', () => {
  const blunt: Router = (text, index, now) => {
    const { intent: _i, seedTaskId: _s, ...d } = routeOffline(text, index, now);
    return d;
  };
  const s = SETS.find((x) => x.name === 'held-out 2')!;
  assert.notDeepEqual(belowFloors(scoreSet(loadSet(s.file), blunt), s.floors), [], 'no intents, no seeds');
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
