// The MCP servers' bearer tokens at rest: sealed by the server's secret box (../secret-box.ts,
// AES-256-GCM under the key from the server's secret file; services/mcp/secret-key.ts resolves it
// from the configuration). Invariants:
//  - A token is stored only as `v1.<key id>.<iv>.<tag>.<cipher>`, with no context (tokens sealed
//    before the box served other secrets open unchanged).
//  - The keys live only in this process's memory; they and the tokens are never logged and never
//    returned by the API.
import { hasSecretKey, openSecret, sealSecret, useSecretKey } from '../secret-box.ts';

/** Registers the server's secret key (the same key seals every secret of ../secret-box.ts). */
export function useMcpSecretKey(key: Buffer): void {
  useSecretKey(key);
}

export function hasMcpSecretKey(): boolean {
  return hasSecretKey();
}

export function sealMcpSecret(plain: string): string {
  return sealSecret(plain);
}

export function openMcpSecret(sealed: string): string {
  return openSecret(sealed, '', 'An MCP server token');
}
