// A tool the worker can call. The registry validates input and output with the zod schemas; the
// runtime decides from `safety` what happens to a call found STARTED after a crash.
import type { z } from 'zod';
import type { UowDeps } from '../../channel/unit-of-work.ts';

export type ToolSafety =
  /** No effects: safe to run again. */
  | 'READ_ONLY'
  /** Effects are deduplicated by the idempotency key: replayed with the same key. */
  | 'IDEMPOTENT'
  /** Must not run twice: a STARTED call after a crash becomes OUTCOME_UNKNOWN and goes back to the model. */
  | 'AT_MOST_ONCE';

export type ToolContext = {
  /** Stable across retries and takeovers: `turn:step:call`. */
  idempotencyKey: string;
  taskId: string;
  workspaceId: string;
  turnId: string;
  /** The worker process running the call (recorded on what it orders). */
  workerId?: string;
  /** The turn's generation (a takeover's is higher than the placer's). */
  generation?: number;
  /** Database and event access for tools whose effects live in Atelier itself. */
  uow: UowDeps;
  /** Aborts when the worker loses its lease or the task stops. */
  signal: AbortSignal;
};

export type ToolDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> = {
  name: string;
  /** Domain for context engineering (core tools are always visible). */
  domain: 'core' | 'image' | 'video' | 'audio' | '3d' | 'documents' | 'flows' | 'memory' | string;
  description: string;
  input: I;
  output: O;
  safety: ToolSafety;
  /** Rough cost in US cents per call, for budgeting. */
  costEstimateCents?: number;
  retry?: { attempts: number; backoffMs: number };
  /** After this tool succeeds, the turn ends without another model call (e.g. complete_task). */
  endsTurn?: boolean;
  /**
   * For tools that start slow external work (generation jobs): given the call's result, whether the
   * turn should suspend — end without a model call, task WAITING, no worker held — until the work
   * completes and wakes the task.
   */
  suspends?: (result: unknown) => boolean;
  run(input: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
  /** For AT_MOST_ONCE tools: find out whether a call with this key took effect. */
  verify?(input: z.output<I>, ctx: ToolContext): Promise<{ happened: boolean | 'unknown'; detail?: unknown }>;
};

/** Declares a tool with its input/output types inferred from the schemas. */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(def: ToolDef<I, O>): ToolDef {
  return def as unknown as ToolDef;
}
