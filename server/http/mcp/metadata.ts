// The protected-resource metadata of /mcp (RFC 9728), the 401 challenge that points to it, and the
// human-readable page it names as documentation. Honest about what exists: there is no
// authorization server yet (so no `authorization_servers`); a token comes from the workspace owner
// (`npm run atelier -- token`), which the document says in a field of its own (RFC 9728 §2 allows
// additional parameters).
import { TOOLS } from './tools.ts';

export const METADATA_PATH = '/.well-known/oauth-protected-resource/mcp';
export const DOCS_PATH = '/mcp/docs';

export function protectedResourceMetadata(origin: string) {
  return {
    resource: `${origin}/mcp`,
    bearer_methods_supported: ['header'],
    scopes_supported: ['read', 'write', 'approve'],
    resource_name: 'Atelier MCP server',
    resource_documentation: `${origin}${DOCS_PATH}`,
    description:
      'Send Authorization: Bearer <token>. There is no OAuth authorization server yet: a token is issued by the workspace owner with `npm run atelier -- token --scopes read,write` and works for one workspace with its scopes (read: the read tools and resources; write: send_message, create_task, signal_task, cancel_task). Approvals are answered by a person in the Atelier studio, never through MCP.',
  };
}

/** The WWW-Authenticate challenge of a refused request (RFC 6750, RFC 9728 §5.1). */
export function challenge(origin: string, tokenGiven: boolean): string {
  return `Bearer resource_metadata="${origin}${METADATA_PATH}"${tokenGiven ? ', error="invalid_token"' : ''}`;
}

const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]!);

export function docsPage(origin: string): string {
  const tools = TOOLS.map((t) => `<li><code>${esc(t.name)}</code> — ${esc(t.description)}</li>`).join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Atelier MCP server</title></head>
<body style="font-family:system-ui;max-width:48rem;margin:3rem auto;line-height:1.5">
<h1>Atelier MCP server</h1>
<p>URL: <code>${esc(origin)}/mcp</code> (Streamable HTTP). Send <code>Authorization: Bearer &lt;token&gt;</code>;
the workspace owner issues tokens with <code>npm run atelier -- token --scopes read,write</code>. There is no OAuth
sign-in yet. Metadata: <a href="${METADATA_PATH}">${METADATA_PATH}</a>.</p>
<h2>Tools</h2><ul>${tools}</ul>
<p><code>create_task</code> and <code>send_message</code> can run as MCP tasks: the MCP task id is the Atelier task's id;
<code>input_required</code> means a card waits for a person in the studio. Resources: <code>atelier://tasks/{id}</code>,
<code>atelier://objects/{id}</code>.</p></body></html>`;
}
