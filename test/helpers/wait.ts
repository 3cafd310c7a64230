// The one way tests wait: on a condition, polled until it holds or a bound passes. A fixed sleep
// either wastes time on a fast machine or fails on a loaded one (and can hide a slow product behind
// a generous number); a condition wait ends as soon as the state is there, and when it never comes
// it fails naming what was awaited.

export type WaitOptions = {
  /** How long the condition may take; a bound for a loaded machine, not an expected latency. */
  timeoutMs?: number;
  /** Pause between checks. */
  intervalMs?: number;
};

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/**
 * Calls `check` until it returns a truthy value, and returns that value; past the bound, fails
 * naming `what`. A check that throws ends the wait with its error at once: an error is an answer
 * (a broken invariant, a failed request), not "not yet" — a check that expects transient failures
 * (a service restarting) catches them itself and returns false.
 */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, opts: WaitOptions = {}): Promise<Truthy<T>> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const intervalMs = opts.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value as Truthy<T>;
    if (Date.now() > deadline) throw new WaitTimeout(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await pause(intervalMs);
  }
}

/** A condition that did not come within its bound (told apart from a check that failed). */
export class WaitTimeout extends Error {
  override name = 'WaitTimeout';
}

/**
 * `waitFor` for benchmarks and drivers, which report a condition that never came as a finding
 * (an open job, a missing event) rather than stopping: whether it came within the bound.
 */
export async function reached(check: () => unknown | Promise<unknown>, opts: WaitOptions = {}): Promise<boolean> {
  try {
    await waitFor(check, 'a condition', opts);
    return true;
  } catch (e) {
    if (e instanceof WaitTimeout) return false;
    throw e;
  }
}

/**
 * Checks that `check` stays truthy for the whole of `forMs` (polled every `intervalMs`): for
 * invariants over a window of time, e.g. "a cancelled job stays cancelled past the moment it would
 * have finished". The window itself is what is tested, so it is a duration, not a wait.
 */
export async function holdsFor(check: () => unknown | Promise<unknown>, what: string, forMs: number, intervalMs = 50): Promise<void> {
  const end = Date.now() + forMs;
  for (;;) {
    if (!(await check())) throw new Error(`${what} stopped holding ${forMs - Math.max(0, end - Date.now())} ms into a ${forMs} ms window`);
    if (Date.now() >= end) return;
    await pause(Math.min(intervalMs, Math.max(1, end - Date.now())));
  }
}

/**
 * A plain delay. Only for a delay that is itself part of what a test does (a slow tool, a gap
 * before a kill, pacing of a load generator) — never to let something "probably" happen: wait for
 * it with `waitFor`. Every caller says why in a comment.
 */
export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
