// The production graph's rules, pure: the order of a valid plan, cycles and unknown inputs refused
// with the path in words, which steps may run now (never before their inputs; independent ones side
// by side), and what a change makes stale — exactly the steps that use it, nothing on other branches.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { stepDepths } from '../web/lib/plan-graph.ts';
import { ChecklistItemSchema, isFinished, isOpen, markStale, settleStale, type ChecklistItem } from '../server/domain/checklist.ts';
import { textsFor } from '../server/domain/replies/texts.ts';
import { classify } from '../server/runtime/models/offline-flows.ts';
import { localizedPlan } from '../server/runtime/models/offline/texts.ts';
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

describe('STALE: a change marks the results made from it, and the person decides', () => {
  const item = (id: string, status: ChecklistItem['status'], after: string[] = [], artifacts: string[] = []) =>
    ChecklistItemSchema.parse({ id, title: id, kind: 'VIDEO', status, after: after.length ? after : undefined, artifacts, estimateCents: 50 });

  test('only steps with results (or orders) become STALE, with the input in their evidence; the rest is untouched', () => {
    const items = [item('character', 'DONE', [], ['object:c']), item('shot-1', 'DONE', [], ['job:1']), item('shot-2', 'DONE', ['character'], ['job:2']), item('shot-3', 'TODO', ['character'])];
    const marked = markStale(items, [{ id: 'shot-2', because: 'Character sheet' }, { id: 'shot-3', because: 'Character sheet' }]);
    assert.deepEqual(marked.map((i) => i.status), ['DONE', 'DONE', 'STALE', 'TODO']);
    assert.match(marked[2]!.evidence!, /Character sheet/);
    assert.equal(isOpen(marked[2]!), false, 'a stale step is not open: nothing re-makes it before the person decides');
    assert.equal(isFinished(marked[2]!), false, 'nor finished: nothing downstream runs on it');
  });

  test('re-make opens a new round and names the earlier results; keep makes them count again', () => {
    const items = markStale([item('shot-2', 'DONE', [], ['job:2'])], [{ id: 'shot-2', because: 'Character sheet' }]);
    const remade = settleStale(items, ['shot-2'], true, 'Character sheet')[0]!;
    assert.deepEqual([remade.status, remade.round, remade.artifacts], ['TODO', 1, []]);
    assert.match(remade.evidence!, /job:2/, 'the earlier result stays named');
    const kept = settleStale(items, ['shot-2'], false, 'Character sheet')[0]!;
    assert.deepEqual([kept.status, kept.round, kept.artifacts], ['DONE', 0, ['job:2']]);
    assert.deepEqual(settleStale(kept ? [kept] : [], ['shot-2'], true, 'x'), [kept], 'a step no longer STALE is left alone');
  });

  test('the offline video plan is a graph: storyboard → character sheet + setting → shots → final cut', () => {
    const plan = classify('a four-shot film about a lighthouse keeper')!;
    const items = localizedPlan(plan.items, textsFor('en'));
    const by = new Map(items.map((i) => [i.id, i]));
    assert.deepEqual(by.get('shot-1')!.after, ['setting'], 'the opening shot shows the setting only');
    assert.deepEqual(by.get('shot-2')!.after, ['character-sheet', 'setting']);
    assert.deepEqual(by.get('shot-4')!.after, ['setting'], 'so does the closing one');
    assert.deepEqual(by.get('final-cut')!.after, ['shot-1', 'shot-2', 'shot-3', 'shot-4']);
    const check = validateGraph(items.map((i) => ({ id: i.id, title: i.title, kind: i.kind, status: 'TODO' as const, estimateCents: 0, count: 1, after: i.after ?? [] })));
    assert.ok(check.ok);
    // A change of the character re-makes the shots it appears in, and nothing else.
    const done = items.map((i) => ({ id: i.id, title: i.title, kind: i.kind, status: 'DONE' as const, estimateCents: 1, count: 1, after: i.after ?? [] }));
    assert.deepEqual(impactOf(done, ['character-sheet']).stale.map((s) => s.id).sort(), ['final-cut', 'shot-2', 'shot-3']);
    // In German the titles change, the ids and edges do not.
    const de = localizedPlan(plan.items, textsFor('de'));
    assert.equal(de.find((i) => i.id === 'character-sheet')!.title, 'Figurenblatt');
    assert.deepEqual(de.map((i) => i.after), items.map((i) => i.after));
  });
});
