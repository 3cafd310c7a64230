// The key that seals MCP servers' bearer tokens at rest (store/mcp/secret-box.ts): from
// ATELIER_MCP_SECRET_KEY, else — outside production — generated once and kept in
// `<dataDir>/mcp-secret-key` (mode 0600) beside the other secrets, so every process on one data
// directory opens what another sealed. In production it must come from the environment (processes
// on several machines share no data directory).
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Config } from '../../config.ts';
import { ensureSecretFile } from '../../secret-file.ts';
import { useMcpSecretKey } from '../../store/mcp/secret-box.ts';

export function mcpSecretKey(config: Pick<Config, 'dataDir' | 'mcp'>): Buffer {
  const configured = config.mcp?.secretKey;
  let text = configured;
  if (!text) {
    if (config.mcp?.production) {
      throw new Error(
        'Invalid configuration:\n  ATELIER_MCP_SECRET_KEY: required when NODE_ENV=production (it seals the tokens of MCP servers); e.g. openssl rand -base64 32',
      );
    }
    text = ensureSecretFile(join(config.dataDir, 'mcp-secret-key'), () => randomBytes(32).toString('base64'));
  }
  const key = Buffer.from(text, 'base64');
  if (key.length !== 32) throw new Error('Invalid configuration:\n  ATELIER_MCP_SECRET_KEY: must be 32 bytes in base64 (openssl rand -base64 32)');
  return key;
}

const registered = new WeakSet<object>();

/**
 * Makes the configured key this process's key for sealing and opening tokens (once per
 * configuration object). Called at start by whoever holds the configuration, and by every MCP
 * service before it touches a token.
 */
export function ensureMcpSecretKey(config: Config): void {
  if (registered.has(config)) return;
  useMcpSecretKey(mcpSecretKey(config));
  registered.add(config);
}
