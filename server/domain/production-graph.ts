// The production graph: a task's plan as a directed acyclic graph of steps (brief → storyboard →
// character and scene → shots → assembly → delivery), not a list. Pure rules only — what may run
// now, what a change makes stale, what it would cost to re-make — over the checklist's items plus
// their edges (`after`: the ids of the steps whose results a step uses). The checklist stays the
// person's view of the same nodes.
//
// Invariants the functions keep:
//  - a graph with an edge to an unknown step, a step after itself, or a cycle is refused with the
//    path in words, before anything runs (validateGraph);
//  - a step is ready only when every step it comes after is finished (DONE or SKIPPED), so a step
//    never starts before its inputs; independent ready steps may run side by side (readySteps);
//  - a change marks exactly the steps downstream of what changed — transitively, each with the
//    step it depends on that changed — and nothing on other branches (impactOf).

/** A step's state (the checklist's statuses; checklist.ts builds on this module, not the reverse). */
export type StepStatus = 'TODO' | 'IN_PROGRESS' | 'DONE' | 'SKIPPED' | 'BLOCKED' | 'STALE';

/** A step of the graph: a checklist item's fields the rules read, and the steps whose results it uses. */
export type GraphStep = { id: string; title: string; kind: string; status: StepStatus; estimateCents: number; count: number; after: readonly string[] };

export type GraphCheck = { ok: true; order: string[] } | { ok: false; reason: string; cycle?: string[] };

const finished = (s: Pick<GraphStep, 'status'>) => s.status === 'DONE' || s.status === 'SKIPPED';

/**
 * Checks the edges and returns an order in which every step comes after its inputs (Kahn's
 * algorithm, ties in plan order so the order is stable), or why the graph is refused.
 */
export function validateGraph(steps: readonly GraphStep[]): GraphCheck {
  const byId = new Map<string, GraphStep>();
  for (const s of steps) {
    if (byId.has(s.id)) return { ok: false, reason: `two steps are named "${s.id}"` };
    byId.set(s.id, s);
  }
  for (const s of steps) {
    for (const a of s.after) {
      if (a === s.id) return { ok: false, reason: `"${s.title}" cannot come after itself`, cycle: [s.id, s.id] };
      if (!byId.has(a)) return { ok: false, reason: `"${s.title}" comes after a step that is not in the plan ("${a}")` };
    }
  }
  const indegree = new Map(steps.map((s) => [s.id, new Set(s.after).size]));
  const dependents = new Map<string, string[]>(steps.map((s) => [s.id, []]));
  for (const s of steps) for (const a of new Set(s.after)) dependents.get(a)!.push(s.id);
  const position = new Map(steps.map((s, i) => [s.id, i]));
  const ready = steps.filter((s) => indegree.get(s.id) === 0).map((s) => s.id);
  const order: string[] = [];
  while (ready.length) {
    ready.sort((x, y) => position.get(x)! - position.get(y)!);
    const id = ready.shift()!;
    order.push(id);
    for (const d of dependents.get(id)!) {
      const n = indegree.get(d)! - 1;
      indegree.set(d, n);
      if (n === 0) ready.push(d);
    }
  }
  if (order.length === steps.length) return { ok: true, order };
  const cycle = findCycle(steps.filter((s) => indegree.get(s.id)! > 0), byId);
  const words = cycle.map((id) => `"${byId.get(id)!.title}"`).join(' → ');
  return { ok: false, reason: `the plan goes in a circle: ${words}; a step cannot wait for its own result`, cycle };
}

/** One cycle among the steps left over by the topological sort (each of them has an input among them). */
function findCycle(left: readonly GraphStep[], byId: ReadonlyMap<string, GraphStep>): string[] {
  const inLeft = new Set(left.map((s) => s.id));
  const seen = new Map<string, number>();
  const path: string[] = [];
  let id = left[0]!.id;
  // Walk backwards along inputs that are still left: in a finite set this must revisit a step.
  while (!seen.has(id)) {
    seen.set(id, path.length);
    path.push(id);
    id = byId.get(id)!.after.find((a) => inLeft.has(a))!;
  }
  // path[seen(id)..] walks inputs backwards; reversed it reads in the direction work flows.
  return [...path.slice(seen.get(id)!), id].reverse();
}

/**
 * The steps that may start now: open (TODO), not waiting for a person, with every input finished.
 * In plan order; the caller runs as many side by side as the workspace's concurrency and budget allow.
 */
export function readySteps(steps: readonly GraphStep[]): GraphStep[] {
  const byId = new Map(steps.map((s) => [s.id, s]));
  return steps.filter((s) => s.status === 'TODO' && s.after.every((a) => {
    const up = byId.get(a);
    return up !== undefined && finished(up);
  }));
}

/** Every step downstream of `changed` (not including them), each with the changed step it depends on through the first path found. */
export function downstreamOf(steps: readonly GraphStep[], changed: readonly string[]): Map<string, string> {
  const dependents = new Map<string, string[]>(steps.map((s) => [s.id, []]));
  for (const s of steps) for (const a of new Set(s.after)) dependents.get(a)?.push(s.id);
  const because = new Map<string, string>();
  const queue = changed.map((id) => [id, id] as const);
  const roots = new Set(changed);
  while (queue.length) {
    const [id, root] = queue.shift()!;
    for (const d of dependents.get(id) ?? []) {
      if (because.has(d) || roots.has(d)) continue;
      because.set(d, root);
      queue.push([d, root]);
    }
  }
  return because;
}

export type Impact = {
  /** Steps whose results were made from what changed: re-made if the person agrees. */
  stale: { id: string; title: string; because: string; estimateCents: number }[];
  /** Downstream steps not started yet: they will simply use the new input. */
  waiting: string[];
  /** Finished steps on other branches: their results stay valid. */
  stillValid: string[];
  /** What re-making the stale steps would cost, before anything is spent. */
  costCents: number;
};

/**
 * What a change to `changed` (a person edited the character; a revision changed the scene) does to
 * the rest of the plan, computed from the graph alone. The changed steps themselves are re-made by
 * the change; the model may narrow `stale` later (some changes do not matter to some shots).
 */
export function impactOf(steps: readonly GraphStep[], changed: readonly string[]): Impact {
  const byId = new Map(steps.map((s) => [s.id, s]));
  const down = downstreamOf(steps, changed);
  const stale: Impact['stale'] = [];
  const waiting: string[] = [];
  for (const s of steps) {
    const root = down.get(s.id);
    if (root === undefined) continue;
    if (s.status === 'DONE' || s.status === 'IN_PROGRESS' || s.status === 'STALE') {
      stale.push({ id: s.id, title: s.title, because: byId.get(root)!.title, estimateCents: s.estimateCents });
    } else if (s.status === 'TODO' || s.status === 'BLOCKED') waiting.push(s.id);
  }
  const affected = new Set([...changed, ...down.keys()]);
  const stillValid = steps.filter((s) => s.status === 'DONE' && !affected.has(s.id)).map((s) => s.id);
  return { stale, waiting, stillValid, costCents: stale.reduce((sum, s) => sum + s.estimateCents, 0) };
}

/** The inputs of step `id` that are not finished yet (none: it may start). Unknown ids count as not finished. */
export function unfinishedInputs<T extends Pick<GraphStep, 'id' | 'title' | 'status'> & { after?: readonly string[] | undefined }>(steps: readonly T[], id: string): T[] {
  const step = steps.find((s) => s.id === id);
  if (!step) return [];
  const byId = new Map(steps.map((s) => [s.id, s]));
  return (step.after ?? []).map((a) => byId.get(a) ?? ({ id: a, title: a, status: 'TODO' } as T)).filter((s) => !finished(s));
}
