// The one policy function: may this agent principal take this action? Pure — the runtime asks it
// before every tool call's effect (and before service calls it makes on the agent's behalf), with
// the principal's effective scopes; nothing here reads a database or a clock.
//
// Scopes (exact strings): `tasks:write` (the task's own journal: checklist, notes, complete, ask),
// `objects:read`, `objects:write`, `jobs:order` (anything that spends money on generation),
// `memory:read`, `memory:write`, `agents:delegate` (calling a remote agent), and per MCP tool
// `mcp:<serverSlug>:<toolName>`. A ceiling may hold `mcp:*` (every MCP tool) or `mcp:<slug>:*`
// (every tool of one server); a wildcard never covers a built-in scope.
//
// Invariants:
//  - A tool without a declared scope is denied (rule `no-scope-declared`): a new built-in tool
//    must be added to TOOL_SCOPES, a plugin's tool must declare its scope on its definition.
//  - A built-in tool's scope comes from TOOL_SCOPES only; a definition cannot re-declare it.
//  - Every denial carries a rule and a sentence a person (and the model) can read.

/** The built-in scopes, in the order they are shown. */
export const BUILTIN_SCOPES = ['tasks:write', 'objects:read', 'objects:write', 'jobs:order', 'memory:read', 'memory:write', 'agents:delegate'] as const;
export type BuiltinScope = (typeof BUILTIN_SCOPES)[number];

/** What the main agent may do when its owner has not narrowed it: every built-in scope and every MCP tool. */
export const DEFAULT_CEILING: readonly string[] = [...BUILTIN_SCOPES, 'mcp:*'];

export type PolicyPrincipal = { id: string; version: number; scopes: readonly string[]; /** When given, an action on another workspace is denied. */ workspaceId?: string };
export type PolicyAction =
  | {
      kind: 'tool';
      tool: string;
      /** For a tool of an MCP server: its server's slug and the tool's own name there. */
      mcp?: { server: string; tool: string };
      /** The scope a plugin's tool declares on its definition (built-in tools take TOOL_SCOPES). */
      scope?: string;
    }
  | { kind: 'service'; op: string };
export type PolicyDecision = { allowed: true; rule: string; scope: string } | { allowed: false; rule: string; scope: string | null; reason: string };

/** Every built-in tool's required scope. A tool missing here (and not declaring one) is denied. */
export const TOOL_SCOPES: Readonly<Record<string, string>> = {
  // The task's own journal.
  add_note: 'tasks:write',
  complete_task: 'tasks:write',
  read_result: 'tasks:write',
  plan_checklist: 'tasks:write',
  update_checklist: 'tasks:write',
  ask_user: 'tasks:write',
  // A wake of the task itself, later: it spends nothing (a woken turn's paid actions still pass
  // the approvals gate), so the task's own right covers it.
  follow_up_at: 'tasks:write',
  // Shared works.
  read_object: 'objects:read',
  create_document: 'objects:write',
  create_flow: 'objects:write',
  create_collection: 'objects:write',
  write_object: 'objects:write',
  edit_document: 'objects:write',
  edit_flow: 'objects:write',
  // Generation spends money.
  generate_image: 'jobs:order',
  generate_video: 'jobs:order',
  generate_audio: 'jobs:order',
  generate_3d_model: 'jobs:order',
  // Handing a step to a remote A2A agent.
  delegate_to_agent: 'agents:delegate',
};

/** Service calls the runtime makes for the agent (not tools), by operation. */
export const SERVICE_SCOPES: Readonly<Record<string, string>> = {
  'memory.read': 'memory:read',
  'memory.write': 'memory:write',
  'agents.delegate': 'agents:delegate',
  'jobs.order': 'jobs:order',
};

const SLUG = /^[a-z][a-z0-9_]{0,23}$/;
const MCP_TOOL = /^[A-Za-z0-9_.\-/]{1,128}$/;

/** Whether `s` is a scope of the vocabulary (a ceiling holds only these). */
export function isKnownScope(s: string): boolean {
  if ((BUILTIN_SCOPES as readonly string[]).includes(s)) return true;
  if (s === 'mcp:*') return true;
  const m = /^mcp:([^:]+):(.+)$/.exec(s);
  return !!m && SLUG.test(m[1]!) && (m[2] === '*' || MCP_TOOL.test(m[2]!));
}

/** The scope naming one MCP tool. */
export const mcpScope = (server: string, tool: string) => `mcp:${server}:${tool}`;

/** Whether holding `granted` gives `required` (exactly, or through an MCP wildcard). */
export function covers(granted: string, required: string): boolean {
  if (granted === required) return true;
  if (!required.startsWith('mcp:')) return false;
  if (granted === 'mcp:*') return true;
  if (granted.endsWith(':*')) {
    const prefix = granted.slice(0, -1); // `mcp:<slug>:`
    return required.startsWith(prefix) && required.length > prefix.length;
  }
  return false;
}

const held = (scopes: readonly string[], required: string) => scopes.some((g) => covers(g, required));

/** Every scope of `child` is given by `parent` (wildcards included). */
export function isSubset(child: readonly string[], parent: readonly string[]): boolean {
  return child.every((s) => held(parent, s));
}

/** `child` ⊂ `parent`: given by it, and narrower (the parent holds something the child does not). */
export function isStrictSubset(child: readonly string[], parent: readonly string[]): boolean {
  return isSubset(child, parent) && !isSubset(parent, child);
}

/** The scopes of `needed` that `ceiling` gives: a run's effective scopes (ceiling ∩ what the task may need). */
export function effectiveScopes(ceiling: readonly string[], needed: Iterable<string>): string[] {
  return [...new Set(needed)].filter((s) => held(ceiling, s)).sort();
}

/** The scope an action needs, or null when none is declared. */
export function requiredScope(action: PolicyAction): { scope: string; rule: string } | null {
  if (action.kind === 'service') {
    const s = SERVICE_SCOPES[action.op];
    return s ? { scope: s, rule: 'service-scope' } : null;
  }
  if (action.mcp) return { scope: mcpScope(action.mcp.server, action.mcp.tool), rule: 'mcp-tool-scope' };
  const builtin = TOOL_SCOPES[action.tool];
  if (builtin) return { scope: builtin, rule: 'tool-scope' };
  if (action.scope && isKnownScope(action.scope)) return { scope: action.scope, rule: 'declared-scope' };
  return null;
}

const what = (action: PolicyAction) =>
  action.kind === 'service' ? `the operation "${action.op}"` : action.mcp ? `the tool "${action.mcp.tool}" of the app "${action.mcp.server}"` : `the tool "${action.tool}"`;

/** May `principal` take `action` on `resource`? Pure; every denial says why in a sentence. */
export function authorize(principal: PolicyPrincipal, action: PolicyAction, resource: { workspaceId: string; taskId?: string }): PolicyDecision {
  if (principal.workspaceId && principal.workspaceId !== resource.workspaceId) {
    return { allowed: false, rule: 'other-workspace', scope: null, reason: `This agent acts only in its own workspace; ${what(action)} was asked for in another one.` };
  }
  const need = requiredScope(action);
  if (!need) {
    return { allowed: false, rule: 'no-scope-declared', scope: null, reason: `${cap(what(action))} declares no scope, so no agent may use it.` };
  }
  if (!held(principal.scopes, need.scope)) {
    return {
      allowed: false,
      rule: 'scope-not-granted',
      scope: need.scope,
      reason: `${cap(what(action))} needs the right "${need.scope}", which this agent was not given by the workspace's owners.`,
    };
  }
  return { allowed: true, rule: need.rule, scope: need.scope };
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

// ---- escalation ----

/**
 * What a person is asked when the agent is stuck on something it may not or cannot decide itself:
 * `ask` (a question: may it go on, and how), `verify` (check whether something happened),
 * `escalate` (an owner should look at what the agent tried).
 */
export type EscalationKind = 'ask' | 'verify' | 'escalate';

/** Why the runtime escalates. */
export type EscalationTrigger = 'repeated-denial' | 'outcome-unknown';

/** Denials of the same tool in one task before a person is asked (the model tried to work around the first). */
export const DENIALS_BEFORE_ESCALATION = 2;

/**
 * The tools that need a person when their outcome is unknown, and the kind of card per trigger.
 * Tools not listed: a repeated denial escalates to the owners; an unknown outcome is handed to the
 * model (its verify result) unless the tool's definition marks it as needing a person.
 */
export const TOOL_ESCALATION: Readonly<Record<string, Partial<Record<EscalationTrigger, EscalationKind>>>> = {
  // A paid generation the agent may not order: the person decides whether to order it themselves.
  generate_image: { 'repeated-denial': 'ask' },
  generate_video: { 'repeated-denial': 'ask' },
  generate_audio: { 'repeated-denial': 'ask' },
  generate_3d_model: { 'repeated-denial': 'ask' },
};

/**
 * The card to raise, or null to only inform the model. `needsPerson`: the tool's definition says a
 * person must settle an unknown outcome (an MCP tool that asks before it runs; a tool with effects
 * outside Atelier and no way to look them up).
 */
export function escalationFor(tool: { name: string; needsPerson?: EscalationKind | boolean }, trigger: EscalationTrigger): EscalationKind | null {
  const listed = TOOL_ESCALATION[tool.name]?.[trigger];
  if (listed) return listed;
  if (trigger === 'repeated-denial') return 'escalate';
  if (tool.needsPerson) return tool.needsPerson === true ? 'verify' : tool.needsPerson;
  return null;
}
