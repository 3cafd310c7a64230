// The names the model sees for an MCP server's tools: `<server>__<tool>`, fitted to the tool
// registry's rule (^[a-z][a-z0-9_]{0,63}$, which every model provider accepts). The server's name
// already fits (the registry's slug rule); a tool's name may hold any character MCP allows, so it is
// lower-cased, every other character becomes `_`, and a name still too long or already taken ends
// in a short hash of the real name. Pure and deterministic: the same pin always gives the same names.
import { createHash } from 'node:crypto';

export const MCP_NAME_SEPARATOR = '__';
const MAX = 64;

/** `<server>__<tool>` fitted to the rule; `taken` holds the names given so far for this server (it is updated). */
export function modelToolName(server: string, tool: string, taken: Set<string>): string {
  const prefix = `${server}${MCP_NAME_SEPARATOR}`;
  let body = tool.toLowerCase().replace(/[^a-z0-9_]+/g, '_').replace(/^_+|_+$/g, '') || 'tool';
  let name = `${prefix}${body}`;
  if (name.length > MAX || taken.has(name)) {
    const h = createHash('sha256').update(tool).digest('hex').slice(0, 6);
    body = body.slice(0, Math.max(1, MAX - prefix.length - 7));
    name = `${prefix}${body}_${h}`;
  }
  taken.add(name);
  return name;
}
