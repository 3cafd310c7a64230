// One pinned tool of an MCP server with its effective safety: the server's hints, the owner's
// overrides winning, and the server's trust (domain/mcp-safety.ts, the rule the runtime applies).
import { effectiveSafety } from '../../domain/mcp-safety.ts';
import { builder } from '../builder.ts';
import { McpToolSafetyEnum } from '../enums/mcp-tool-safety.ts';
import { McpToolRef } from '../refs.ts';

const effective = (x: { tool: { name: string; annotations?: Parameters<typeof effectiveSafety>[0] }; server: { toolOverrides: Record<string, Parameters<typeof effectiveSafety>[1]>; trust: 'TRUSTED' | 'UNTRUSTED' } }) =>
  effectiveSafety(x.tool.annotations, x.server.toolOverrides[x.tool.name], x.server.trust);

McpToolRef.implement({
  description: 'A tool an MCP server offers, as pinned, with what the workspace decided about it.',
  fields: (t) => ({
    toolName: t.string({ description: 'Its name at the server (the agent sees <server slug>__<toolName>).', resolve: (x) => x.tool.name }),
    title: t.string({ nullable: true, description: 'Its display name, when the server gives one.', resolve: (x) => x.tool.title ?? null }),
    description: t.string({ description: 'What the server says it does.', resolve: (x) => x.tool.description }),
    allowed: t.boolean({ description: 'Whether the agent may use it.', resolve: (x) => x.server.allowedTools === null || x.server.allowedTools.includes(x.tool.name) }),
    safety: t.field({ type: McpToolSafetyEnum, description: 'How safe a repeated call is, after the owner\'s override.', resolve: (x) => effective(x).safety }),
    destructive: t.boolean({ description: 'Whether a call may destroy something (a person agrees first).', resolve: (x) => effective(x).destructive }),
    needsApproval: t.boolean({ description: 'Whether every call asks a person first (destructive, or a call that changes something on an untrusted server).', resolve: (x) => effective(x).needsApproval }),
    priceCents: t.int({
      nullable: true,
      description: 'What one call costs, in cents: its own price, else the server\'s price per call (null: free).',
      resolve: (x) => x.server.toolOverrides[x.tool.name]?.priceCents ?? x.server.priceCentsPerCall ?? null,
    }),
    inputSchema: t.field({ type: 'JSON', description: 'The JSON Schema of its arguments, as pinned.', resolve: (x) => x.tool.inputSchema }),
    overridden: t.boolean({ description: 'Whether the owner set its safety, destructiveness or price.', resolve: (x) => x.server.toolOverrides[x.tool.name] !== undefined }),
  }),
});
