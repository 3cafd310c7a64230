// What the job lifecycle needs, passed in: the database and event channel, the provider, a logger, and
// what to do when a job ends (the runtime wakes or completes the task: runtime/wake.ts).
import type { Emit, UowDeps } from '../channel/unit-of-work.ts';
import type { Tx } from '../db/client.ts';
import type { Logger } from '../log.ts';
import type { JobStatus } from './status.ts';
import type { GenerationProvider } from './types.ts';

/**
 * What happens when a job reaches a final state, inside the transaction that records it (the job row
 * and the task row are locked, in that order).
 */
export type OnJobEnd = (
  tx: Tx,
  emit: Emit,
  job: { id: string; taskId: string; kind: string; status: JobStatus; params: unknown; files: unknown; error: string | null },
) => Promise<void>;

export type JobDeps = UowDeps & { provider: GenerationProvider; log: Logger; onJobEnd?: OnJobEnd };
