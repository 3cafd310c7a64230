// A tool the worker can call. The registry validates input and output with the zod schemas; the
// runtime decides from `safety` what happens to a call found STARTED after a crash.
import type { z } from 'zod';
import type { UowDeps } from '../../channel/unit-of-work.ts';
import type { Tx } from '../../db/client.ts';
import type { CallOutcome } from '../../store/journal/steps.ts';
import type { EscalationKind } from '../../domain/agent-policy.ts';
import type { RunCredential, RunPrincipal } from '../run-credentials.ts';

export type ToolSafety =
  /** No effects: safe to run again. */
  | 'READ_ONLY'
  /** Effects are deduplicated by the idempotency key: replayed with the same key. */
  | 'IDEMPOTENT'
  /** Must not run twice: a STARTED call after a crash becomes OUTCOME_UNKNOWN and goes back to the model. */
  | 'AT_MOST_ONCE';

/** What a preflight decided: run the tool, or answer the call without running it. */
export type PreflightResult = { kind: 'proceed' } | { kind: 'answer'; outcome: { status: 'DONE'; result: unknown } | { status: 'FAILED'; error: string } };

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
  /** The agent principal the run acts as (read once when the turn was claimed). */
  principal?: RunPrincipal;
  /**
   * The run's own short-lived credential: a tool that calls out (an MCP server, a remote agent)
   * sends `credential.token`, never a secret of the server. Renewed with the lease.
   */
  credential?: RunCredential;
};

export type ToolDef<I extends z.ZodType = z.ZodType, O extends z.ZodType = z.ZodType> = {
  name: string;
  /** Domain for context engineering (core tools are always visible). */
  domain: 'core' | 'image' | 'video' | 'audio' | '3d' | 'documents' | 'flows' | 'memory' | string;
  /** Several domains (an MCP server's tools take the server's; empty = always visible, like core). Overrides `domain` for visibility. */
  domains?: readonly string[];
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
  /**
   * The input's JSON schema as the model is shown it, when the tool brings one of its own (an MCP
   * server's tool): then `input` validates it (ajv) and this is sent to the model unchanged.
   */
  jsonSchema?: Record<string, unknown>;
  /**
   * Runs before the call is marked STARTED (calls.ts), so a call that must wait for a person is
   * still PENDING — never "maybe happened" — while it waits. Throw AwaitingApproval to suspend the
   * turn (the resumed turn's preflight finds the decision), BudgetExceeded to end the task at its
   * cap, or answer without running the tool (a declined call). Must be idempotent by the call's key.
   */
  preflight?(input: z.output<I>, ctx: ToolContext): Promise<PreflightResult>;
  run(input: z.output<I>, ctx: ToolContext): Promise<z.input<O>>;
  /**
   * For tools that hold money before they run (a priced MCP call): settles the hold — charge or
   * release — in the transaction that records the call's outcome, whatever it is (done, failed,
   * unknown after a crash), so a recorded outcome never leaves money held and a crash can never
   * separate the two. Returns the outcome to record (it may say what was charged). `thrown`: what
   * the tool threw, for a FAILED outcome. Must be idempotent by the call's key.
   */
  settle?(tx: Tx, ended: { outcome: CallOutcome; thrown?: unknown }, ctx: ToolContext): Promise<CallOutcome>;
  /**
   * For a call found STARTED after a crash: true when the tool recorded work it can follow without
   * sending the call again (an MCP server's task whose id was recorded before the wait). Then the
   * call is run again whatever its safety class, and `run` follows that work instead of re-sending.
   */
  resumable?(ctx: ToolContext): Promise<boolean>;
  /**
   * The scope a call needs (domain/agent-policy.ts), for a tool that is not built in (a plugin's);
   * built-in tools take theirs from TOOL_SCOPES, and a tool with neither is never run.
   */
  scope?: string;
  /** For a tool of an MCP server: the server's slug and the tool's own name (its scope is `mcp:<server>:<tool>`). */
  mcp?: { server: string; tool: string };
  /**
   * A person must settle an unknown outcome of this tool (after a crash, AT_MOST_ONCE): true or the
   * card's kind; the runtime raises a card instead of only telling the model (agent-policy.ts).
   */
  needsPerson?: boolean | EscalationKind;
  /** For AT_MOST_ONCE tools: find out whether a call with this key took effect. */
  verify?(input: z.output<I>, ctx: ToolContext): Promise<{ happened: boolean | 'unknown'; detail?: unknown }>;
};

/** Declares a tool with its input/output types inferred from the schemas. */
export function defineTool<I extends z.ZodType, O extends z.ZodType>(def: ToolDef<I, O>): ToolDef {
  return def as unknown as ToolDef;
}
