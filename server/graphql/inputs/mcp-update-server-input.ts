import { builder } from '../builder.ts';
import { McpToolOverrideInput } from './mcp-tool-override-input.ts';
import { McpTrustEnum } from '../enums/mcp-trust.ts';
import { McpServerStatusEnum } from '../enums/mcp-server-status.ts';

export const UpdateMcpServerInput = builder.inputType('UpdateMcpServerInput', {
  description: 'Changes to an MCP server, made against the version you saw: the fields given are replaced, the others stay.',
  fields: (t) => ({
    serverId: t.id({ required: true, description: 'The server.' }),
    baseVersion: t.int({ required: true, description: 'The version you saw (McpServer.version); a change based on an older one is refused with CONFLICT.' }),
    title: t.string({ required: false, description: 'A new title.' }),
    trust: t.field({ type: McpTrustEnum, required: false, description: 'A new trust.' }),
    allowedTools: t.stringList({ required: false, description: 'The tools the agent may use (names of pinned tools).' }),
    allowAllTools: t.boolean({ required: false, description: 'true: the agent may use every pinned tool (instead of allowedTools).' }),
    toolOverrides: t.field({ type: [McpToolOverrideInput], required: false, description: 'The owner\'s settings per tool, replacing the previous ones.' }),
    priceCentsPerCall: t.int({ required: false, description: 'A new price per call, in cents.' }),
    clearPrice: t.boolean({ required: false, description: 'true: calls are free unless a tool has its own price.' }),
    domains: t.stringList({ required: false, description: 'The task domains its tools belong to (empty: every task).' }),
    authSecret: t.string({ required: false, description: 'A new bearer token (stored sealed, never shown).' }),
    clearAuthSecret: t.boolean({ required: false, description: 'true: remove the bearer token.' }),
    status: t.field({ type: McpServerStatusEnum, required: false, description: 'ACTIVE or DISABLED (a quarantined server becomes active only by approving its change).' }),
  }),
});
