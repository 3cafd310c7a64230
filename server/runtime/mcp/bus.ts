// The MCP tool bus: the tools of a workspace's ACTIVE MCP servers, offered to the agent beside the
// built-in ones and called with the journal's guarantees.
//
// Invariants:
//  - What the model is shown comes from the PIN (the tools and schemas an owner registered or
//    approved), never from what a server lists now. A connection is verified against the pin before
//    anything is sent through it, and again whenever the server says its tool list changed: a
//    different server version, or a pinned tool changed or gone, quarantines the server (registry's
//    quarantineMcpServer) and none of its tools is offered or called until an owner approves.
//  - Visibility is cached (the workspace's server list, `recheckMs`); authority is not trusted past
//    that either: a call re-reads its server's record when the cached one is older than `recheckMs`,
//    so a disabled or quarantined server is not called beyond that window, from any process.
//  - A workspace without MCP servers costs one cached lookup per step (a read every `recheckMs`).
//  - Input is checked against the pinned input schema before a call is sent (invalid input never
//    reaches the server); structured output against the pinned output schema after.
//  - Every call carries its journal key (`turn:step:call`) in `_meta`, so a server can deduplicate a
//    replayed IDEMPOTENT call; AT_MOST_ONCE calls are never replayed (calls.ts).
//  - Destructive calls, and every non-read-only call of an UNTRUSTED server, wait for a person's
//    IRREVERSIBLE card before they are sent (preflight, while the call is still PENDING).
//  - Money: a priced call passes the paid-action gate and holds its price before it is sent; the
//    hold is settled exactly once, in the transaction that records the call's outcome (settle):
//    charged when answered or when the server may have done the work (outcome unknown after a
//    crash, an answer outside the declared output, a request lost in flight, a pause or cancel
//    while at the server); released when nothing was sent or the server answered isError.
import { mcpScope } from '../../domain/agent-policy.ts';
import { MAX_CREDENTIAL_LIFETIME_MS, mintRunCredential } from '../run-credentials.ts';
import { createHash } from 'node:crypto';
import { CallToolResultSchema, ErrorCode, McpError, ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { transactWithEvents, type UowDeps } from '../../channel/unit-of-work.ts';
import { crashPoint } from '../../crash-points.ts';
import type { PrismaClient, Tx } from '../../db/client.ts';
import { textsFor, type Texts } from '../../domain/replies/texts.ts';
import { readTaskBrief } from '../../store/journal/tasks.ts';
import { openOne } from '../../store/sealing/open.ts';
import type { Db } from '../../db/client.ts';
import { effectiveSafety, type McpPin, type McpEffectiveSafety, type PinnedTool } from '../../domain/mcp-safety.ts';
import type { Logger } from '../../log.ts';
import { requestApproval } from '../../store/approvals/request-approval.ts';
import { lockWorkspaceSettings, paidActionGate } from '../../store/approvals/paid-action-gate.ts';
import { findHold, findSettlement, insertHold, insertSettlement } from '../../store/ledger-holds.ts';
import type { CallOutcome } from '../../store/journal/steps.ts';
import { getMcpServer, listActiveMcpServers, quarantineMcpServer, type McpServerRecord } from '../../store/mcp/registry.ts';
import { AwaitingApproval, BudgetExceeded, isTaskStopped } from '../errors.ts';
import type { ToolRegistry } from '../tools/registry.ts';
import type { PreflightResult, ToolContext, ToolDef } from '../tools/types.ts';
import { isMcpUnreachable, listAllTools, McpUnreachable, openMcpClient, pinnedToolOf, programChecksum, unreachable, type OpenedMcpClient } from './discover.ts';
import { modelToolName } from './names.ts';
import { schemaProblems } from './schema-check.ts';
import { egressDeniedIn, type EgressDenied, type EgressGate } from '../egress/gate.ts';
import { formatDestination } from '../../domain/egress-policy.ts';
import type { McpSandbox } from './sandbox.ts';

/** The `_meta` key carrying the call's journal key (stable across retries and takeovers). */
export const IDEMPOTENCY_META_KEY = 'io.atelier/idempotency-key';
/**
 * The `_meta` key carrying the call's credential (a short-lived JWT, runtime/run-credentials.ts, minted
 * for this server and this tool): a server can check who calls and with which right against the
 * workspace's JWKS. Never a secret of Atelier's; absent when none could be minted.
 */
export const CREDENTIAL_META_KEY = 'io.atelier/credential';
/** Who a call's credential is for: the server's URL, or its name for a server started as a command. */
export const mcpAudience = (server: { transport: string; url: string | null }, name: string): string =>
  server.transport === 'HTTP' && server.url ? server.url : `atelier-mcp:${name}`;
/** The approval action of a call that waits for a person (IRREVERSIBLE or PAID_ACTION card). */
export const MCP_CALL_ACTION = 'MCP_TOOL_CALL';

export type McpBusOptions = {
  /** How long a workspace's server list, and a server's record at call time, is used before it is read again (ms). */
  recheckMs?: number;
  /** Connecting and initializing a server (ms). */
  connectTimeoutMs?: number;
  /** A call without any progress for this long is cancelled (ms); progress restarts the clock. */
  callTimeoutMs?: number;
  /** After a failed connection, the server is not tried again for this long by a step's tool resolution (ms); calls still try. */
  retryDownMs?: number;
  /** Text handed to the model per call at most (characters); larger results are stored by reference by the registry. */
  maxTextChars?: number;
};

export type McpBusDeps = {
  prisma: PrismaClient;
  log: Logger;
  /** Every request to a server over HTTP goes through the gate, for the server's workspace. */
  egress: EgressGate;
  /** How servers started as a command are contained (absent: not isolated). */
  sandbox?: McpSandbox;
} & UowDeps;

type Verdict = { kind: 'ok' } | { kind: 'changed'; observed: McpPin; reason: string };

type Connection = {
  key: string;
  server: McpServerRecord;
  opened: OpenedMcpClient;
  verdict: Verdict;
  closed: boolean;
  /** Tools this server runs as MCP tasks (it advertises tasks for tools/call and the tool supports them). */
  taskTools: Set<string>;
};

type WorkspaceEntry = {
  at: number;
  servers: McpServerRecord[];
  /** Tool definitions per server (id:version). */
  defs: Map<string, ToolDef[]>;
  /** The step registry per (built-in registry, offered set). */
  merged: WeakMap<ToolRegistry, { signature: string; registry: ToolRegistry }>;
};

/**
 * A tool call the server refused or failed: the model reads the sentence (a FAILED call). `money`
 * says what becomes of a priced call's hold: RELEASE when the request never reached the server or
 * the server answered isError; CHARGE when the server may have done the work (it answered outside
 * its declared output, or the request was lost in flight).
 */
export class McpCallFailed extends Error {
  constructor(
    message: string,
    readonly money: 'CHARGE' | 'RELEASE',
    /** For the ledger entry's note. */
    readonly why: string,
  ) {
    super(message);
    this.name = 'McpCallFailed';
  }
}

const EMPTY: ToolDef[] = [];

export class McpToolBus {
  private readonly opts: Required<McpBusOptions>;
  private readonly workspaces = new Map<string, WorkspaceEntry>();
  private readonly loading = new Map<string, Promise<WorkspaceEntry>>();
  private readonly connections = new Map<string, Connection>();
  private readonly connecting = new Map<string, Promise<Connection>>();
  private readonly downUntil = new Map<string, number>();
  /** Server records read at call time, by id. */
  private readonly records = new Map<string, { at: number; record: McpServerRecord | null }>();
  private closed = false;

  constructor(
    private readonly deps: McpBusDeps,
    opts: McpBusOptions = {},
  ) {
    this.opts = {
      recheckMs: opts.recheckMs ?? 2000,
      connectTimeoutMs: opts.connectTimeoutMs ?? 10_000,
      callTimeoutMs: opts.callTimeoutMs ?? 300_000,
      retryDownMs: opts.retryDownMs ?? 15_000,
      maxTextChars: opts.maxTextChars ?? 60_000,
    };
  }

  /**
   * The step's registry: `base` plus the tools of the workspace's ACTIVE, verified servers. The same
   * registry object comes back while nothing changed (its model-format conversions are kept).
   */
  async registryFor(workspaceId: string, base: ToolRegistry, opts: { taskId?: string } = {}): Promise<ToolRegistry> {
    const extra = await this.toolsFor(workspaceId, opts);
    if (!extra.length) return base;
    const entry = this.workspaces.get(workspaceId);
    const signature = extra.map((d) => d.name).join(',');
    const hit = entry?.merged.get(base);
    if (hit && hit.signature === signature) return hit.registry;
    const registry = base.with(extra);
    entry?.merged.set(base, { signature, registry });
    return registry;
  }

  /** The workspace's MCP tools for a step: ACTIVE servers, allowed pinned tools, none of a server found changed. */
  async toolsFor(workspaceId: string, opts: { taskId?: string } = {}): Promise<ToolDef[]> {
    const entry = await this.workspace(workspaceId);
    if (!entry.servers.length) return EMPTY;
    const out: ToolDef[] = [];
    const verdicts = await Promise.all(entry.servers.map((s) => this.verdictForStep(s, opts.taskId)));
    entry.servers.forEach((s, i) => {
      if (verdicts[i] === 'changed') return;
      out.push(...this.defsOf(entry, s));
    });
    return out.length ? out : EMPTY;
  }

  /** Whether servers started as a command run isolated here (the registry and /health show it). */
  get sandbox(): McpSandbox | undefined {
    return this.deps.sandbox;
  }

  /** Forget what is cached for a workspace (or all): the next step reads the registry again. */
  invalidate(workspaceId?: string): void {
    if (workspaceId) this.workspaces.delete(workspaceId);
    else this.workspaces.clear();
    this.records.clear();
  }

  /** Closes every pooled connection (stdio servers' processes end). */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.connections.values()];
    this.connections.clear();
    await Promise.all(all.map((c) => this.drop(c)));
  }

  // ---- the workspace's servers ----

  private async workspace(workspaceId: string): Promise<WorkspaceEntry> {
    const cached = this.workspaces.get(workspaceId);
    if (cached && Date.now() - cached.at < this.opts.recheckMs) return cached;
    let p = this.loading.get(workspaceId);
    if (!p) {
      p = (async () => {
        const servers = (await listActiveMcpServers(this.deps.prisma, workspaceId)).filter((s) => s.pinned);
        const entry: WorkspaceEntry = { at: Date.now(), servers, defs: cached?.defs ?? new Map(), merged: cached?.merged ?? new WeakMap() };
        // Definitions of servers that changed since are dropped (and their connections closed).
        const live = new Set(servers.map(keyOf));
        for (const k of entry.defs.keys()) if (!live.has(k)) entry.defs.delete(k);
        for (const c of this.connections.values()) {
          if (c.server.workspaceId === workspaceId && !live.has(c.key)) void this.drop(c);
        }
        this.workspaces.set(workspaceId, entry);
        return entry;
      })().finally(() => this.loading.delete(workspaceId));
      this.loading.set(workspaceId, p);
    }
    return p;
  }

  /** For a step: 'changed' hides the server's tools; an unreachable server's tools stay offered (a call says it is unreachable). */
  private async verdictForStep(server: McpServerRecord, taskId: string | undefined): Promise<'ok' | 'changed' | 'unreachable'> {
    const key = keyOf(server);
    const c = this.connections.get(key);
    if (c && !c.closed) return c.verdict.kind === 'ok' ? 'ok' : 'changed';
    if ((this.downUntil.get(key) ?? 0) > Date.now()) return 'unreachable';
    try {
      const conn = await this.connection(server, taskId);
      return conn.verdict.kind === 'ok' ? 'ok' : 'changed';
    } catch (e) {
      this.deps.log.warn('MCP server unreachable; its tools stay offered and calls report it', { server: server.name, error: errorMessage(e) });
      return 'unreachable';
    }
  }

  private defsOf(entry: WorkspaceEntry, server: McpServerRecord): ToolDef[] {
    const key = keyOf(server);
    let defs = entry.defs.get(key);
    if (!defs) {
      const taken = new Set<string>();
      const allowed = server.allowedTools ? new Set(server.allowedTools) : null;
      defs = (server.pinned?.tools ?? []).filter((t) => !allowed || allowed.has(t.name)).map((t) => this.toolDef(server, t, modelToolName(server.name, t.name, taken)));
      entry.defs.set(key, defs);
    }
    return defs;
  }

  // ---- tool definitions ----

  private toolDef(server: McpServerRecord, tool: PinnedTool, name: string): ToolDef {
    const override = server.toolOverrides[tool.name];
    const safety = effectiveSafety(tool.annotations, override, server.trust);
    const priceCents = override?.priceCents ?? server.priceCentsPerCall ?? 0;
    const ref: ToolRef = { serverId: server.id, workspaceId: server.workspaceId, serverName: server.name, serverTitle: server.title, version: server.version, tool, name, safety, priceCents };
    const inputSchema = tool.inputSchema;
    const described = tool.description ? tool.description.slice(0, 2000) : (tool.title ?? tool.name);
    return {
      name,
      domain: server.domains[0] ?? 'core',
      domains: server.domains,
      // Said to be a server's tool, so the model weighs what it returns as data from outside.
      description: `${described} (Tool "${tool.name}" of the MCP server "${server.title}".)`,
      jsonSchema: inputSchema,
      input: z.unknown().superRefine((v, ctx) => {
        for (const p of schemaProblems(inputSchema, `in:${tool.schemaHash}`, v)) ctx.addIssue({ code: 'custom', message: p });
      }),
      output: z.unknown(),
      safety: safety.safety,
      // The policy's scope for it is mcp:<server>:<tool> (domain/agent-policy.ts).
      mcp: { server: server.name, tool: tool.name },
      // A call that asks a person before it runs also needs one to settle an unknown outcome.
      ...(safety.needsApproval ? { needsPerson: 'verify' as const } : {}),
      ...(priceCents > 0 ? { costEstimateCents: priceCents } : {}),
      ...(safety.needsApproval || priceCents > 0 ? { preflight: (input: unknown, ctx: ToolContext) => this.preflight(ref, input, ctx) } : {}),
      ...(priceCents > 0 ? { settle: (tx: Tx, ended: { outcome: CallOutcome; thrown?: unknown }, ctx: ToolContext) => this.settle(ref, tx, ended, ctx) } : {}),
      run: (input: unknown, ctx: ToolContext) => this.call(ref, input, ctx),
      // A call recorded as running as a server's task is followed after a crash, never re-sent.
      resumable: async (ctx: ToolContext) => (await recordedTask(ctx)) !== null,
    };
  }

  // ---- connections ----

  private async connection(server: McpServerRecord, taskId?: string): Promise<Connection> {
    const key = keyOf(server);
    const existing = this.connections.get(key);
    if (existing && !existing.closed) return existing;
    let p = this.connecting.get(key);
    if (!p) {
      p = this.connect(server, taskId).finally(() => this.connecting.delete(key));
      this.connecting.set(key, p);
    }
    return p;
  }

  private async connect(server: McpServerRecord, taskId?: string): Promise<Connection> {
    if (this.closed) throw new McpUnreachable('The runtime is shutting down.');
    const key = keyOf(server);
    let conn: Connection | undefined;
    let opened: OpenedMcpClient;
    try {
      opened = await openMcpClient(
        { transport: server.transport, url: server.url, command: server.command, args: server.args, authSecret: server.authSecret },
        {
          timeoutMs: this.opts.connectTimeoutMs,
          fetch: this.deps.egress.fetchFor(server.workspaceId),
          ...(this.deps.sandbox ? { sandbox: this.deps.sandbox } : {}),
          onclose: () => {
            if (conn) {
              conn.closed = true;
              if (this.connections.get(key) === conn) this.connections.delete(key);
            }
          },
        },
      );
    } catch (e) {
      this.downUntil.set(key, Date.now() + this.opts.retryDownMs);
      throw e;
    }
    conn = { key, server, opened, verdict: { kind: 'ok' }, closed: false, taskTools: new Set() };
    try {
      conn.verdict = await this.verify(conn);
    } catch (e) {
      await this.drop(conn);
      this.downUntil.set(key, Date.now() + this.opts.retryDownMs);
      throw unreachable(e, { transport: server.transport, url: server.url, command: server.command, args: server.args, authSecret: null });
    }
    this.downUntil.delete(key);
    const c = conn;
    // The server says its tools changed: list and compare again before the next call or step.
    opened.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
      try {
        c.verdict = await this.verify(c);
        if (c.verdict.kind === 'changed') await this.quarantine(c, c.verdict, undefined);
      } catch (e) {
        this.deps.log.warn('MCP tool list could not be read after a change; the connection is dropped', { server: c.server.name, error: errorMessage(e) });
        await this.drop(c);
      }
    });
    if (this.closed) {
      await this.drop(c);
      throw new McpUnreachable('The runtime is shutting down.');
    }
    this.connections.set(key, c);
    if (c.verdict.kind === 'changed') await this.quarantine(c, c.verdict, taskId);
    return c;
  }

  /** Lists the server's tools and compares with the pin. */
  private async verify(c: Connection): Promise<Verdict> {
    const pin = c.server.pinned!;
    const info = c.opened.client.getServerVersion();
    const raw = await listAllTools(c.opened.client, { timeoutMs: this.opts.connectTimeoutMs });
    // Long calls of a server that supports tasks for tools/call run as tasks (their id is recorded
    // before the wait, so a takeover follows the task instead of calling again).
    const tasks = !!c.opened.client.getServerCapabilities()?.tasks?.requests?.tools?.call;
    c.taskTools = new Set(tasks ? raw.filter((t) => t.execution?.taskSupport === 'optional' || t.execution?.taskSupport === 'required').map((t) => t.name) : []);
    const listed = raw.map(pinnedToolOf);
    const observed: McpPin = {
      serverName: info?.name ?? '',
      serverVersion: info?.version ?? '',
      protocolVersion: c.opened.protocolVersion,
      tools: listed.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)),
    };
    const program = programChecksum({ transport: c.server.transport, command: c.server.command, args: c.server.args });
    if (program) observed.program = program;
    const reason = pinDifference(pin, observed);
    return reason ? { kind: 'changed', observed, reason } : { kind: 'ok' };
  }

  private async quarantine(c: Connection, v: Extract<Verdict, { kind: 'changed' }>, taskId: string | undefined, tool?: string): Promise<void> {
    this.deps.log.warn('MCP server changed since it was pinned; quarantined', { server: c.server.name, reason: v.reason });
    await quarantineMcpServer(this.deps.prisma, { serverId: c.server.id, workspaceId: c.server.workspaceId, expectedVersion: c.server.version, observed: v.observed, reason: v.reason });
    this.invalidate(c.server.workspaceId);
    if (taskId) {
      await transactWithEvents(this.deps, async (_tx, emit) => {
        emit(taskId, { type: 'MCP_SERVER_QUARANTINED', actor: { kind: 'SYSTEM' }, payload: { server: c.server.name, ...(tool ? { tool } : {}), reason: `“${c.server.title}” changed (${v.reason}); its tools are set aside until an owner approves the change.` } });
      }).catch((e) => this.deps.log.warn('could not record the quarantine on the task', { error: errorMessage(e) }));
    }
    await this.drop(c);
  }

  private async drop(c: Connection): Promise<void> {
    c.closed = true;
    if (this.connections.get(c.key) === c) this.connections.delete(c.key);
    await c.opened.close().catch(() => undefined);
  }

  /** The server's record for a call: the cached one while younger than `recheckMs`, else read again. */
  private async current(workspaceId: string, serverId: string): Promise<McpServerRecord | null> {
    const hit = this.records.get(serverId);
    if (hit && Date.now() - hit.at < this.opts.recheckMs) return hit.record;
    const record = await getMcpServer(this.deps.prisma, workspaceId, serverId);
    this.records.set(serverId, { at: Date.now(), record });
    return record;
  }

  // ---- a call ----

  /** Cards and money before the call is marked STARTED (calls.ts runs this while the call is PENDING). */
  private async preflight(ref: ToolRef, input: unknown, ctx: ToolContext): Promise<PreflightResult> {
    // Cards are titled in the task's language, like every card a person reads.
    const say = (await textsOfTask(ctx.uow.prisma, ctx.taskId)).mcp;
    const toolTitle = ref.tool.title ?? ref.tool.name;
    if (ref.safety.needsApproval) {
      const { approval } = await transactWithEvents(ctx.uow, (tx, emit) =>
        requestApproval(tx, emit, {
          workspaceId: ctx.workspaceId,
          taskId: ctx.taskId,
          kind: 'IRREVERSIBLE',
          // Its own key: the same call's paid-action card (if it is priced) uses the call's key.
          requestKey: `mcp:${ctx.idempotencyKey}`,
          title: say.callTitle(toolTitle, ref.serverTitle),
          reasons: [{ code: 'IRREVERSIBLE', message: ref.safety.destructive ? say.destructiveReason : say.untrustedReason }],
          quoteCents: ref.priceCents > 0 ? ref.priceCents : null,
          action: { type: MCP_CALL_ACTION, toolCallId: ctx.idempotencyKey, server: ref.serverName, tool: ref.tool.name, input: previewJson(input) },
          requestedBy: { kind: 'AGENT' },
        }),
      ).then((r) => r.value);
      if (approval.status === 'PENDING') throw new AwaitingApproval(approval.id, `${ref.tool.name} of ${ref.serverTitle}`);
      if (approval.status !== 'APPROVED') {
        return { kind: 'answer', outcome: { status: 'DONE', result: { status: approval.status, note: approval.note ?? say.declined } } };
      }
    }
    if (ref.priceCents > 0) {
      const holdId = holdIdOf(ctx.idempotencyKey);
      const { value: outcome } = await transactWithEvents(ctx.uow, async (tx, emit) => {
        const locked = await lockWorkspaceSettings(tx, ctx.workspaceId);
        // Held already: this is a replay of the same call, its price was decided.
        if (await findHold(tx, holdId)) return { kind: 'proceed' as const };
        const gate = await paidActionGate(
          tx,
          emit,
          {
            workspaceId: ctx.workspaceId,
            taskId: ctx.taskId,
            requestKey: ctx.idempotencyKey,
            quoteCents: ref.priceCents,
            title: say.paidCallTitle(toolTitle, ref.serverTitle, ref.priceCents),
            action: { type: MCP_CALL_ACTION, toolCallId: ctx.idempotencyKey, server: ref.serverName, tool: ref.tool.name, input: previewJson(input) },
          },
          locked,
        );
        if (gate.outcome.kind === 'proceed') {
          await insertHold(tx, { workspaceId: ctx.workspaceId, taskId: ctx.taskId, jobId: holdId, amountCents: ref.priceCents, reason: `MCP call ${ref.name}` });
        }
        return gate.outcome;
      });
      // The price is held and the call not yet marked started: a crash here leaves it PENDING.
      if (outcome.kind === 'proceed') crashPoint('mcp.call.held');
      if (outcome.kind === 'awaiting-approval') throw new AwaitingApproval(outcome.approvalId, `${ref.tool.name} of ${ref.serverTitle} (${(ref.priceCents / 100).toFixed(2)} USD)`);
      if (outcome.kind === 'budget-exceeded') throw new BudgetExceeded(outcome.reason);
      if (outcome.kind === 'rejected' || outcome.kind === 'superseded') {
        return { kind: 'answer', outcome: { status: 'DONE', result: { status: outcome.kind.toUpperCase(), note: outcome.note ?? say.declined } } };
      }
    }
    return { kind: 'proceed' };
  }

  /**
   * The credential one call carries: minted for this server alone (audience: its URL, or
   * `atelier-mcp:<name>` for a server started as a command), with exactly the right the call needs
   * (`mcp:<server>:<tool>`) and the run's turn and generation — so it is refused with the run, and
   * a server cannot replay it at another. Without a principal (an old turn), the run's own.
   */
  private async callCredential(server: { transport: string; url: string | null }, ref: ToolRef, ctx: ToolContext): Promise<string | null> {
    if (!ctx.principal || ctx.generation === undefined) return ctx.credential?.token ?? null;
    try {
      const c = await mintRunCredential(
        { prisma: this.deps.prisma },
        {
          principal: ctx.principal,
          scopes: [mcpScope(ref.serverName, ref.tool.name)],
          audience: mcpAudience(server, ref.serverName),
          workspaceId: ctx.workspaceId,
          taskId: ctx.taskId,
          turnId: ctx.turnId,
          generation: ctx.generation,
          ttlMs: Math.min(MAX_CREDENTIAL_LIFETIME_MS, this.opts.callTimeoutMs + 60_000),
        },
      );
      return c.token;
    } catch (e) {
      this.deps.log.error('a call credential could not be minted; the call carries none', { server: ref.serverName, error: errorMessage(e) });
      return null;
    }
  }

  private async call(ref: ToolRef, input: unknown, ctx: ToolContext): Promise<unknown> {
    const server = await this.current(ctx.workspaceId, ref.serverId);
    // What the model and the timeline read is in the task's language.
    const say = () => textsOfTask(ctx.uow.prisma, ctx.taskId).then((t) => t.mcp);
    if (!server || server.status !== 'ACTIVE' || !server.pinned) {
      throw new McpCallFailed((await say()).notActive(ref.serverTitle), 'RELEASE', `not sent: server ${server ? server.status.toLowerCase() : 'removed'}`);
    }
    if (server.version !== ref.version) {
      // Changed since the step offered the tool (allowed tools, overrides, an approved change): the
      // call goes ahead only if the tool is still offered with the same schema.
      const still = server.pinned.tools.find((t) => t.name === ref.tool.name);
      if (!still || still.schemaHash !== ref.tool.schemaHash || (server.allowedTools && !server.allowedTools.includes(ref.tool.name))) {
        throw new McpCallFailed((await say()).withdrawn(ref.tool.name, ref.serverTitle), 'RELEASE', 'not sent: tool withdrawn');
      }
    }
    let conn: Connection;
    try {
      conn = await this.connection(server, ctx.taskId);
    } catch (e) {
      const denied = egressDeniedIn(e);
      if (denied) {
        await this.recordEgressDenial(denied, ref, ctx);
        throw new McpCallFailed((await say()).egressDenied(ref.serverTitle, formatDestination(denied.denial)), 'RELEASE', 'not sent: egress denied');
      }
      this.deps.log.warn('MCP server unreachable at call time', { server: ref.serverName, error: isMcpUnreachable(e) ? e.message : errorMessage(e) });
      throw new McpCallFailed((await say()).unreachable(ref.serverTitle), 'RELEASE', 'not sent: server unreachable');
    }
    if (conn.verdict.kind === 'changed') {
      await this.quarantine(conn, conn.verdict, ctx.taskId, ref.name);
      throw new McpCallFailed((await say()).changed(ref.serverTitle, conn.verdict.reason), 'RELEASE', 'not sent: server changed');
    }
    const progress = progressReporter(ctx, ref.name);
    let res: CallToolResult;
    const credential = await this.callCredential(server, ref, ctx);
    const params = {
      name: ref.tool.name,
      arguments: (input ?? {}) as Record<string, unknown>,
      _meta: { [IDEMPOTENCY_META_KEY]: ctx.idempotencyKey, ...(credential ? { [CREDENTIAL_META_KEY]: credential } : {}) },
    };
    // The turn's signal: a pause, a cancel or a lost lease sends notifications/cancelled.
    const options = { signal: ctx.signal, onprogress: progress.report, resetTimeoutOnProgress: true, timeout: this.opts.callTimeoutMs };
    try {
      if (ctx.signal.aborted) throw ctx.signal.reason;
      if (conn.taskTools.has(ref.tool.name)) res = await this.callAsTask(conn, ref, params, options, ctx);
      else res = (await conn.opened.client.callTool(params, undefined, options)) as CallToolResult;
    } catch (e) {
      await progress.flush();
      if (e instanceof McpCallFailed) throw e;
      if (ctx.signal.aborted) {
        // A person paused or cancelled the task while the request was at the server: it may have
        // done the work, so a priced call is charged now (once) — a cancelled task never comes back
        // to settle it, and a paused one that resumes finds it settled (a replay is not charged
        // again). A lost lease settles nothing: the worker that took over decides.
        if (isTaskStopped(ctx.signal.reason)) await this.settleNow(ref, ctx, 'CHARGE', 'interrupted by a pause or cancel while at the server; it may have done the work');
        throw ctx.signal.reason;
      }
      const denied = egressDeniedIn(e);
      if (denied) {
        // Refused before it left (a revoked host, an address that changed, a redirect elsewhere):
        // nothing reached the server. The connection is dropped; the next call asks the gate again.
        await this.drop(conn);
        await this.recordEgressDenial(denied, ref, ctx);
        throw new McpCallFailed((await say()).egressDenied(ref.serverTitle, formatDestination(denied.denial)), 'RELEASE', 'not sent: egress denied');
      }
      const message = errorMessage(e);
      // The connection may be broken: the next call connects again.
      if (conn.closed || /closed|ECONNRESET|fetch failed|ECONNREFUSED/i.test(message)) await this.drop(conn);
      // Refused before anything was delivered, or refused by the server with a protocol error
      // (invalid params, unknown method, …): nothing was done. Anything else (a timeout, a
      // connection lost mid-answer, an internal error of the server) may have done the work.
      const notSent = /ECONNREFUSED/i.test(message);
      const refused = e instanceof McpError && ![ErrorCode.ConnectionClosed, ErrorCode.RequestTimeout, ErrorCode.InternalError].includes(e.code);
      throw new McpCallFailed(
        (await say()).noAnswer(ref.serverTitle, message.slice(0, 300)),
        notSent || refused ? 'RELEASE' : 'CHARGE',
        notSent ? 'not sent: connection refused' : refused ? 'refused by the server' : 'no answer; the request may have reached the server',
      );
    }
    await progress.flush();
    crashPoint('mcp.call.answered');
    const out = resultForModel(res, this.opts.maxTextChars);
    if (res.isError) {
      // Like a card payment that is declined: a server that answers isError is not paid. A server
      // that wants to be paid per attempt must not be registered with a per-call price.
      throw new McpCallFailed((await say()).toolError(out.text).slice(0, 2000), 'RELEASE', 'the server reported an error');
    }
    if (ref.tool.outputSchema && res.structuredContent !== undefined) {
      const problems = schemaProblems(ref.tool.outputSchema, `out:${ref.tool.schemaHash}`, res.structuredContent);
      if (problems.length) {
        throw new McpCallFailed((await say()).outputMismatch(problems.join('; ')), 'CHARGE', 'answered outside its declared output');
      }
    }
    return out;
  }

  /** The denial, on the task's log (EGRESS_DENIED), for the people following it. */
  private async recordEgressDenial(denied: EgressDenied, ref: ToolRef, ctx: ToolContext): Promise<void> {
    const d = denied.denial;
    await transactWithEvents(ctx.uow, async (_tx, emit) => {
      emit(ctx.taskId, { type: 'EGRESS_DENIED', actor: { kind: 'SYSTEM' }, payload: { host: d.host, port: d.port, rule: d.rule, reason: d.reason, tool: ref.name, server: ref.serverName } });
    }).catch((e) => this.deps.log.warn('could not record an egress denial on the task', { error: errorMessage(e) }));
  }

  /**
   * A call to a tool the server runs as a task: the task's id is recorded on the task's log
   * (TOOL_TASK_STARTED) before anything waits on it, then the task is followed (tasks/get until it
   * ends, then tasks/result). A call that finds its task recorded — a takeover after a crash, a
   * replay after a pause — follows that task and sends nothing, whatever its safety class; only a
   * task the server no longer knows is sent again, and only when the tool may be repeated.
   * Left open: a worker that dies after the server created the task and before its id was
   * recorded leaves the call to its safety class (re-sent with the same key, or OUTCOME_UNKNOWN).
   */
  private async callAsTask(
    conn: Connection,
    ref: ToolRef,
    params: { name: string; arguments: Record<string, unknown>; _meta: Record<string, unknown> },
    options: { signal: AbortSignal; timeout: number },
    ctx: ToolContext,
  ): Promise<CallToolResult> {
    const recorded = await recordedTask(ctx);
    if (recorded) {
      const followed = await this.followTask(conn, ref, recorded, ctx);
      if (followed !== 'gone') return followed;
      if (ref.safety.safety === 'AT_MOST_ONCE') {
        throw new McpCallFailed((await textsOfTask(ctx.uow.prisma, ctx.taskId)).mcp.taskGone(ref.serverTitle), 'CHARGE', 'its task is unknown to the server; it may have run');
      }
      // READ_ONLY / IDEMPOTENT: sent again below, with the same key.
    }
    const stream = conn.opened.client.experimental.tasks.callToolStream(params, CallToolResultSchema, { ...options, task: { ttl: TASK_TTL_MS } });
    let taskId: string | undefined;
    for await (const m of stream) {
      if (m.type === 'taskCreated') {
        taskId = m.task.taskId;
        break; // followed below, after the id is recorded (the stream's own polling is not used)
      }
      if (m.type === 'result') return m.result as CallToolResult;
      if (m.type === 'error') throw m.error;
    }
    if (!taskId) throw new Error('The server did not create a task for the call.');
    await transactWithEvents(ctx.uow, async (_tx, emit) => {
      emit(ctx.taskId, { type: 'TOOL_TASK_STARTED', actor: { kind: 'AGENT' }, payload: { callId: ctx.idempotencyKey, tool: ref.name, mcpTask: taskId } });
    });
    crashPoint('mcp.task.recorded');
    const followed = await this.followTask(conn, ref, taskId, ctx);
    if (followed === 'gone') throw new McpCallFailed((await textsOfTask(ctx.uow.prisma, ctx.taskId)).mcp.taskGone(ref.serverTitle), 'CHARGE', 'its task is unknown to the server; it may have run');
    return followed;
  }

  /** Polls a server's task until it ends and returns its result; 'gone' when the server does not know it. */
  private async followTask(conn: Connection, ref: ToolRef, taskId: string, ctx: ToolContext): Promise<CallToolResult | 'gone'> {
    const tasks = conn.opened.client.experimental.tasks;
    const deadline = Date.now() + this.opts.callTimeoutMs;
    const rpc = { signal: ctx.signal, timeout: this.opts.connectTimeoutMs };
    try {
      for (;;) {
        if (ctx.signal.aborted) throw ctx.signal.reason;
        let task;
        try {
          task = await tasks.getTask(taskId, rpc);
        } catch (e) {
          if (!ctx.signal.aborted && /not found/i.test(errorMessage(e))) return 'gone';
          throw e;
        }
        if (task.status === 'completed' || task.status === 'failed') {
          // A failed task's result is the tool's error (isError), like a direct call's.
          return (await tasks.getTaskResult(taskId, CallToolResultSchema, rpc)) as CallToolResult;
        }
        if (task.status === 'cancelled' || task.status === 'input_required') {
          if (task.status === 'input_required') await tasks.cancelTask(taskId, rpc).catch(() => undefined);
          throw new McpCallFailed((await textsOfTask(ctx.uow.prisma, ctx.taskId)).mcp.taskEnded(ref.serverTitle, task.status), 'RELEASE', `its task ended ${task.status}`);
        }
        if (Date.now() > deadline) {
          await tasks.cancelTask(taskId, rpc).catch(() => undefined);
          throw new Error(`the task did not end within ${Math.round(this.opts.callTimeoutMs / 1000)} s`);
        }
        const wait = Math.min(5000, Math.max(100, task.pollInterval ?? 500));
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, wait);
          ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
        });
      }
    } catch (e) {
      // A person paused or cancelled the task: the server's task is cancelled too. A lost lease
      // leaves it running — the worker that took over follows it.
      if (ctx.signal.aborted && isTaskStopped(ctx.signal.reason)) {
        await tasks.cancelTask(taskId, { timeout: this.opts.connectTimeoutMs }).catch(() => undefined);
      }
      throw e;
    }
  }

  /**
   * The settlement of a priced call's hold, in the transaction that records the call's outcome
   * (calls.ts): DONE → charged; FAILED → what the failure says (McpCallFailed.money; anything else
   * failed before the request was sent → released); OUTCOME_UNKNOWN (a worker died with the call
   * at the server) → charged, since it may have happened, and the model is told so. One
   * settlement per hold, whoever comes first: never charged twice, never held forever.
   */
  private async settle(ref: ToolRef, tx: Tx, ended: { outcome: CallOutcome; thrown?: unknown }, ctx: ToolContext): Promise<CallOutcome> {
    const { outcome, thrown } = ended;
    const hold = await findHold(tx, holdIdOf(ctx.idempotencyKey));
    if (!hold) return outcome;
    const kind: 'CHARGE' | 'RELEASE' =
      outcome.status === 'FAILED' ? (thrown instanceof McpCallFailed ? thrown.money : 'RELEASE') : 'CHARGE';
    const why =
      outcome.status === 'DONE'
        ? 'answered'
        : outcome.status === 'OUTCOME_UNKNOWN'
          ? 'outcome unknown after an interruption; the call may have happened, so it is charged once'
          : thrown instanceof McpCallFailed
            ? thrown.why
            : 'not sent';
    await insertSettlement(tx, { workspaceId: ctx.workspaceId, taskId: ctx.taskId, jobId: hold.jobId!, kind, amountCents: hold.amountCents, reason: `MCP call ${ref.name}: ${why}` });
    // What the ledger holds now (an earlier settlement, e.g. at a cancel, wins).
    const settled = (await findSettlement(tx, hold.jobId!))?.kind ?? kind;
    if (outcome.status === 'DONE') return outcome;
    const say = (await textsOfTask(tx, ctx.taskId)).mcp;
    if (outcome.status === 'OUTCOME_UNKNOWN') {
      const money = settled === 'CHARGE' ? say.chargedUnknown(hold.amountCents) : say.notCharged;
      return { status: 'OUTCOME_UNKNOWN', result: { ...(outcome.result as Record<string, unknown>), money } };
    }
    return { status: 'FAILED', error: `${outcome.error} ${settled === 'CHARGE' ? say.charged(hold.amountCents) : say.notCharged}` };
  }

  /** Settles a priced call's hold at once, in its own transaction (a call interrupted mid-flight). */
  private async settleNow(ref: ToolRef, ctx: ToolContext, kind: 'CHARGE' | 'RELEASE', why: string): Promise<void> {
    if (ref.priceCents <= 0) return;
    const holdId = holdIdOf(ctx.idempotencyKey);
    await ctx.uow.prisma
      .$transaction(async (tx) => {
        const hold = await findHold(tx, holdId);
        if (!hold) return;
        await insertSettlement(tx, { workspaceId: ctx.workspaceId, taskId: ctx.taskId, jobId: holdId, kind, amountCents: hold.amountCents, reason: `MCP call ${ref.name}: ${why}` });
      })
      .catch((e) => this.deps.log.warn('could not settle an interrupted MCP call', { call: ctx.idempotencyKey, error: errorMessage(e) }));
  }
}

type ToolRef = {
  serverId: string;
  workspaceId: string;
  serverName: string;
  serverTitle: string;
  version: number;
  tool: PinnedTool;
  name: string;
  safety: McpEffectiveSafety;
  priceCents: number;
};

const keyOf = (s: McpServerRecord) => `${s.id}:${s.version}`;

/** How long a server keeps a call's task (asked at creation; a takeover must find it). */
const TASK_TTL_MS = 24 * 60 * 60 * 1000;

/** The server's task id recorded for a call (TOOL_TASK_STARTED on the task's log), or null. */
async function recordedTask(ctx: ToolContext): Promise<string | null> {
  const rows = await ctx.uow.prisma.taskEvent.findMany({ where: { taskId: ctx.taskId, type: 'TOOL_TASK_STARTED' }, orderBy: { seq: 'desc' }, select: { payload: true } });
  for (const row of rows) {
    // Payloads may be sealed under the task's key (store/sealing): opened to read.
    const p = (await openOne(ctx.uow.prisma, row.payload)).value as { callId?: unknown; mcpTask?: unknown } | null;
    if (p && p.callId === ctx.idempotencyKey && typeof p.mcpTask === 'string') return p.mcpTask;
  }
  return null;
}

/** The texts of the task's language (English when it has none yet). */
async function textsOfTask(db: Db, taskId: string): Promise<Texts> {
  return textsFor((await readTaskBrief(db, taskId)).language);
}

function errorMessage(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The ledger's order id of a priced call: a UUID derived from the call's key (one hold per call). */
export function holdIdOf(callKey: string): string {
  const h = createHash('sha256').update(`mcp-call:${callKey}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-8${h.slice(13, 16)}-${((parseInt(h.slice(16, 18), 16) & 0x3f) | 0x80).toString(16)}${h.slice(18, 20)}-${h.slice(20, 32)}`;
}

/** What differs between the pin and what the server lists now, in words; null when nothing that matters does. */
export function pinDifference(pin: McpPin, observed: McpPin): string | null {
  if (pin.serverName !== observed.serverName) return `server name ${pin.serverName} → ${observed.serverName}`;
  if (pin.serverVersion !== observed.serverVersion) return `version ${pin.serverVersion} → ${observed.serverVersion}`;
  // A pin made before programs were recorded holds none: nothing to compare.
  if (pin.program && observed.program !== pin.program) return 'its program files changed (checksum)';
  const now = new Map(observed.tools.map((t) => [t.name, t]));
  const changed: string[] = [];
  const gone: string[] = [];
  for (const t of pin.tools) {
    const o = now.get(t.name);
    if (!o) gone.push(t.name);
    else if (o.schemaHash !== t.schemaHash) changed.push(t.name);
  }
  // A tool the pin does not know is not offered, so it alone changes nothing.
  const parts = [...(changed.length ? [`changed: ${changed.join(', ')}`] : []), ...(gone.length ? [`removed: ${gone.join(', ')}`] : [])];
  return parts.length ? `tools ${parts.join('; ')}` : null;
}

/** What the model reads of a result: its text, and its structured content when there is some. Binary content is described, not included. */
export function resultForModel(res: CallToolResult, maxText: number): { text: string; structured?: unknown } {
  const parts: string[] = [];
  for (const c of res.content ?? []) {
    if (c.type === 'text') parts.push(c.text);
    else if (c.type === 'image' || c.type === 'audio') parts.push(`[${c.type} ${c.mimeType}, ${Math.round((c.data.length * 3) / 4)} bytes, not shown]`);
    else if (c.type === 'resource_link') parts.push(`[resource ${c.uri}${c.name ? ` “${c.name}”` : ''}]`);
    else if (c.type === 'resource') parts.push('text' in c.resource ? `[resource ${c.resource.uri}]\n${c.resource.text}` : `[resource ${c.resource.uri}, binary, not shown]`);
  }
  let text = parts.join('\n');
  if (text.length > maxText) text = `${text.slice(0, maxText)}\n[… ${text.length - maxText} more characters not shown]`;
  return res.structuredContent !== undefined ? { text, structured: res.structuredContent } : { text };
}

function previewJson(v: unknown): string {
  const s = JSON.stringify(v ?? null);
  return s.length > 4000 ? `${s.slice(0, 4000)}…` : s;
}

/**
 * Progress notifications become TOOL_PROGRESS events on the task: at most one every 500 ms (the
 * last one is always written), in order, all written before the call's outcome.
 */
function progressReporter(ctx: ToolContext, tool: string) {
  let last = 0;
  let pending: { progress: number; total?: number; message?: string } | null = null;
  let chain: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  const write = () => {
    timer = undefined;
    const p = pending;
    pending = null;
    if (!p) return;
    last = Date.now();
    const value = p.total ? Math.min(1, p.progress / p.total) : p.progress;
    chain = chain
      .then(() =>
        transactWithEvents(ctx.uow, async (_tx, emit) => {
          emit(ctx.taskId, { type: 'TOOL_PROGRESS', actor: { kind: 'AGENT' }, payload: { callId: ctx.idempotencyKey, tool, progress: value, ...(p.message ? { message: p.message.slice(0, 500) } : {}) } });
        }),
      )
      .then(
        () => undefined,
        () => undefined,
      );
  };
  return {
    report: (p: { progress: number; total?: number; message?: string }) => {
      pending = p;
      if (timer) return;
      const wait = Math.max(0, 500 - (Date.now() - last));
      if (wait === 0) write();
      else {
        timer = setTimeout(write, wait);
        timer.unref();
      }
    },
    flush: async () => {
      if (timer) {
        clearTimeout(timer);
        write();
      }
      await chain;
    },
  };
}
