import { builder } from '../builder.ts';
import { McpTransportEnum } from '../enums/mcp-transport.ts';
import { McpTrustEnum } from '../enums/mcp-trust.ts';

export const RegisterMcpServerInput = builder.inputType('RegisterMcpServerInput', {
  description: 'An MCP server to register: Atelier connects to it, reads its tools and pins them.',
  fields: (t) => ({
    workspaceId: t.id({ required: true, description: 'The workspace.' }),
    slug: t.string({ required: true, description: 'Short name: a lowercase letter, then lowercase letters, digits or _ (at most 24); the agent sees its tools as <slug>__<tool>.' }),
    title: t.string({ required: false, description: 'The name people see (default: the name the server gives itself).' }),
    transport: t.field({ type: McpTransportEnum, required: false, description: 'HTTP (default) or STDIO.' }),
    url: t.string({ required: false, description: 'Its address, for HTTP: https:// (plain http:// only for 127.0.0.1, ::1 and localhost).' }),
    command: t.string({ required: false, description: 'The command to start, for STDIO: only one the operator allows (ATELIER_MCP_STDIO_COMMANDS).' }),
    args: t.stringList({ required: false, description: 'The command\'s arguments, for STDIO.' }),
    trust: t.field({ type: McpTrustEnum, required: false, description: 'TRUSTED (default) or UNTRUSTED (every call that changes something asks a person first).' }),
    priceCentsPerCall: t.int({ required: false, description: 'What a call costs, in cents (none: free).' }),
    domains: t.stringList({ required: false, description: 'Task domains its tools belong to (none: offered in every task).' }),
    authSecret: t.string({ required: false, description: 'A bearer token sent to an HTTP server; stored sealed and never shown again.' }),
  }),
});
