// Discovery: connect to an MCP server, read what it is (initialize) and what it offers (tools/list,
// every page), and describe it as a pin. The registry pins this at registration; the tool bus
// compares every later listing against the pin (a changed schema or server version quarantines).
import { createHash } from 'node:crypto';
import { readFileSync, realpathSync, statSync, type Stats } from 'node:fs';
import { isAbsolute } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { canonicalJson } from '../../domain/canonical-json.ts';
import type { McpPin, PinnedTool } from '../../domain/mcp-safety.ts';
import { egressDeniedIn, type FetchLike } from '../egress/gate.ts';
import { containedCommand, which, type McpSandbox } from './sandbox.ts';

export type McpEndpoint = { transport: 'HTTP' | 'STDIO'; url: string | null; command: string | null; args: string[]; authSecret: string | null };

/** The server could not be reached, refused us, or answered something that is not MCP. The message is a sentence a person can read. */
export class McpUnreachable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'McpUnreachable';
  }
}
export const isMcpUnreachable = (e: unknown): e is McpUnreachable => e instanceof McpUnreachable;

const CLIENT_INFO = { name: 'atelier', version: '1.0.0' };
const DEFAULT_TIMEOUT_MS = 15_000;
/** A server listing more tools than this is refused: the model could not use them and the pin would be unbounded. */
const MAX_TOOLS = 500;
const MAX_PAGES = 50;

/** sha256 of the canonical JSON of what the model sees and what decides safety. Title is display only. */
export function toolSchemaHash(tool: Omit<PinnedTool, 'schemaHash'>): string {
  const material = {
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema,
    outputSchema: tool.outputSchema,
    annotations: tool.annotations,
  };
  return createHash('sha256').update(canonicalJson(material)).digest('hex');
}

/** A listed MCP tool as the pin keeps it (annotations reduced to the four hints). */
export function pinnedToolOf(tool: Tool): PinnedTool {
  const a = tool.annotations;
  const annotations = a
    ? dropUndefined({
        readOnlyHint: a.readOnlyHint,
        idempotentHint: a.idempotentHint,
        destructiveHint: a.destructiveHint,
        openWorldHint: a.openWorldHint,
      })
    : undefined;
  const base: Omit<PinnedTool, 'schemaHash'> = dropUndefined({
    name: tool.name,
    title: tool.title ?? a?.title,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema as Record<string, unknown>,
    outputSchema: tool.outputSchema as Record<string, unknown> | undefined,
    annotations: annotations && Object.keys(annotations).length > 0 ? annotations : undefined,
  }) as Omit<PinnedTool, 'schemaHash'>;
  return { ...base, schemaHash: toolSchemaHash(base) };
}

function dropUndefined<T extends Record<string, unknown>>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

export type OpenedMcpClient = {
  client: Client;
  /** Negotiated in initialize. */
  protocolVersion: string;
  /** The last lines a stdio server wrote to stderr, for an error message. */
  stderrTail: () => string;
  close: () => Promise<void>;
};

export type OpenOptions = {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Passed to the SDK Client: e.g. listChanged handlers (the bus refreshes its tool cache with them). */
  clientOptions?: ConstructorParameters<typeof Client>[1];
  /** Called when the connection closes for any reason (the bus drops it from its pool). */
  onclose?: () => void;
  /**
   * The egress gate's fetch for the workspace (HTTP servers): every request, and every redirect
   * hop, is checked against the workspace's allowed hosts and the address rule.
   */
  fetch?: FetchLike;
  /** How a STDIO server is contained (sandbox.ts); absent: a plain child process. */
  sandbox?: McpSandbox;
};

/**
 * Connects and initializes. Shared by discovery and the tool bus so both speak to a server the same
 * way (same transport options, same bearer header, same error sentences).
 */
export async function openMcpClient(endpoint: McpEndpoint, opts: OpenOptions = {}): Promise<OpenedMcpClient> {
  let protocolVersion = '';
  let stderr = '';
  let transport: Transport;
  let cleanup = () => {};
  if (endpoint.transport === 'HTTP') {
    if (!endpoint.url) throw new McpUnreachable('The server has no address to connect to.');
    let url: URL;
    try {
      url = new URL(endpoint.url);
    } catch {
      throw new McpUnreachable('The server address is not a valid URL.');
    }
    const headers: Record<string, string> = {};
    if (endpoint.authSecret) headers.authorization = `Bearer ${endpoint.authSecret}`;
    transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers },
      // Through the gate, redirects are the gate's to follow: each hop is checked against the
      // allowed hosts (a hop elsewhere is EGRESS_DENIED) and credentials never go to another origin.
      ...(opts.fetch ? { fetch: opts.fetch, redirectPolicy: 'follow' as const } : {}),
      // A server that drops the event stream is not reconnected behind the caller's back: the bus
      // reconnects on the next call, so a dead server shows as unreachable instead of hanging.
      reconnectionOptions: { maxReconnectionDelay: 1000, initialReconnectionDelay: 200, reconnectionDelayGrowFactor: 2, maxRetries: 0 },
    });
  } else {
    if (!endpoint.command) throw new McpUnreachable('The server has no command to start.');
    // Under bubblewrap when the installation has it: no network, a private scratch directory.
    const contained = opts.sandbox ? containedCommand(opts.sandbox, endpoint.command, endpoint.args) : { command: endpoint.command, args: endpoint.args, cleanup: () => {} };
    cleanup = contained.cleanup;
    const stdio = new StdioClientTransport({
      command: contained.command,
      args: contained.args,
      // Only the SDK's safe default variables: the server process never sees our secrets.
      env: getDefaultEnvironment(),
      stderr: 'pipe',
    });
    stdio.stderr?.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-2000);
    });
    transport = stdio;
  }
  // The SDK tells HTTP transports the negotiated version through this hook; stdio has none, so one
  // is added to learn the version for the pin either way.
  const original = transport.setProtocolVersion?.bind(transport);
  transport.setProtocolVersion = (v: string) => {
    protocolVersion = v;
    original?.(v);
  };
  const client = new Client(CLIENT_INFO, opts.clientOptions);
  let closed = false;
  client.onclose = () => {
    closed = true;
    cleanup();
    opts.onclose?.();
  };
  client.onerror = () => {
    // Transport errors surface on the request that hit them; an unhandled one must not crash the worker.
  };
  const close = async () => {
    if (closed) return;
    closed = true;
    await client.close().catch(() => undefined);
    cleanup();
  };
  try {
    await client.connect(transport, { timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: opts.signal });
  } catch (e) {
    await close();
    throw unreachable(e, endpoint, stderr);
  }
  return { client, protocolVersion, stderrTail: () => stderr, close };
}

/** Lists every tool, following cursors, bounded in pages and count. */
export async function listAllTools(client: Client, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await client.listTools(cursor ? { cursor } : undefined, { timeout: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS, signal: opts.signal });
    tools.push(...res.tools);
    if (tools.length > MAX_TOOLS) throw new McpUnreachable(`The server lists more than ${MAX_TOOLS} tools; that many cannot be offered.`);
    cursor = res.nextCursor;
    if (!cursor) return tools;
  }
  throw new McpUnreachable(`The server's tool list did not end after ${MAX_PAGES} pages.`);
}

/** Builds the pin from a connected client. */
export async function pinOf(opened: OpenedMcpClient, opts: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<McpPin> {
  const info = opened.client.getServerVersion();
  const tools = opened.client.getServerCapabilities()?.tools ? await listAllTools(opened.client, opts) : [];
  return {
    serverName: info?.name ?? '',
    serverVersion: info?.version ?? '',
    protocolVersion: opened.protocolVersion,
    tools: tools.map(pinnedToolOf).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
  };
}

const checksums = new Map<string, string>();

/**
 * SHA-256 over a STDIO server's program and the files its absolute arguments name (the script an
 * interpreter runs), each by its real path: what the pin holds so that a replaced or edited file
 * quarantines the server. Files are hashed once per (path, size, mtime) in a process. Null for HTTP.
 */
export function programChecksum(endpoint: Pick<McpEndpoint, 'transport' | 'command' | 'args'>): string | null {
  if (endpoint.transport !== 'STDIO' || !endpoint.command) return null;
  const whole = createHash('sha256');
  for (const f of [which(endpoint.command) ?? endpoint.command, ...endpoint.args.filter((a) => isAbsolute(a))]) {
    let real: string;
    let st: Stats;
    try {
      real = realpathSync(f);
      st = statSync(real);
    } catch {
      continue; // not a file: an argument like a flag or a path that does not exist
    }
    if (!st.isFile()) continue;
    const key = `${real}\0${st.size}\0${st.mtimeMs}`;
    let sum = checksums.get(key);
    if (!sum) {
      sum = createHash('sha256').update(readFileSync(real)).digest('hex');
      checksums.set(key, sum);
    }
    whole.update(`${real}\0${sum}\0`);
  }
  return whole.digest('hex');
}

/** Connects, initializes, lists every tool (all pages), closes. Throws McpUnreachable (a sentence) on failure. */
export async function discoverMcpServer(endpoint: McpEndpoint, opts: { timeoutMs?: number; signal?: AbortSignal; fetch?: FetchLike; sandbox?: McpSandbox } = {}): Promise<McpPin> {
  const opened = await openMcpClient(endpoint, opts);
  try {
    const program = programChecksum(endpoint);
    return { ...(await pinOf(opened, opts)), ...(program ? { program } : {}) };
  } catch (e) {
    throw unreachable(e, endpoint, opened.stderrTail());
  } finally {
    await opened.close();
  }
}

/** Turns whatever the SDK or the network threw into one plain sentence (never a stack). */
export function unreachable(e: unknown, endpoint: McpEndpoint, stderr = ''): McpUnreachable {
  if (e instanceof McpUnreachable) return e;
  // The egress gate refused the address (or a redirect): said as such, the denial kept as the cause.
  const denied = egressDeniedIn(e);
  if (denied) return new McpUnreachable(denied.message, { cause: denied });
  const where = endpoint.transport === 'HTTP' ? 'The server at its address' : 'The server command';
  const raw = e instanceof Error ? e.message : String(e);
  let reason: string;
  if (/401|403|unauthori[sz]ed|forbidden/i.test(raw)) reason = 'refused the credentials';
  else if (/timed? ?out|timeout/i.test(raw)) reason = 'did not answer in time';
  else if (/abort/i.test(raw)) reason = 'was not reached: the request was stopped';
  else if (/ENOENT|spawn/i.test(raw)) reason = 'could not be started';
  else if (/ECONNREFUSED|fetch failed|ENOTFOUND|EAI_AGAIN|ECONNRESET|closed/i.test(raw)) reason = 'could not be reached';
  else if (/protocol version/i.test(raw)) reason = 'speaks a protocol version this product does not support';
  else reason = 'did not answer as an MCP server';
  const detail = stderr.trim() ? ` Its last output: ${stderr.trim().split('\n').slice(-1)[0]!.slice(0, 200)}` : '';
  return new McpUnreachable(`${where} ${reason}.${detail}`, { cause: e });
}
