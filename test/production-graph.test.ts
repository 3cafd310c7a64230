// The production graph's rules, pure: the order of a valid plan, cycles and unknown inputs refused
// with the path in words, which steps may run now (never before their inputs; independent ones side
// by side), and what a change makes stale — exactly the steps that use it, nothing on other branches.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stepDepths } from '../web/lib/plan-graph.ts';
import { downstreamOf, impactOf, readySteps, unfinishedInputs, validateGraph, type GraphStep } from '../server/domain/production-graph.ts';

const step = (id: string, after: string[], over: Partial<GraphStep> = {}): GraphStep => ({
  id,
  title: id.replace(/-/g, ' '),
  kind: 'OTHER',
  status: 'TODO',
  estimateCents: 0,
  count: 1,
  after,
  ...over,
});

/** A four-shot film: shots 1–2 in the harbour, 3–4 on the cliff; all four show the keeper. */
function film(status: Record<string, GraphStep['status']> = {}): GraphStep[] {
  const s = (id: string, after: string[], kind = 'OTHER', cents = 0) => step(id, after, { kind, estimateCents: cents, status: status[id] ?? 'TODO' });
  return [
    s('brief', []),
    s('storyboard', ['brief'], 'DOCUMENT'),
    s('character', ['storyboard'], 'IMAGE', 4),
    s('harbour', ['storyboard'], 'IMAGE', 4),
    s('cliff', ['storyboard'], 'IMAGE', 4),
    s('shot-1', ['character', 'harbour'], 'VIDEO', 60),
    s('shot-2', ['character', 'harbour'], 'VIDEO', 60),
    s('shot-3', ['character', 'cliff'], 'VIDEO', 60),
    s('shot-4', ['character', 'cliff'], 'VIDEO', 60),
    s('assembly', ['shot-1', 'shot-2', 'shot-3', 'shot-4']),
    s('delivery', ['assembly']),
  ];
}

describe('a plan is a graph that can run', () => {
  test('a valid plan gets an order in which every step comes after its inputs', () => {
    const g = film();
    const r = validateGraph(g);
    assert.ok(r.ok);
    const at = new Map(r.order.map((id, i) => [id, i]));
    for (const s of g) for (const a of s.after) assert.ok(at.get(a)! < at.get(s.id)!, `${a} before ${s.id}`);
    assert.equal(r.order.length, g.length);
  });

  test('a cycle is refused, naming the steps in the order work would flow', () => {
    const r = validateGraph([step('a', ['c']), step('b', ['a']), step('c', ['b']), step('d', [])]);
    assert.equal(r.ok, false);
    assert.ok(!r.ok && r.cycle);
    assert.deepEqual(!r.ok && r.cycle, ['a', 'b', 'c', 'a']);
    assert.match(!r.ok ? r.reason : '', /goes in a circle: "a" → "b" → "c" → "a"/);
  });

  test('a step after itself, after a step not in the plan, or two steps of one name are refused', () => {
    const self = validateGraph([step('a', ['a'])]);
    assert.match(!self.ok ? self.reason : '', /cannot come after itself/);
    const unknown = validateGraph([step('a', ['ghost'])]);
    assert.match(!unknown.ok ? unknown.reason : '', /not in the plan \("ghost"\)/);
    const twice = validateGraph([step('a', []), step('a', [])]);
    assert.match(!twice.ok ? twice.reason : '', /two steps are named "a"/);
  });

  test('a cycle deep in a larger plan is found, and only its steps are named', () => {
    const g = [...film(), step('loop-a', ['delivery', 'loop-b']), step('loop-b', ['loop-a'])];
    const r = validateGraph(g);
    assert.ok(!r.ok);
    assert.deepEqual(new Set(r.cycle), new Set(['loop-a', 'loop-b']));
  });
});

describe('dependency scheduling', () => {
  const ids = (s: GraphStep[]) => s.map((x) => x.id);

  test('at the start only the brief may run', () => {
    assert.deepEqual(ids(readySteps(film())), ['brief']);
  });

  test('independent steps are ready together; a shot waits for the character and its scene', () => {
    assert.deepEqual(ids(readySteps(film({ brief: 'DONE', storyboard: 'DONE' }))), ['character', 'harbour', 'cliff']);
    assert.deepEqual(ids(readySteps(film({ brief: 'DONE', storyboard: 'DONE', character: 'DONE', harbour: 'DONE' }))), ['cliff', 'shot-1', 'shot-2']);
    assert.deepEqual(ids(readySteps(film({ brief: 'DONE', storyboard: 'DONE', character: 'DONE', harbour: 'DONE', cliff: 'SKIPPED' }))), ['shot-1', 'shot-2', 'shot-3', 'shot-4']);
  });

  test('a step never starts before every input is finished (every partial state of the film)', () => {
    const g = film();
    const order = (validateGraph(g) as { order: string[] }).order;
    for (let done = 0; done <= order.length; done++) {
      const status = Object.fromEntries(order.slice(0, done).map((id) => [id, 'DONE' as const]));
      const now = film(status);
      const byId = new Map(now.map((s) => [s.id, s]));
      for (const r of readySteps(now)) {
        assert.equal(r.status, 'TODO');
        for (const a of r.after) assert.equal(byId.get(a)!.status, 'DONE', `${r.id} ready before ${a}`);
      }
    }
  });

  test('what a step still waits for, by name', () => {
    const g = film({ brief: 'DONE', storyboard: 'DONE', character: 'DONE' });
    assert.deepEqual(unfinishedInputs(g, 'shot-1').map((s) => s.id), ['harbour']);
    assert.deepEqual(unfinishedInputs(g, 'character'), []);
    assert.deepEqual(unfinishedInputs(g, 'nowhere'), []);
  });

  test('a running or blocked step is not offered again', () => {
    const g = film({ brief: 'DONE', storyboard: 'DONE', character: 'IN_PROGRESS', harbour: 'BLOCKED' });
    assert.deepEqual(ids(readySteps(g)), ['cliff']);
  });
});

describe('change propagation', () => {
  const done = { brief: 'DONE', storyboard: 'DONE', character: 'DONE', harbour: 'DONE', cliff: 'DONE', 'shot-1': 'DONE', 'shot-2': 'DONE' } as const;

  test('the character changes after two shots: exactly those shots are stale, the others simply wait, the scenes stay valid', () => {
    const impact = impactOf(film(done), ['character']);
    assert.deepEqual(impact.stale.map((s) => [s.id, s.because]), [['shot-1', 'character'], ['shot-2', 'character']]);
    assert.deepEqual(impact.waiting, ['shot-3', 'shot-4', 'assembly', 'delivery']);
    assert.deepEqual(impact.stillValid, ['brief', 'storyboard', 'harbour', 'cliff']);
    assert.equal(impact.costCents, 120, 'the price of re-making two shots, said before anything is spent');
  });

  test('a change on one branch leaves the other branch alone', () => {
    const impact = impactOf(film({ ...done, 'shot-3': 'DONE' }), ['cliff']);
    assert.deepEqual(impact.stale.map((s) => s.id), ['shot-3']);
    assert.ok(impact.stillValid.includes('shot-1') && impact.stillValid.includes('shot-2'));
  });

  test('downstream is transitive, and a step reached through several paths is listed once', () => {
    const down = downstreamOf(film(), ['storyboard']);
    assert.deepEqual([...down.keys()].sort(), ['assembly', 'character', 'cliff', 'delivery', 'harbour', 'shot-1', 'shot-2', 'shot-3', 'shot-4']);
    assert.equal(down.get('delivery'), 'storyboard');
    assert.deepEqual([...downstreamOf(film(), ['delivery']).keys()], [], 'nothing comes after the delivery');
  });
});

describe('the plan as the task panel indents it', () => {
  test('a step sits one deeper than the deepest step it uses; a list plan is flat', () => {
    const d = stepDepths(film());
    assert.deepEqual(['brief', 'storyboard', 'character', 'shot-1', 'assembly', 'delivery'].map((id) => d.get(id)), [0, 1, 2, 3, 4, 5]);
    assert.deepEqual([...stepDepths([{ id: 'a' }, { id: 'b' }]).values()], [0, 0]);
    // What the server refuses anyway (a circle, a step not in the list) still renders.
    assert.deepEqual([...stepDepths([{ id: 'a', after: ['b'] }, { id: 'b', after: ['a'] }, { id: 'c', after: ['ghost'] }]).keys()].sort(), ['a', 'b', 'c']);
  });
});
