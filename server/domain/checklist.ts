// The execution checklist: structured, versioned task state (never model prose). Pure functions
// only; the store is services/checklist/write-checklist.ts. The runtime reads it to decide whether
// a task goes on (continuation.ts), links generation results to it (wake.ts), and puts it in the
// worker's context every step.
import { z } from 'zod';
import { badInput } from '../errors.ts';
import { validateGraph } from './production-graph.ts';

// STALE: the step's results were made from an input that has changed since (a person edited the
// character): neither open nor finished, so nothing downstream runs on them and nothing re-makes
// them until a person decides on the impact card (markStale / settleStale).
export const ITEM_STATUSES = ['TODO', 'IN_PROGRESS', 'DONE', 'SKIPPED', 'BLOCKED', 'STALE'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];
/** What an agent or a person may set directly: STALE is only ever the result of a change (markStale). */
export const SETTABLE_STATUSES = ['TODO', 'IN_PROGRESS', 'DONE', 'SKIPPED', 'BLOCKED'] as const;

export const ChecklistItemSchema = z.object({
  id: z.string().min(1).max(40),
  title: z.string().trim().min(1).max(300),
  /** What the step produces: a generation kind, DOCUMENT, CHECKPOINT (a person decides) or OTHER. */
  kind: z.string().min(1).max(40).default('OTHER'),
  /** How many results the step needs (e.g. 3 candidates). */
  count: z.number().int().min(1).max(50).default(1),
  status: z.enum(ITEM_STATUSES).default('TODO'),
  /** Results linked to the step: `job:<id>` or `object:<id>`. */
  artifacts: z.array(z.string().max(100)).max(200).default([]),
  /** Why the step counts as done (or skipped / blocked). */
  evidence: z.string().max(2000).nullable().default(null),
  needsApproval: z.boolean().default(false),
  estimateCents: z.number().int().min(0).default(0),
  /** Bumped when the step is re-opened: results of jobs ordered in an earlier round are not linked. */
  round: z.number().int().min(0).default(0),
  /** Results ordered for this step in this round and not failed (so nothing is ordered twice). */
  ordered: z.number().int().min(0).default(0),
  /** The steps whose results this one uses (ids in this checklist): the plan is a graph, not a list. */
  after: z.array(z.string().min(1).max(40)).max(30).optional(),
});
export type ChecklistItem = z.output<typeof ChecklistItemSchema>;
export type Checklist = { version: number; items: ChecklistItem[] };

export const isOpen = (i: ChecklistItem) => i.status === 'TODO' || i.status === 'IN_PROGRESS';
export const isFinished = (i: ChecklistItem) => i.status === 'DONE' || i.status === 'SKIPPED';
export const openItems = (items: readonly ChecklistItem[]) => items.filter(isOpen);
export const allFinished = (items: readonly ChecklistItem[]) => items.length > 0 && items.every(isFinished);

/** A slug id from a title, unique within `taken`. */
export function itemId(title: string, taken: ReadonlySet<string>): string {
  const base = title.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 30) || 'step';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

export type PlannedItem = {
  id?: string;
  title: string;
  kind?: string;
  count?: number;
  needsApproval?: boolean;
  reopen?: boolean;
  /** The steps whose results this one uses, by their id or title in this plan (kept when omitted). */
  after?: string[];
};

/**
 * A new plan over an existing checklist: items keep their status, artifacts and evidence when their
 * id (or, failing that, their exact title) matches; new items start TODO. Items the new plan drops
 * are kept as SKIPPED (with the reason) when they have artifacts — results are never unlinked
 * silently — and removed otherwise.
 */
/** How the evidence of a re-opened or dropped step is worded (the task's language). */
export type PlanWords = { stepReopened(reason: string): string; stepDropped(reason: string): string; earlierResults(list: string): string };
const ENGLISH: PlanWords = { stepReopened: (r) => `re-opened: ${r}`, stepDropped: (r) => `dropped from the plan: ${r}`, earlierResults: (l) => `earlier results: ${l}` };

export function mergePlan(
  current: readonly ChecklistItem[],
  planned: readonly PlannedItem[],
  price: (kind: string) => number,
  reason: string,
  words: PlanWords = ENGLISH,
): ChecklistItem[] {
  const byId = new Map(current.map((i) => [i.id, i]));
  const byTitle = new Map(current.map((i) => [i.title.toLowerCase(), i]));
  const taken = new Set<string>();
  const used = new Set<string>();
  const out: ChecklistItem[] = [];
  for (const p of planned) {
    const prev = (p.id && byId.get(p.id)) || byTitle.get(p.title.toLowerCase());
    const id = prev && !used.has(prev.id) ? prev.id : itemId(p.id ?? p.title, new Set([...taken, ...byId.keys()]));
    const kind = (p.kind ?? prev?.kind ?? 'OTHER').toUpperCase();
    const count = p.count ?? prev?.count ?? 1;
    taken.add(id);
    if (prev) used.add(prev.id);
    out.push(
      ChecklistItemSchema.parse({
        ...(prev && prev.id === id ? prev : {}),
        id,
        title: p.title,
        kind,
        count,
        needsApproval: p.needsApproval ?? prev?.needsApproval ?? kind === 'CHECKPOINT',
        estimateCents: price(kind) * count,
      }),
    );
  }
  // Re-opened steps (a change of direction) start over; their earlier results stay in the evidence.
  for (let k = 0; k < out.length; k++) {
    const p = planned[k];
    if (p?.reopen) {
      const base = out[k]!;
      out[k] = { ...patchItem([base], base.id, { status: 'TODO', evidence: words.stepReopened(reason) }, words)[0]!, round: base.round + 1, ordered: 0 };
    }
  }
  // Edges name steps of this plan by the id or title the plan gave them: resolved to the final ids.
  const ref = new Map<string, string>();
  for (let k = 0; k < out.length; k++) {
    const p = planned[k]!;
    ref.set(out[k]!.id, out[k]!.id);
    if (p.id) ref.set(p.id, out[k]!.id);
    ref.set(p.title.toLowerCase(), out[k]!.id);
  }
  for (let k = 0; k < out.length; k++) {
    const p = planned[k]!;
    const prev = (p.id && byId.get(p.id)) || byTitle.get(p.title.toLowerCase());
    const wanted = p.after ?? prev?.after ?? [];
    // Set only when there are edges: a list plan's items stay exactly as they were.
    const { after: _old, ...item } = out[k]!;
    out[k] = wanted.length ? { ...item, after: [...new Set(wanted.map((a) => ref.get(a) ?? ref.get(a.toLowerCase()) ?? a))] } : item;
  }
  for (const old of current) {
    if (used.has(old.id) || taken.has(old.id)) continue;
    // A dropped step keeps no edges: nothing in the new plan waits for it.
    if (old.artifacts.length) {
      const { after: _edges, ...kept } = old;
      out.push({ ...kept, status: 'SKIPPED', evidence: words.stepDropped(reason).slice(0, 2000) });
    }
  }
  const check = validateGraph(out.map((i) => ({ ...i, after: i.after ?? [] })));
  if (!check.ok) throw badInput(`The plan cannot run: ${check.reason}.`, { argument: 'items' });
  return out;
}

export type ItemPatch = { status?: ItemStatus; evidence?: string | null; artifacts?: string[]; title?: string };

/** Applies a patch to one item; a change of direction may re-open a finished step. */
export function patchItem(items: readonly ChecklistItem[], id: string, patch: ItemPatch, words: Pick<PlanWords, 'earlierResults'> = ENGLISH): ChecklistItem[] {
  if (!items.some((i) => i.id === id)) throw new Error(`no checklist item "${id}"`);
  return items.map((i) => {
    if (i.id !== id) return i;
    // Re-opening a step that has results (a change of direction): new results link to it from
    // scratch; the earlier ones stay named in the evidence, never silently dropped.
    const reopen = patch.status === 'TODO' && i.artifacts.length > 0 && !patch.artifacts;
    const restart = patch.status === 'TODO' && i.status !== 'TODO';
    return {
      ...i,
      ...(restart || reopen ? { round: i.round + 1, ordered: 0 } : {}),
      ...(patch.title ? { title: patch.title } : {}),
      ...(patch.status ? { status: patch.status } : {}),
      ...(patch.evidence !== undefined ? { evidence: patch.evidence } : {}),
      ...(patch.artifacts ? { artifacts: [...new Set([...i.artifacts, ...patch.artifacts])] } : {}),
      ...(reopen ? { artifacts: [], evidence: `${patch.evidence ? `${patch.evidence}; ` : ''}${words.earlierResults(i.artifacts.join(', '))}`.slice(0, 2000) } : {}),
    };
  });
}

/**
 * Links a result to an item; the item is DONE once it has as many results as it needs. Returns the
 * items unchanged when the artifact is already linked (duplicate callbacks change nothing).
 */
export function linkArtifact(items: readonly ChecklistItem[], id: string, artifact: string, evidence: string, round = 0): ChecklistItem[] {
  const item = items.find((i) => i.id === id);
  // A result ordered before the step was re-opened belongs to the old direction: not linked.
  if (!item || item.artifacts.includes(artifact) || round < item.round) return [...items];
  const artifacts = [...item.artifacts, artifact];
  const done = artifacts.length >= item.count;
  return items.map((i) =>
    i.id !== id ? i : { ...i, artifacts, status: done ? 'DONE' : 'IN_PROGRESS', evidence: done ? evidence : i.evidence },
  );
}

export const estimateCents = (items: readonly ChecklistItem[]) => items.reduce((n, i) => n + (i.status === 'SKIPPED' ? 0 : i.estimateCents), 0);

/** Paid result slots (generation items × count): scope grows when these or the estimate grow. */
export const paidSlots = (items: readonly ChecklistItem[]) => items.reduce((n, i) => n + (i.status !== 'SKIPPED' && i.estimateCents > 0 ? i.count : 0), 0);

/** What the open steps still cost: price × results still missing. */
export const remainingCents = (items: readonly ChecklistItem[]) =>
  items.reduce((n, i) => n + (isOpen(i) && i.estimateCents > 0 ? Math.round((i.estimateCents / i.count) * Math.max(0, i.count - i.artifacts.length)) : 0), 0);

/**
 * Whether a plan needs a person's approval (again). The first plan of a persistent task does when
 * it has more than one paid result (a lone image is just done); a later plan does when it has more
 * paid results than the approved one, or when what is spent plus what the open steps still cost
 * exceeds the approved budget (e.g. a change of direction re-opens finished shots).
 */
export function scopeGrew(
  approved: readonly ChecklistItem[] | null,
  next: readonly ChecklistItem[],
  approvedBudgetCents: number | null,
  committedCents: number,
): string | null {
  const need = committedCents + remainingCents(next);
  if (!approved) return paidSlots(next) > 1 ? 'the first plan of the task' : null;
  const a = paidSlots(approved);
  const b = paidSlots(next);
  if (b > a) return `the plan grew from ${a} to ${b} paid results`;
  if (approvedBudgetCents !== null && need > approvedBudgetCents) {
    return `spent ${committedCents} cents and the open steps need ${need - committedCents} more, above the approved ${approvedBudgetCents}`;
  }
  return null;
}

/** A fingerprint of meaningful progress: finished steps and linked results. */
export function progressOf(items: readonly ChecklistItem[]): { done: number; artifacts: number } {
  return { done: items.filter((i) => i.status === 'DONE').length, artifacts: items.reduce((n, i) => n + i.artifacts.length, 0) };
}

/** A result was ordered for a step (or an order failed: delta -1), in the given round. */
/** A step with an order in its current round is in progress (its order count is derived from jobs). */
export function startStep(items: readonly ChecklistItem[], id: string, round: number): ChecklistItem[] {
  return items.map((i) => (i.id === id && i.round === round && i.status === 'TODO' ? { ...i, status: 'IN_PROGRESS' as const } : i));
}

/** The checklist as the worker sees it: compact, ordered, stable (no timestamps). */
export function renderChecklist(c: Checklist): string {
  const lines = c.items.map(
    (i, n) =>
      `${n + 1}. [${i.status}] ${i.title} (id ${i.id}, ${i.kind}${i.count > 1 ? ` ×${i.count}` : ''}${i.needsApproval ? ', needs the user' : ''}${i.ordered ? `, ordered ${i.ordered}` : ''}${i.after?.length ? `, after ${i.after.join(' ')}` : ''})` +
      (i.artifacts.length ? ` results: ${i.artifacts.join(', ')}` : '') +
      (i.evidence ? ` — ${i.evidence}` : ''),
  );
  return `[checklist v${c.version}]\n${lines.join('\n')}`;
}

export type StaleWords = { staleBecause(input: string): string; staleRemade(input: string): string; staleKept: string };
const STALE_ENGLISH: StaleWords = {
  staleBecause: (input) => `made from an earlier “${input}”, which has changed`,
  staleRemade: (input) => `made again: “${input}” changed`,
  staleKept: 'kept as it was: a person chose to keep it after the change',
};

/**
 * Marks the steps made from what changed as STALE (each with the input that changed), leaving every
 * other step as it is. `stale` comes from the graph (production-graph.ts impactOf) and from what
 * results were recorded as made from (object derivations). Only steps with results or orders are
 * marked: a step not started yet simply uses the new input.
 */
export function markStale(items: readonly ChecklistItem[], stale: readonly { id: string; because: string }[], words: Pick<StaleWords, 'staleBecause'> = STALE_ENGLISH): ChecklistItem[] {
  const why = new Map(stale.map((s) => [s.id, s.because]));
  return items.map((i) =>
    why.has(i.id) && (i.status === 'DONE' || i.status === 'IN_PROGRESS') && (i.artifacts.length > 0 || i.ordered > 0)
      ? { ...i, status: 'STALE' as const, evidence: words.staleBecause(why.get(i.id)!).slice(0, 2000) }
      : i,
  );
}

/**
 * A person's answer on the impact card: re-make (the STALE steps re-open in a new round, their
 * earlier results named in the evidence) or keep (they count as done again, with their results).
 */
export function settleStale(items: readonly ChecklistItem[], ids: readonly string[], remake: boolean, because: string, words: StaleWords & Pick<PlanWords, 'earlierResults'> = { ...STALE_ENGLISH, ...ENGLISH }): ChecklistItem[] {
  let out = [...items];
  for (const id of ids) {
    const item = out.find((i) => i.id === id);
    if (!item || item.status !== 'STALE') continue;
    if (remake) {
      const base = { ...item, status: 'DONE' as const };
      out = patchItem(out.map((i) => (i.id === id ? base : i)), id, { status: 'TODO', evidence: words.staleRemade(because) }, words);
    } else {
      const done = item.artifacts.length >= item.count;
      out = out.map((i) => (i.id === id ? { ...i, status: done ? ('DONE' as const) : ('IN_PROGRESS' as const), evidence: words.staleKept } : i));
    }
  }
  return out;
}
