// The one policy function (server/domain/agent-policy.ts), table-driven and pure: every tool of the
// built-in registry has a scope and is allowed with it and denied without it; MCP tools by exact
// scope and wildcards; sub-agent ceilings; escalation kinds. No database.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  authorize,
  BUILTIN_SCOPES,
  covers,
  DEFAULT_CEILING,
  effectiveScopes,
  escalationFor,
  isKnownScope,
  isStrictSubset,
  isSubset,
  TOOL_SCOPES,
  type PolicyPrincipal,
} from '../server/domain/agent-policy.ts';
import type { JobDeps } from '../server/generation/jobs.ts';
import { capabilitiesFrom } from '../server/runtime/capabilities.ts';
import { allBuiltinTools } from '../server/runtime/tools/all.ts';

const WS = '00000000-0000-4000-8000-000000000001';
const resource = { workspaceId: WS, taskId: 't1' };
const agent = (scopes: readonly string[]): PolicyPrincipal => ({ id: 'p1', version: 1, scopes, workspaceId: WS });

// The registry as the composition root builds it (app.ts): a tool added there is iterated here.
const REGISTRY = allBuiltinTools(capabilitiesFrom([]), {} as JobDeps);

describe('every built-in tool', () => {
  test('the registry has tools, and every one of them has a scope in TOOL_SCOPES', () => {
    assert.ok(REGISTRY.length >= 17, `the registry lists ${REGISTRY.length} tools`);
    const missing = REGISTRY.map((t) => t.name).filter((n) => !TOOL_SCOPES[n]);
    assert.deepEqual(missing, [], 'a tool without a scope is denied to every agent: add it to TOOL_SCOPES');
    for (const s of Object.values(TOOL_SCOPES)) assert.ok((BUILTIN_SCOPES as readonly string[]).includes(s), `${s} is a built-in scope`);
  });

  for (const def of REGISTRY) {
    const scope = TOOL_SCOPES[def.name] ?? '(none)';
    test(`${def.name}: allowed with ${scope}, denied without it, denied with every other scope`, () => {
      const ok = authorize(agent([scope]), { kind: 'tool', tool: def.name }, resource);
      assert.deepEqual(ok, { allowed: true, rule: 'tool-scope', scope });
      const others = BUILTIN_SCOPES.filter((s) => s !== scope);
      const no = authorize(agent([...others, 'mcp:*']), { kind: 'tool', tool: def.name }, resource);
      assert.equal(no.allowed, false);
      assert.equal(no.rule, 'scope-not-granted');
      assert.equal(no.scope, scope);
      assert.match((no as { reason: string }).reason, new RegExp(`"${def.name}" needs the right "${scope}"`));
      // A definition cannot give a built-in tool another scope than the table's.
      assert.equal(authorize(agent(['tasks:write']), { kind: 'tool', tool: def.name, scope: 'tasks:write' }, resource).allowed, scope === 'tasks:write');
      // The main agent's default ceiling allows every built-in tool.
      assert.equal(authorize(agent(DEFAULT_CEILING), { kind: 'tool', tool: def.name }, resource).allowed, true);
    });
  }
});

describe('tools that are not built in', () => {
  test('a tool with no scope anywhere is denied by rule no-scope-declared, whatever the agent holds', () => {
    const d = authorize(agent([...DEFAULT_CEILING]), { kind: 'tool', tool: 'launch_rocket' }, resource);
    assert.deepEqual(d, { allowed: false, rule: 'no-scope-declared', scope: null, reason: 'The tool "launch_rocket" declares no scope, so no agent may use it.' });
  });

  test("a plugin's tool is held to the scope it declares; an unknown declared scope counts as none", () => {
    assert.deepEqual(authorize(agent(['objects:write']), { kind: 'tool', tool: 'stamp', scope: 'objects:write' }, resource), { allowed: true, rule: 'declared-scope', scope: 'objects:write' });
    assert.equal(authorize(agent(['objects:read']), { kind: 'tool', tool: 'stamp', scope: 'objects:write' }, resource).rule, 'scope-not-granted');
    assert.equal(authorize(agent(DEFAULT_CEILING), { kind: 'tool', tool: 'stamp', scope: 'root' }, resource).rule, 'no-scope-declared');
  });

  const mcp = (server: string, tool: string) => ({ kind: 'tool' as const, tool: `${server}__${tool}`, mcp: { server, tool } });
  const cases: [string, string[], { server: string; tool: string }, boolean][] = [
    ['mcp:* gives every server', ['mcp:*'], { server: 'docs', tool: 'search' }, true],
    ['mcp:docs:* gives every tool of docs', ['mcp:docs:*'], { server: 'docs', tool: 'delete_page' }, true],
    ['mcp:docs:* gives nothing of another server', ['mcp:docs:*'], { server: 'crm', tool: 'search' }, false],
    ['mcp:docs:* is not a prefix match on the slug', ['mcp:doc:*'], { server: 'docs', tool: 'search' }, false],
    ['the exact tool', ['mcp:docs:search'], { server: 'docs', tool: 'search' }, true],
    ['another tool of the same server', ['mcp:docs:search'], { server: 'docs', tool: 'delete_page' }, false],
    ['built-in scopes give no MCP tool', [...BUILTIN_SCOPES], { server: 'docs', tool: 'search' }, false],
  ];
  for (const [name, scopes, t, allowed] of cases) {
    test(`MCP: ${name}`, () => {
      const d = authorize(agent(scopes), mcp(t.server, t.tool), resource);
      assert.equal(d.allowed, allowed);
      assert.equal(d.scope, `mcp:${t.server}:${t.tool}`);
      assert.equal(d.rule, allowed ? 'mcp-tool-scope' : 'scope-not-granted');
      if (!d.allowed) assert.match(d.reason, /the app "/);
    });
  }

  test('an MCP wildcard never covers a built-in scope', () => {
    assert.equal(covers('mcp:*', 'jobs:order'), false);
    assert.equal(authorize(agent(['mcp:*']), { kind: 'tool', tool: 'generate_image' }, resource).allowed, false);
  });
});

describe('service calls and workspaces', () => {
  test('service operations need their scope; an unknown operation is denied', () => {
    assert.deepEqual(authorize(agent(['memory:read']), { kind: 'service', op: 'memory.read' }, resource), { allowed: true, rule: 'service-scope', scope: 'memory:read' });
    assert.equal(authorize(agent(['memory:write']), { kind: 'service', op: 'memory.read' }, resource).allowed, false);
    assert.equal(authorize(agent(['agents:delegate']), { kind: 'service', op: 'agents.delegate' }, resource).allowed, true);
    assert.equal(authorize(agent(DEFAULT_CEILING), { kind: 'service', op: 'shell.exec' }, resource).rule, 'no-scope-declared');
  });

  test("an agent never acts on another workspace's resource", () => {
    const d = authorize(agent(DEFAULT_CEILING), { kind: 'tool', tool: 'add_note' }, { workspaceId: '00000000-0000-4000-8000-000000000002' });
    assert.equal(d.allowed, false);
    assert.equal(d.rule, 'other-workspace');
  });
});

describe('ceilings', () => {
  test('the vocabulary: built-in scopes, mcp:*, mcp:<slug>:* and mcp:<slug>:<tool>', () => {
    for (const s of [...BUILTIN_SCOPES, 'mcp:*', 'mcp:docs:*', 'mcp:docs:search', 'mcp:docs:Create-Page']) assert.ok(isKnownScope(s), s);
    for (const s of ['admin', 'tasks:*', 'mcp:', 'mcp:Docs:x', 'mcp:docs:', '*', 'objects:write ']) assert.ok(!isKnownScope(s), s);
  });

  test('subset and strict subset, with wildcards', () => {
    assert.ok(isSubset(['tasks:write'], ['tasks:write', 'objects:read']));
    assert.ok(isStrictSubset(['tasks:write'], ['tasks:write', 'objects:read']));
    assert.ok(isSubset(['tasks:write', 'objects:read'], ['objects:read', 'tasks:write']));
    assert.ok(!isStrictSubset(['tasks:write', 'objects:read'], ['objects:read', 'tasks:write']), 'the same ceiling is not a strict subset');
    assert.ok(!isSubset(['jobs:order'], ['tasks:write']));
    assert.ok(isStrictSubset(['mcp:docs:search'], ['mcp:docs:*']));
    assert.ok(isStrictSubset(['mcp:docs:*'], ['mcp:*']));
    assert.ok(!isSubset(['mcp:*'], ['mcp:docs:*']));
    assert.ok(isStrictSubset([], ['tasks:write']), 'an agent with no rights is narrower than any with some');
    assert.ok(isStrictSubset(BUILTIN_SCOPES, DEFAULT_CEILING));
  });

  test("a run's effective scopes: the ceiling ∩ what the task's tools need", () => {
    assert.deepEqual(effectiveScopes(['tasks:write', 'mcp:docs:*', 'jobs:order'], ['tasks:write', 'objects:read', 'mcp:docs:search', 'mcp:crm:find']), ['mcp:docs:search', 'tasks:write']);
    assert.deepEqual(effectiveScopes(DEFAULT_CEILING, ['tasks:write', 'tasks:write']), ['tasks:write']);
  });
});

describe('escalation', () => {
  test('a repeated denial escalates (ask for paid generation, escalate otherwise); an unknown outcome only for tools that need a person', () => {
    assert.equal(escalationFor({ name: 'generate_image' }, 'repeated-denial'), 'ask');
    assert.equal(escalationFor({ name: 'add_note' }, 'repeated-denial'), 'escalate');
    assert.equal(escalationFor({ name: 'charge' }, 'outcome-unknown'), null);
    assert.equal(escalationFor({ name: 'charge', needsPerson: true }, 'outcome-unknown'), 'verify');
    assert.equal(escalationFor({ name: 'charge', needsPerson: 'escalate' }, 'outcome-unknown'), 'escalate');
  });
});
