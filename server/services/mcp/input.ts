// What an MCP server registration or change may be, checked with zod at the service boundary. A
// refused input is BAD_USER_INPUT with one plain sentence naming the field, and nothing is written.
import { basename } from 'node:path';
import { z } from 'zod';
import type { Config } from '../../config.ts';
import { badInput } from '../../errors.ts';
import { parseWebhookInput } from '../webhooks/endpoint-input.ts';

export const parseMcpInput = parseWebhookInput;

/** Hosts that may be reached over plain http:// (a server on the same machine: tests, local tools). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);

export const McpName = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,23}$/, 'name must start with a lowercase letter and use only lowercase letters, digits and _ (at most 24 characters)')
  .refine((n) => !n.includes('__'), 'name must not contain two underscores in a row (they separate it from the tool name)');

export const McpUrl = z.string().superRefine((raw, ctx) => {
  const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
  if (raw.length > 2048) return fail('url must be at most 2048 characters');
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return fail('url is not an absolute address; give one like https://tools.example.com/mcp');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return fail('url must be an https:// address');
  if (u.protocol === 'http:' && !LOOPBACK_HOSTS.has(u.hostname)) return fail('url must use https://; plain http:// is accepted only for 127.0.0.1, ::1 and localhost');
  if (u.username || u.password) return fail('url must not contain a user name or password; give the token as the bearer token instead');
});

const Title = z.string().trim().min(1, 'title must not be empty').max(120, 'title must be at most 120 characters');
const Price = z.number().int('price must be whole cents').min(0, 'price must not be negative').max(100_000, 'price must be at most 100000 cents per call');
const Domain = z.string().regex(/^[a-z][a-z0-9_-]{0,39}$/, 'domains must be lowercase words (letters, digits, _ and -)');
const Secret = z.string().min(1, 'the bearer token must not be empty').max(4096, 'the bearer token must be at most 4096 characters').refine((s) => !/[\r\n]/.test(s), 'the bearer token must be on one line');
const Safety = z.enum(['READ_ONLY', 'IDEMPOTENT', 'AT_MOST_ONCE']);

export const RegisterInput = z
  .object({
    workspaceId: z.string().uuid(),
    name: McpName,
    title: Title.optional(),
    transport: z.enum(['HTTP', 'STDIO']).default('HTTP'),
    url: McpUrl.optional(),
    command: z.string().trim().min(1).max(500).optional(),
    args: z.array(z.string().max(1000)).max(50).default([]),
    trust: z.enum(['TRUSTED', 'UNTRUSTED']).default('TRUSTED'),
    priceCentsPerCall: Price.nullable().optional(),
    domains: z.array(Domain).max(20).default([]),
    authSecret: Secret.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.transport === 'HTTP' && !v.url) ctx.addIssue({ code: 'custom', path: ['url'], message: 'url is required for a server reached over HTTP' });
    if (v.transport === 'HTTP' && v.command) ctx.addIssue({ code: 'custom', path: ['command'], message: 'command is only for a server started as a command (STDIO)' });
    if (v.transport === 'STDIO' && !v.command) ctx.addIssue({ code: 'custom', path: ['command'], message: 'command is required for a server started as a command (STDIO)' });
    if (v.transport === 'STDIO' && v.url) ctx.addIssue({ code: 'custom', path: ['url'], message: 'url is only for a server reached over HTTP' });
    if (v.transport === 'STDIO' && v.authSecret) ctx.addIssue({ code: 'custom', path: ['authSecret'], message: 'a bearer token is only sent to a server reached over HTTP' });
  });

export const ToolOverrideInput = z.object({
  tool: z.string().min(1).max(128),
  safety: Safety.nullable().optional(),
  destructive: z.boolean().nullable().optional(),
  priceCents: Price.nullable().optional(),
});

export const UpdateInput = z.object({
  serverId: z.string().uuid(),
  baseVersion: z.number().int().min(1),
  title: Title.optional(),
  trust: z.enum(['TRUSTED', 'UNTRUSTED']).optional(),
  /** null: every pinned tool. */
  allowedTools: z.array(z.string().min(1).max(128)).max(500).nullable().optional(),
  /** The whole set of overrides (replaces the previous one). */
  toolOverrides: z.array(ToolOverrideInput).max(500).optional(),
  priceCentsPerCall: Price.nullable().optional(),
  domains: z.array(Domain).max(20).optional(),
  authSecret: Secret.optional(),
  clearAuthSecret: z.boolean().optional(),
  status: z.enum(['ACTIVE', 'DISABLED']).optional(),
});

export const ServerIdInput = z.object({ serverId: z.string().uuid() });

/**
 * Whether the operator allows this command: the list names absolute paths (exact match) or bare
 * names (matching a bare command only, so `/tmp/x/node` does not pass as `node`).
 */
export function stdioCommandAllowed(config: Pick<Config, 'mcp'>, command: string): boolean {
  const allowed = config.mcp?.stdioCommands ?? [];
  return allowed.some((a) => (a.includes('/') ? a === command : !command.includes('/') && a === basename(command)));
}

export function requireStdioAllowed(config: Pick<Config, 'mcp'>, command: string): void {
  if (stdioCommandAllowed(config, command)) return;
  const allowed = config.mcp?.stdioCommands ?? [];
  throw badInput(
    allowed.length
      ? `The command ${JSON.stringify(command.slice(0, 80))} is not one the operator allows; allowed: ${allowed.join(', ')}`
      : 'Starting a server as a command is turned off on this installation; the operator can allow commands with ATELIER_MCP_STDIO_COMMANDS',
    { argument: 'command' },
  );
}
