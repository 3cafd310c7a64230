// The public keys that verify what the agents sign, as JSON Web Key Sets (RFC 7517):
//   /.well-known/jwks.json                        the deployment's key (it signs the A2A agent card)
//   /.well-known/jwks/<workspace global id>.json  a workspace's keys (its agents' run credentials)
// Public and cacheable: a JWKS names no secret, so any origin may read it, with no credential. A
// rotated-out key stays listed until the credentials it signed have expired; the cache lifetime is
// short so a verifier that meets a new kid finds it on its next fetch (jose's createRemoteJWKSet
// fetches again on an unknown kid). Reading never creates a key.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { decodeLenient } from '../graphql/ids.ts';
import { agentJwks } from '../services/agents/signing-keys.ts';
import type { Deps } from '../services/deps.ts';

export const DEPLOYMENT_JWKS_PATH = '/.well-known/jwks.json';
export const WORKSPACE_JWKS_PREFIX = '/.well-known/jwks/';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The path of a workspace's JWKS (its global id percent-encoded: base64 may hold `/` and `+`). */
export const workspaceJwksPath = (workspaceGlobalId: string) => `${WORKSPACE_JWKS_PREFIX}${encodeURIComponent(workspaceGlobalId)}.json`;

function send(res: ServerResponse, req: IncomingMessage, status: number, body: unknown, headers: Record<string, string> = {}) {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': String(Buffer.byteLength(text)), ...headers });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** The workspace a JWKS path names, or null when it names none (404). */
function workspaceOf(pathname: string): string | null {
  const raw = pathname.slice(WORKSPACE_JWKS_PREFIX.length, -'.json'.length);
  let id: string;
  try {
    id = decodeURIComponent(raw);
  } catch {
    return null;
  }
  const d = decodeLenient(id);
  return d && d.typename === 'Workspace' && UUID.test(d.id) ? d.id.toLowerCase() : null;
}

export function createJwksHttp(deps: Deps) {
  return {
    owns: (p: string) => p === DEPLOYMENT_JWKS_PATH || (p.startsWith(WORKSPACE_JWKS_PREFIX) && p.endsWith('.json')),
    async handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, req, 405, { error: 'Method not allowed' }, { allow: 'GET, HEAD' });
      let workspaceId: string | null = null;
      if (url.pathname !== DEPLOYMENT_JWKS_PATH) {
        workspaceId = workspaceOf(url.pathname);
        if (!workspaceId) return send(res, req, 404, { error: 'Not found' });
      }
      const jwks = await agentJwks(deps, workspaceId);
      return send(res, req, 200, jwks, {
        'content-type': 'application/jwk-set+json',
        'cache-control': 'public, max-age=60',
        'access-control-allow-origin': '*',
      });
    },
  };
}
