// The runtime's side of the agent policy (domain/agent-policy.ts): what a tool call asks for, the
// run's effective scopes, and the attempt the journal records before a call's effect.
//
// Invariants:
//  - The principal is the one read when the turn was claimed (lease.ts): no statement per step.
//  - Effective scopes = the principal's ceiling ∩ the scopes of the tools the step can run (the
//    built-in registry with the workspace's MCP tools). Every registered tool counts, not only the
//    ones the model is shown this step: visibility is context engineering, not authorisation.
//  - Computing them is pure and memoised per (registry, principal version).
import { authorize, effectiveScopes, requiredScope, type PolicyAction, type PolicyDecision, type PolicyPrincipal } from '../domain/agent-policy.ts';
import type { Claim } from './lease.ts';
import { sanitizeParams } from './telemetry.ts';
import type { ToolRegistry } from './tools/registry.ts';
import type { ToolDef } from './tools/types.ts';

/** The action a call of `def` is. */
export function actionOf(def: ToolDef): PolicyAction {
  return { kind: 'tool', tool: def.name, ...(def.mcp ? { mcp: def.mcp } : {}), ...(def.scope ? { scope: def.scope } : {}) };
}

const memo = new WeakMap<ToolRegistry, Map<string, string[]>>();

/** The run's effective scopes for a step's tools (ceiling ∩ what those tools need). */
export function runScopes(claim: Claim, tools: ToolRegistry): string[] {
  const key = `${claim.principal.id}:${claim.principal.version}:${claim.principal.scopes.join(' ')}`;
  let byPrincipal = memo.get(tools);
  if (!byPrincipal) memo.set(tools, (byPrincipal = new Map()));
  let scopes = byPrincipal.get(key);
  if (!scopes) {
    const needed = tools.list().flatMap((d) => requiredScope(actionOf(d))?.scope ?? []);
    scopes = effectiveScopes(claim.principal.scopes, needed);
    if (byPrincipal.size > 8) byPrincipal.clear();
    byPrincipal.set(key, scopes);
  }
  return scopes;
}

/** The run as events and credentials name it. */
export const runOf = (claim: Pick<Claim, 'turnId' | 'generation'>) => `${claim.turnId}:${claim.generation}`;

/** The one policy check before a call's effect. */
export function authorizeCall(claim: Claim, tools: ToolRegistry, def: ToolDef): PolicyDecision {
  const principal: PolicyPrincipal = { id: claim.principal.id, version: claim.principal.version, scopes: runScopes(claim, tools), workspaceId: claim.workspaceId };
  return authorize(principal, actionOf(def), { workspaceId: claim.workspaceId, taskId: claim.taskId });
}

/**
 * A service call the runtime makes for the agent (reading memory, …), checked against the
 * principal's ceiling: what the task needs of it is the runtime's decision, not a tool's.
 */
export function authorizeService(claim: Claim, op: string): PolicyDecision {
  const principal: PolicyPrincipal = { id: claim.principal.id, version: claim.principal.version, scopes: claim.principal.scopes, workspaceId: claim.workspaceId };
  return authorize(principal, { kind: 'service', op }, { workspaceId: claim.workspaceId, taskId: claim.taskId });
}

/** Sanitised parameters for the journal, kept small enough to stay inline in the event. */
export function auditParams(input: unknown): unknown {
  const p = sanitizeParams(input);
  return JSON.stringify(p ?? null).length > 4000 ? '[too large to record]' : p;
}

/** What TOOL_CALL_STARTED (and TOOL_CALL_DENIED) record: who tried what, with which right, how. */
export function attemptOf(claim: Claim, decision: PolicyDecision, input: unknown) {
  return {
    principal: { agentId: claim.principal.id, version: claim.principal.version },
    run: runOf(claim),
    decision: decision.allowed ? { allowed: true, rule: decision.rule, scope: decision.scope } : { allowed: false, rule: decision.rule, scope: decision.scope, reason: decision.reason },
    params: auditParams(input),
  };
}

export type Attempt = ReturnType<typeof attemptOf>;
