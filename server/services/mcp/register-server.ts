// Registering an MCP server (owners only): the server is asked what it is and which tools it
// offers (discovery), and that answer is pinned — later listings are held to it. A server that
// cannot be reached is refused with the reason, and nothing is stored.
import type { Viewer } from '../../auth/viewer.ts';
import { badInput } from '../../errors.ts';
import { discoverMcpServer, isMcpUnreachable } from '../../runtime/mcp/discover.ts';
import { egressDeniedIn } from '../../runtime/egress/gate.ts';
import { destinationOf } from '../../domain/egress-policy.ts';
import { recordRegisteredHost } from '../../store/egress/hosts.ts';
import type { McpPin } from '../../domain/mcp-safety.ts';
import { toView, type McpServerView } from '../../store/mcp/registry.ts';
import { insertMcpServer } from '../../store/mcp/servers.ts';
import type { Deps } from '../deps.ts';
import { requireMcpAdmin } from './access.ts';
import { parseMcpInput, RegisterInput, requireStdioAllowed } from './input.ts';
import { ensureMcpSecretKey } from './secret-key.ts';

/** How long registration waits for the server to answer. */
export const DISCOVERY_TIMEOUT_MS = 15_000;

/**
 * Discovery through the egress gate (HTTP) or the sandbox (STDIO), with an unreachable server
 * turned into a refusal that names the reason. `registering`: the owner is adding this address
 * now, so its host is allowed for this discovery (it goes on the list with the server); the
 * address rule still applies. A refused address is EGRESS_DENIED.
 */
export async function discoverOrRefuse(
  deps: Pick<Deps, 'egress' | 'runtime'>,
  workspaceId: string,
  endpoint: Parameters<typeof discoverMcpServer>[0],
  argument: string,
  opts: { registering?: boolean } = {},
): Promise<McpPin> {
  const dest = opts.registering && endpoint.url ? destinationOf(new URL(endpoint.url)) : null;
  const sandbox = deps.runtime.mcp?.sandbox;
  try {
    return await discoverMcpServer(endpoint, {
      timeoutMs: DISCOVERY_TIMEOUT_MS,
      fetch: deps.egress.fetchFor(workspaceId, dest ? { alsoAllow: [dest] } : {}),
      ...(sandbox ? { sandbox } : {}),
    });
  } catch (e) {
    const denied = egressDeniedIn(e);
    if (denied) throw denied;
    if (isMcpUnreachable(e)) throw badInput(e.message, { argument });
    throw e;
  }
}

export async function registerMcpServer(deps: Deps, viewer: Viewer, raw: unknown): Promise<McpServerView> {
  const input = parseMcpInput(RegisterInput, raw);
  requireMcpAdmin(viewer, input.workspaceId);
  if (input.transport === 'STDIO') requireStdioAllowed(deps.config, input.command!);
  ensureMcpSecretKey(deps.config);
  const taken = () => badInput(`A server named "${input.name}" is already registered in this workspace; choose another name`, { argument: 'name' });
  // Refused before connecting: a second registration of the same name should not reach the server.
  if (await deps.prisma.mcpServer.findFirst({ where: { workspaceId: input.workspaceId, name: input.name }, select: { id: true } })) throw taken();
  const endpoint = {
    transport: input.transport,
    url: input.url ?? null,
    command: input.command ?? null,
    args: input.transport === 'STDIO' ? input.args : [],
    authSecret: input.authSecret ?? null,
  };
  const pinned = await discoverOrRefuse(deps, input.workspaceId, endpoint, input.transport === 'HTTP' ? 'url' : 'command', { registering: true });
  const row = await deps.prisma.$transaction(async (tx) => {
    const inserted = await insertMcpServer(
      tx,
      {
        workspaceId: input.workspaceId,
        name: input.name,
        title: input.title ?? (pinned.serverName || input.name),
        ...endpoint,
        trust: input.trust,
        pinned,
        priceCentsPerCall: input.priceCentsPerCall ?? null,
        domains: [...new Set(input.domains)],
      },
      { kind: 'USER', id: viewer.userId },
    );
    // Its host goes on the workspace's allowed hosts with it: the owner sees it there and can revoke it.
    if (inserted && endpoint.url) {
      await recordRegisteredHost(tx, { workspaceId: input.workspaceId, url: endpoint.url, source: 'MCP_SERVER', note: `MCP server ${input.name}`, createdById: viewer.userId });
    }
    return inserted;
  });
  if (!row) throw taken();
  return toView(row);
}
