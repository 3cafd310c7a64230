// The one way tests wait: on a condition, polled until it holds or a bound passes. A fixed sleep
// either wastes time on a fast machine or fails on a loaded one (and can hide a slow product behind
// a generous number); a condition wait ends as soon as the state is there, and when it never comes
// it fails naming what was awaited and the last thing the check saw.

export type WaitOptions = {
  /** How long the condition may take; a bound for a loaded machine, not an expected latency. */
  timeoutMs?: number;
  /** Pause between checks. */
  intervalMs?: number;
};

type Truthy<T> = Exclude<T, false | null | undefined | 0 | ''>;

/**
 * Calls `check` until it returns a truthy value, and returns that value. A check that throws counts
 * as "not yet" (a service restarting, a row not written yet); if the bound passes, the error names
 * `what` and carries the last exception as its cause.
 */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, opts: WaitOptions = {}): Promise<Truthy<T>> {
  const timeoutMs = opts.timeoutMs ?? 10_000;
  const intervalMs = opts.intervalMs ?? 20;
  const deadline = Date.now() + timeoutMs;
  let lastError: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value) return value as Truthy<T>;
      lastError = undefined;
    } catch (e) {
      lastError = e;
    }
    if (Date.now() > deadline) {
      const detail = lastError ? ` (last check threw: ${(lastError as Error)?.message ?? String(lastError)})` : '';
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${detail}`, lastError ? { cause: lastError } : undefined);
    }
    await pause(intervalMs);
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
