// Secrets the server must be able to read back, at rest: AES-256-GCM under the server's secret key
// (services/mcp/secret-key.ts resolves it from the configuration: ATELIER_MCP_SECRET_KEY or the
// data directory). Sealed here: MCP servers' bearer tokens (mcp/secret-box.ts) and the private
// halves of the agents' signing keys (agents/signing-keys.ts). Invariants:
//  - A secret is stored only as `v1.<key id>.<iv>.<tag>.<cipher>` (base64url parts): the key id (the
//    first bytes of the key's SHA-256) says which key sealed it, so a wrong key is reported as such
//    and never yields garbage.
//  - A `context` (GCM's additional data) binds a sealed value to where it belongs — e.g. a signing
//    key's kid — so a value copied into another row or column does not open there. Opening needs
//    the same context; no context is the empty one (the MCP tokens' form, unchanged).
//  - The keys live only in this process's memory (registered at start by whoever holds the
//    configuration); they and the secrets are never logged and never returned by the API.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

const keys = new Map<string, Buffer>();
let current: { id: string; key: Buffer } | null = null;

const keyId = (key: Buffer) => createHash('sha256').update(key).digest().subarray(0, 6).toString('base64url');

/**
 * Registers the key secrets are sealed with from now on (32 bytes). Earlier keys stay known for
 * opening: a process that served several data directories (tests) still opens what it sealed.
 */
export function useSecretKey(key: Buffer): void {
  if (key.length !== 32) throw new Error('The server secret key must be 32 bytes');
  const id = keyId(key);
  keys.set(id, key);
  current = { id, key };
}

export function hasSecretKey(): boolean {
  return current !== null;
}

export function sealSecret(plain: string, context = ''): string {
  if (!current) throw new Error('No server secret key is configured in this process (ensureMcpSecretKey at start)');
  const iv = randomBytes(12);
  const c = createCipheriv('aes-256-gcm', current.key, iv);
  if (context) c.setAAD(Buffer.from(context, 'utf8'));
  const body = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
  return ['v1', current.id, iv.toString('base64url'), c.getAuthTag().toString('base64url'), body.toString('base64url')].join('.');
}

/** `what` names the secret in errors ("An MCP server token"), never its value. */
export function openSecret(sealed: string, context = '', what = 'A secret'): string {
  const [v, id, iv, tag, body] = sealed.split('.');
  if (v !== 'v1' || !id || iv === undefined || tag === undefined || body === undefined) throw new Error(`${what} is stored in an unknown form`);
  const key = keys.get(id);
  if (!key) throw new Error(`${what} was sealed with a key this process does not have (check the data directory or ATELIER_MCP_SECRET_KEY)`);
  const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
  if (context) d.setAAD(Buffer.from(context, 'utf8'));
  d.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([d.update(Buffer.from(body, 'base64url')), d.final()]).toString('utf8');
}
