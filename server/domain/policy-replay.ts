// Testing a changed policy against the past: every recorded tool call of recorded runs is judged
// again by the one policy function (agent-policy.ts `authorize`) under the policy to try, and the
// calls it would now deny or escalate are listed beside what was decided then. Pure: the caller
// reads the recorded runs (the database, or saved replay fixtures) and prints the findings.
//
// Invariants:
//  - The scope a past call needed is the one recorded with its attempt when there is one (the
//    decision's `scope`), so a call is judged by what it asked for then, not by today's tables; a
//    call recorded before attempts carried scopes takes the built-in table, then the MCP rule.
//  - A policy that changes nothing finds nothing: the same ceiling and tables give the recorded
//    decisions back (the test checks it on a recorded run).
import { z } from 'zod';
import { authorize, mcpScope, TOOL_SCOPES, type PolicyDecision } from './agent-policy.ts';

/** A policy to try, as an operator writes it in a JSON file. */
export const PolicyFileSchema = z
  .object({
    /** A sentence saying what the change is, printed with the findings. */
    description: z.string().max(500).optional(),
    /** The ceiling every agent gets under this policy (replaces the recorded one). */
    ceiling: z.array(z.string().min(1).max(200)).max(500).optional(),
    /** Per agent name: its ceiling under this policy (wins over `ceiling`). */
    agents: z.record(z.string().min(1).max(200), z.array(z.string().min(1).max(200)).max(500)).optional(),
    /** Scopes tools need under this policy (tool name → scope), over the built-in table. */
    toolScopes: z.record(z.string().min(1).max(200), z.string().min(1).max(200)).optional(),
    /** Tools that must now go to a person before they run (each recorded call of them is listed). */
    escalate: z.array(z.string().min(1).max(200)).max(500).optional(),
  })
  .strict();
export type PolicyFile = z.infer<typeof PolicyFileSchema>;

/** One recorded tool call, with the attempt the journal recorded before its effect (if any). */
export type PastCall = {
  taskId: string;
  turn: number;
  step: number;
  callId: string;
  tool: string;
  workspaceId: string;
  /** The acting agent as recorded (name when known). */
  agent: { id: string | null; name: string | null; version: number | null };
  /** The recorded ceiling of that agent (used when the policy names none). */
  recordedCeiling: readonly string[] | null;
  /** What the policy decided then (null: recorded before attempts were journaled). */
  recorded: { allowed: boolean; rule: string; scope: string | null } | null;
  /** The sanitised parameters recorded with the attempt. */
  params: unknown;
  status: string;
};

export type Finding = PastCall & { now: 'deny' | 'escalate'; decision: PolicyDecision | null; why: string };

/** The scope a past call needed: recorded, else the tables, else the MCP naming rule. */
export function scopeOfPastCall(call: Pick<PastCall, 'tool' | 'recorded'>, toolScopes: Readonly<Record<string, string>> = {}): string | null {
  if (toolScopes[call.tool]) return toolScopes[call.tool]!;
  if (call.recorded?.scope) return call.recorded.scope;
  if (TOOL_SCOPES[call.tool]) return TOOL_SCOPES[call.tool]!;
  const sep = call.tool.indexOf('__');
  return sep > 0 ? mcpScope(call.tool.slice(0, sep), call.tool.slice(sep + 2)) : null;
}

/** The past calls the policy would now deny or escalate, in the order given. */
export function judgePastCalls(calls: readonly PastCall[], policy: PolicyFile): Finding[] {
  const findings: Finding[] = [];
  const escalate = new Set(policy.escalate ?? []);
  for (const c of calls) {
    // A call refused then never ran: it is no news to refuse or escalate it now.
    if (c.recorded && !c.recorded.allowed) continue;
    const ceiling = (c.agent.name && policy.agents?.[c.agent.name]) || policy.ceiling || c.recordedCeiling;
    const scope = scopeOfPastCall(c, policy.toolScopes);
    if (ceiling) {
      // The action carries the scope the call needed as a declared scope, so the one policy
      // function decides with the same rules as at run time.
      const decision = authorize(
        { id: c.agent.id ?? 'unknown', version: c.agent.version ?? 0, scopes: ceiling, workspaceId: c.workspaceId },
        // A built-in name would take its table's scope: a call whose scope differs (an override, a
        // recorded one) is named apart so its own scope decides.
        { kind: 'tool', tool: TOOL_SCOPES[c.tool] && TOOL_SCOPES[c.tool] !== scope ? `${c.tool} (as recorded)` : c.tool, ...(scope ? { scope } : {}) },
        { workspaceId: c.workspaceId, taskId: c.taskId },
      );
      if (!decision.allowed) {
        findings.push({ ...c, now: 'deny', decision, why: scope ? `needs ${scope}, which the policy's ceiling does not grant` : 'declares no scope' });
        continue;
      }
    }
    if (escalate.has(c.tool)) findings.push({ ...c, now: 'escalate', decision: null, why: 'the policy sends this tool to a person before it runs' });
  }
  return findings;
}
