// Changing an MCP server's settings (owners only), against the version the owner saw: a change
// based on an older version is refused (CONFLICT) and writes nothing. Every change names what it
// changed in the server's history.
import type { Viewer } from '../../auth/viewer.ts';
import type { McpPin } from '../../domain/mcp-safety.ts';
import { badInput, conflict, notFound } from '../../errors.ts';
import { toView, type McpServerView, type McpToolOverrides } from '../../store/mcp/registry.ts';
import { updateMcpServerRow, type McpServerChange } from '../../store/mcp/servers.ts';
import type { Deps } from '../deps.ts';
import { requireMcpAdmin } from './access.ts';
import { parseMcpInput, UpdateInput } from './input.ts';
import { workspaceOfServer } from './list-servers.ts';
import { ensureMcpSecretKey } from './secret-key.ts';

export async function updateMcpServer(deps: Deps, viewer: Viewer, raw: unknown): Promise<McpServerView> {
  const input = parseMcpInput(UpdateInput, raw);
  const workspaceId = await workspaceOfServer(deps, viewer, input.serverId);
  requireMcpAdmin(viewer, workspaceId);
  ensureMcpSecretKey(deps.config);
  if (input.authSecret !== undefined && input.clearAuthSecret) throw badInput('Give a new bearer token or clear it, not both', { argument: 'authSecret' });
  const change: McpServerChange = {};
  const said: string[] = [];
  if (input.title !== undefined) (change.title = input.title), said.push(`title: ${input.title}`);
  if (input.trust !== undefined) (change.trust = input.trust), said.push(`trust: ${input.trust === 'TRUSTED' ? 'trusted' : 'not trusted'}`);
  if (input.allowedTools !== undefined) {
    change.allowedTools = input.allowedTools === null ? null : [...new Set(input.allowedTools)].sort();
    said.push(`allowed tools: ${change.allowedTools === null ? 'all' : change.allowedTools.join(', ') || 'none'}`);
  }
  if (input.toolOverrides !== undefined) {
    const o: McpToolOverrides = {};
    for (const t of input.toolOverrides) {
      const v = { ...(t.safety ? { safety: t.safety } : {}), ...(t.destructive != null ? { destructive: t.destructive } : {}), ...(t.priceCents != null ? { priceCents: t.priceCents } : {}) };
      if (Object.keys(v).length) o[t.tool] = v;
    }
    change.toolOverrides = o;
    said.push(`tool settings: ${Object.keys(o).sort().join(', ') || 'none'}`);
  }
  if (input.priceCentsPerCall !== undefined) {
    change.priceCentsPerCall = input.priceCentsPerCall;
    said.push(`price per call: ${input.priceCentsPerCall === null ? 'none' : `${input.priceCentsPerCall} cents`}`);
  }
  if (input.domains !== undefined) (change.domains = [...new Set(input.domains)]), said.push(`domains: ${change.domains.join(', ') || 'none'}`);
  if (input.authSecret !== undefined) (change.authSecret = input.authSecret), said.push('bearer token set');
  if (input.clearAuthSecret) (change.authSecret = null), said.push('bearer token cleared');
  if (input.status !== undefined) (change.status = input.status), said.push(input.status === 'ACTIVE' ? 'turned on' : 'turned off');
  if (!said.length) throw badInput('Nothing to change: give a title, trust, allowed tools, tool settings, a price, domains, a token or a status', { argument: 'input' });

  const out = await deps.prisma.$transaction((tx) =>
    updateMcpServerRow(tx, {
      workspaceId,
      id: input.serverId,
      baseVersion: input.baseVersion,
      change,
      describe: said.join('; '),
      actor: { kind: 'USER', id: viewer.userId },
      check: (current) => {
        const pin = current.pinned as McpPin | null;
        const names = new Set((pin?.tools ?? []).map((t) => t.name));
        const unknown = [...(change.allowedTools ?? []), ...Object.keys(change.toolOverrides ?? {})].filter((n) => !names.has(n));
        if (unknown.length) {
          throw badInput(`${[...new Set(unknown)].slice(0, 5).join(', ')}: not a tool of this server (its tools: ${[...names].slice(0, 20).join(', ') || 'none'})`, {
            argument: change.allowedTools?.some((n) => !names.has(n)) ? 'allowedTools' : 'toolOverrides',
          });
        }
        if (change.authSecret != null && current.transport !== 'HTTP') throw badInput('A bearer token is only sent to a server reached over HTTP', { argument: 'authSecret' });
        if (change.status === 'ACTIVE' && current.status === 'QUARANTINED') {
          throw badInput('This server changed since it was pinned: approve the change on its card, or remove it', { argument: 'status' });
        }
        if (change.status === 'ACTIVE' && current.observed != null) {
          throw badInput('This server changed since it was pinned: refresh it to be asked about the change again, or remove it', { argument: 'status' });
        }
      },
    }),
  );
  if (out.kind === 'missing') throw notFound('MCP server');
  if (out.kind === 'stale') {
    throw conflict(`This server was changed meanwhile (it is now at version ${out.current}); reload it and make your change again`, { currentVersion: out.current });
  }
  return toView(out.row);
}
