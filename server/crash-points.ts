// Crash points: a test facility for proving recovery. With ATELIER_CRASH_AT=<name>[@N] (a comma list
// is allowed), the process SIGKILLs itself the first (N-th) time it reaches that point — no cleanup, no
// flushing, exactly like a machine that loses power there. A process started without the variable
// never crashes, so the replacement that takes over runs normally. Unset in production: a no-op.
//
// The named points, in the order a paid generation passes them:
//   order.committed     the job row and its hold are committed; nothing was submitted yet
//   submit.answered     the provider accepted the job; its id is not recorded yet
//   submit.recorded     the upstream id is recorded; the tool call is not marked done yet
//   call.done           the tool call's result is committed; the turn has not suspended yet
//   turn.suspended      the turn ended waiting for the job
//   callback.received   a provider update arrived; nothing was applied yet
//   callback.applied    the update (completion, asset, settlement, wake-up) is committed
// and of a step:
//   step.committed      the model's decision and its pending calls are committed; no call ran
//   call.started        a call is marked started; its tool has not run yet
// and of a call to an MCP server's tool (MCP_CRASH_POINTS; test/mcp-crash.test.ts):
//   mcp.call.answered   an MCP server answered a call; the answer is not recorded yet
//   mcp.task.recorded   an MCP server accepted a call as a task; its task id is recorded, no result yet
export const CRASH_POINTS = [
  'order.committed',
  'submit.answered',
  'submit.recorded',
  'call.done',
  'turn.suspended',
  'callback.received',
  'callback.applied',
  'step.committed',
  'call.started',
] as const;
export const MCP_CRASH_POINTS = ['mcp.call.held', 'mcp.call.answered', 'mcp.task.recorded'] as const;
export type CrashPoint = (typeof CRASH_POINTS)[number] | (typeof MCP_CRASH_POINTS)[number];

// `name` dies the first time the point is reached; `name@N` the N-th time (the third order of a
// fan-out: `order.committed@3`).
const armed = new Map(
  (process.env.ATELIER_CRASH_AT ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((s) => {
      const [name, nth] = s.split('@');
      return [name!, Math.max(1, Number(nth ?? 1) || 1)] as const;
    }),
);
const reached = new Map<string, number>();

/** Dies here if this point is armed in this process (tests only). */
export function crashPoint(name: CrashPoint): void {
  if (!armed.size || !armed.has(name)) return;
  const times = (reached.get(name) ?? 0) + 1;
  reached.set(name, times);
  if (times < armed.get(name)!) return;
  // Say where, so a test can tell the crash happened at the point it armed.
  process.stderr.write(`crash point reached: ${name}\n`);
  process.kill(process.pid, 'SIGKILL');
}
