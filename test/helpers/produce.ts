import type { EventType } from '../../server/domain/event-catalog.ts';
import { transactWithEvents } from '../../server/channel/unit-of-work.ts';
import type { Deps } from '../../server/services/deps.ts';
import { waitFor } from './wait.ts';

/** Appends `count` events, one transaction each, round-robin over the tasks, yielding between. */
export async function produce(
  deps: Deps,
  taskIds: string[],
  count: number,
  opts: { type?: EventType; payload?: (i: number) => unknown; signal?: { stop: boolean } } = {},
): Promise<number> {
  let n = 0;
  for (let i = 0; i < count; i++) {
    if (opts.signal?.stop) break;
    const taskId = taskIds[i % taskIds.length]!;
    await transactWithEvents(deps, async (_tx, emit) => {
      emit(taskId, { type: opts.type ?? 'NOTE', actor: { kind: 'AGENT' }, payload: opts.payload?.(i) ?? { i } });
    });
    n++;
    if (i % 5 === 0) await new Promise((r) => setImmediate(r));
  }
  return n;
}

/**
 * Waits until `check` holds (for state outside any stream, e.g. counters): `waitFor` from wait.ts,
 * the one polling helper, under the name most tests know it by.
 */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  await waitFor(check, what, { timeoutMs });
}

export const decodeCursor = (c: string) => {
  const [, ws, pos] = Buffer.from(c, 'base64url').toString('utf8').split(':');
  return { workspaceId: ws!, position: Number(pos) };
};

export const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i);
