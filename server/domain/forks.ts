// Forking a task from a step ("try a different direction from here"), pure. A fork is a new task
// that goes on from step N of another task's plan with a changed instruction (and, at a pick among
// candidates, perhaps another pick). Its history up to that step is the original's, shared by
// reference: the fork's log starts right after the original's seq `forkedAtSeq`, and what the
// steps before N made stays the original's objects. Nothing is written to the original.
//
// The rules here: where in the original's log the fork point is, what the fork's checklist is,
// and how the fork is described to the worker (the "[forked from]" block of every request).
import type { ChecklistItem } from './checklist.ts';

/** A pick among candidates, as the fork knows it (the option the person chose and its object). */
export type ForkPick = { stepId: string; stepTitle: string; optionId: string; label: string; objectId: string | null };

/** What a fork knows of where it came from; frozen when it is created (tasks.inherited.fork). */
export type ForkRecord = {
  /** The task forked from. */
  taskId: string;
  title: string;
  goal: string;
  /** The step (1-based position in the original's checklist) the fork goes on from. */
  atStep: number;
  stepId: string;
  stepTitle: string;
  /** The last seq of the original's log the fork shares. */
  seq: number;
  /** The changed instruction: a different direction, a revised brief. */
  edit: string;
  /** A different pick at step `atStep` (a pick among candidates), or null. */
  choice: (ForkPick & { instead: string | null }) | null;
  /** The picks made before the fork point, as the original made them (the fork keeps them). */
  picks: ForkPick[];
};

export const isFinishedStatus = (s: string) => s === 'DONE' || s === 'SKIPPED';

/** Why a step cannot be forked from (null: it can); `steps` is the original's current checklist. */
export function forkRefusal(items: readonly ChecklistItem[], atStep: number): { code: 'OUT_OF_RANGE' } | { code: 'NOT_REACHED'; open: ChecklistItem[] } | null {
  if (!Number.isInteger(atStep) || atStep < 1 || atStep > items.length) return { code: 'OUT_OF_RANGE' };
  // The fork keeps the results of every step before the fork point: they must all be there.
  const open = items.slice(0, atStep - 1).filter((i) => !isFinishedStatus(i.status));
  return open.length ? { code: 'NOT_REACHED', open } : null;
}

/** The original's log as the fork point is found in it: checklist versions and where work started. */
export type ForkLogEntry = { seq: number; type: string; items?: readonly Pick<ChecklistItem, 'id' | 'status' | 'artifacts'>[] };

const settledKey = (i: Pick<ChecklistItem, 'id' | 'status' | 'artifacts'>) => `${i.id}\u0000${i.status}\u0000${i.artifacts.join(',')}`;

/**
 * The seq the fork shares the original's log up to. The steps before the fork point reached the
 * state they have now at some checklist update (the first one after which they never changed
 * again); the fork point is just before the original's next turn or model decision after it — the
 * moment it started on step `atStep` (or on anything after it). When it has not gone on since, it is
 * the original's last seq. So the shared prefix holds everything that made the earlier steps'
 * results (their orders, callbacks, cards and answers) and nothing of the work from step `atStep`.
 * Returns null when the log never had those steps in their current state (not reached).
 */
export function forkPointSeq(current: readonly ChecklistItem[], atStep: number, log: readonly ForkLogEntry[], lastSeq: number): number | null {
  const kept = current.slice(0, atStep - 1);
  const want = new Map(kept.map((i) => [i.id, settledKey(i)]));
  const matches = (e: ForkLogEntry) => kept.every((k) => {
    const i = e.items?.find((x) => x.id === k.id);
    return !!i && settledKey(i) === want.get(k.id);
  });
  const updates = log.filter((e) => e.type === 'CHECKLIST_UPDATED');
  let settled: ForkLogEntry | null = null;
  for (const u of updates) {
    if (!matches(u)) settled = null;
    else settled ??= u;
  }
  if (!settled) return null;
  const start = log.find((e) => e.seq > settled.seq && (e.type === 'TURN_STARTED' || e.type === 'STEP_DECIDED'));
  return start ? start.seq - 1 : lastSeq;
}

/** How re-opened and picked steps are worded in the task's language (domain/replies). */
export type ForkWords = { stepReopened(reason: string): string; personChose(label: string | null, note: string | null): string };

/**
 * The fork's first checklist: the steps before the fork point exactly as the original has them
 * (finished, with the original's results — the same objects), every step from `atStep` on open
 * again with the edit as its reason. A pick forked with a choice is settled by that choice: the
 * step is done with the chosen candidate as its result, and the steps after it are open.
 */
export function forkChecklist(current: readonly ChecklistItem[], atStep: number, edit: string, choice: ForkPick | null, words: ForkWords): ChecklistItem[] {
  return current.map((i, k) => {
    if (k < atStep - 1) return i;
    if (k === atStep - 1 && choice) {
      return { ...i, status: 'DONE', artifacts: choice.objectId ? [`object:${choice.objectId}`] : [], evidence: words.personChose(choice.label, null).slice(0, 2000), ordered: 0 };
    }
    return { ...i, status: 'TODO', artifacts: [], ordered: 0, evidence: words.stepReopened(edit).slice(0, 2000) };
  });
}

const clip = (s: string, n: number) => {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > n ? `${one.slice(0, n - 1)}…` : one;
};

/**
 * The "[forked from]" block of a fork's requests. Stable (no timestamps), so it sits in the
 * cacheable prefix after the brief; the offline model parses its "Direction" and "Pick" lines
 * (models/offline/forks.ts).
 */
export function renderForkedFrom(fork: ForkRecord | null | undefined): string | null {
  if (!fork) return null;
  const kept =
    fork.atStep > 1
      ? `Steps 1–${fork.atStep - 1} are that task's work, finished, with their results (the checklist shows them): use them, do not make them again. `
      : 'None of its steps is kept: ';
  const lines = [
    `[forked from] This task is a fork of task ${fork.taskId} (“${clip(fork.title, 200)}”, asked: “${clip(fork.goal, 600)}”): it takes a different direction from its step ${fork.atStep} “${clip(fork.stepTitle, 200)}”. ` +
      `${kept}Step ${fork.atStep} and the steps after it are open again and follow the direction below.`,
    `Direction from step ${fork.atStep}: “${clip(fork.edit, 2000)}”`,
  ];
  for (const p of fork.picks) lines.push(`Pick at step “${clip(p.stepTitle, 200)}” (id ${p.stepId}): “${clip(p.label, 200)}”${p.objectId ? ` (object:${p.objectId})` : ''}`);
  if (fork.choice) {
    const c = fork.choice;
    lines.push(`Pick at step “${clip(c.stepTitle, 200)}” (id ${c.stepId}): “${clip(c.label, 200)}”${c.objectId ? ` (object:${c.objectId})` : ''}${c.instead ? ` — instead of “${clip(c.instead, 200)}”` : ''}`);
  }
  return lines.join('\n');
}

/**
 * The stored key (tasks.idempotency_key) of a fork made with a client's idempotency key: per person,
 * and in a namespace of its own, so it never meets a createTask key or a key the server writes.
 */
export const forkKey = (userId: string, key: string) => `fork:${userId}:${key}`;

/**
 * A fork's title: the original's with the direction it takes ("Jazz posters — cooler, more blue"),
 * so the two lines read apart in the task list and the router's index. At most 200 characters.
 */
export function forkTitle(originalTitle: string, edit: string): string {
  const direction = edit.replace(/\s+/g, ' ').trim();
  const full = `${originalTitle} — ${direction}`;
  return full.length <= 200 ? full : `${full.slice(0, 199).trimEnd()}…`;
}
