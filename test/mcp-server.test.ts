// Atelier as an MCP server (/mcp), through the SDK's own client over Streamable HTTP against the
// real server: discovery and the protected-resource metadata, a 401 that names it, each tool with
// the caller's scopes and workspace, sessions that come and go while the same task is followed, and
// a whole poster task run as an MCP task — input_required while a person decides in GraphQL (the
// mutation the studio uses), then completed with file URLs that download. A second, quiet app
// (no worker) covers the session machinery: a dropped stream resumed with Last-Event-ID, the idle
// sweep, a revoked token ending an open wait, tasks/list pages, another workspace's object, the
// request budget.
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  LATEST_PROTOCOL_VERSION,
  LoggingMessageNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { authenticateToken } from '../server/auth/viewer.ts';
import { appendNow } from '../server/channel/unit-of-work.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { signalTask } from '../server/services/tasks/signal-task.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { createToken } from '../server/auth/create-token.ts';
import { revokeToken } from '../server/auth/revoke-token.ts';
import { posterModel } from './fixtures/poster-plugin.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { toGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';

let t: TestApp;
let filesDir: string;
const clients: Client[] = [];

before(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'atelier-mcp-files-'));
  const scripted = scriptedProvider(posterModel);
  t = await startTestApp(
    'mcpserver',
    { eventPollMs: 500 },
    {
      models: { ...scripted, info: { ...scripted.info, offline: true, description: 'Scripted poster model (test fixture); messages routed by the offline router' } },
      provider: new SimulatedProvider({ filesDir, latencyMs: { IMAGE: 200 } }),
    },
    { worker: { concurrency: 2 } },
  );
});
after(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
  await t?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

async function connect(token: string, url = t.url): Promise<Client> {
  const client = new Client({ name: 'atelier-test', version: '1.0.0' }, { capabilities: {} });
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } });
  await client.connect(transport);
  clients.push(client);
  return client;
}

/**
 * A session spoken to over plain HTTP, for what the SDK's client does for us otherwise (dropping a
 * stream, resuming it, holding a request open): initialize, the initialized notification, then
 * requests on the session.
 */
async function rawSession(url: string, token: string) {
  const base = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` };
  const initialize = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: LATEST_PROTOCOL_VERSION, capabilities: {}, clientInfo: { name: 'raw', version: '1' } } };
  const init = await fetch(`${url}/mcp`, { method: 'POST', headers: base, body: JSON.stringify(initialize) });
  assert.equal(init.status, 200);
  const sid = init.headers.get('mcp-session-id')!;
  await init.text();
  const headers = { ...base, 'mcp-session-id': sid, 'mcp-protocol-version': LATEST_PROTOCOL_VERSION };
  const ack = await fetch(`${url}/mcp`, { method: 'POST', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  assert.equal(ack.status, 202);
  return {
    sid,
    send: (message: unknown, opts: { signal?: AbortSignal } = {}) => fetch(`${url}/mcp`, { method: 'POST', headers, body: JSON.stringify(message), signal: opts.signal }),
    get: (extra: Record<string, string>) => fetch(`${url}/mcp`, { method: 'GET', headers: { ...headers, accept: 'text/event-stream', ...extra } }),
  };
}

type SseEvent = { id: string | null; data: string };

/** Reads an SSE response as it arrives, into `got`; `done` settles when the stream ends or is dropped. */
function collect(res: Response): { got: SseEvent[]; done: Promise<void> } {
  const got: SseEvent[] = [];
  const done = (async () => {
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let buf = '';
    try {
      for (;;) {
        const { value, done: end } = await reader.read();
        if (end) return;
        buf += value;
        for (let i = buf.indexOf('\n\n'); i >= 0; i = buf.indexOf('\n\n')) {
          const block = buf.slice(0, i);
          buf = buf.slice(i + 2);
          let id: string | null = null;
          const data: string[] = [];
          for (const line of block.split('\n')) {
            if (line.startsWith('id:')) id = line.slice(3).trim();
            else if (line.startsWith('data:')) data.push(line.slice(5).trim());
          }
          got.push({ id, data: data.join('\n') });
        }
      }
    } catch {
      // Dropped by the test (abort): what arrived is in `got`.
    }
  })();
  return { got, done };
}
// eslint-disable-next-line @typescript-eslint/no-explicit-any
const messages = (s: { got: SseEvent[] }): any[] => s.got.filter((e) => e.data).map((e) => JSON.parse(e.data));
const texts = (s: { got: SseEvent[] }): string[] =>
  messages(s).filter((m) => m.method === 'notifications/message').map((m) => String(m.params.data.text));

type Structured = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const call = async (c: Client, name: string, args: Record<string, unknown> = {}) => (await c.callTool({ name, arguments: args })) as CallToolResult;
const ok = (r: CallToolResult): Structured => {
  assert.ok(!r.isError, `tool error: ${JSON.stringify(r.content)}`);
  assert.ok(r.structuredContent, 'structured content');
  assert.ok((r.content as { type: string; text: string }[])[0]?.text, 'a short text beside it');
  return r.structuredContent as Structured;
};
const errorCode = (r: CallToolResult) => {
  assert.equal(r.isError, true, `expected a tool error, got ${JSON.stringify(r.structuredContent)}`);
  const text = (r.content as { text: string }[])[0]!.text;
  assert.doesNotMatch(text, /\n\s+at |prisma|SELECT/i, 'no stack, no SQL');
  return (r._meta?.['atelier/error'] as { code: string }).code;
};

/** The GraphQL mutation the studio's card buttons send. */
async function resolveApproval(token: string, approvalId: string, decision: 'APPROVE' | 'PICK', choice?: string) {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      query: 'mutation R($input: ResolveApprovalInput!) { resolveApproval(input: $input) { approval { id status } } }',
      variables: { input: { approvalId, decision, choice, idempotencyKey: `mcp-test-${approvalId}` } },
    }),
  });
  const body = (await res.json()) as { data?: { resolveApproval: { approval: { status: string } } }; errors?: unknown };
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  return body.data!.resolveApproval.approval.status;
}

describe('discovery and authentication', () => {
  test('the protected-resource metadata document (RFC 9728), at both paths', async () => {
    for (const path of ['/.well-known/oauth-protected-resource/mcp', '/.well-known/oauth-protected-resource']) {
      const res = await fetch(`${t.url}${path}`);
      assert.equal(res.status, 200);
      const doc = (await res.json()) as Record<string, unknown>;
      assert.equal(doc.resource, `${t.url}/mcp`);
      assert.deepEqual(doc.bearer_methods_supported, ['header']);
      assert.deepEqual(doc.scopes_supported, ['read', 'write', 'approve']);
      assert.equal(typeof doc.resource_name, 'string');
      assert.equal(doc.authorization_servers, undefined, 'no authorization server is claimed');
      assert.match(String(doc.description), /npm run atelier -- token/);
      const docs = await fetch(String(doc.resource_documentation));
      assert.equal(docs.status, 200);
      assert.match(await docs.text(), /create_task/);
    }
  });

  test('no token or a bad one: 401 with the challenge naming the metadata; nothing else answers', async () => {
    const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    for (const auth of [undefined, 'Bearer atl_not-a-real-token', 'Bearer garbage']) {
      const res = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify(init),
      });
      assert.equal(res.status, 401);
      const h = res.headers.get('www-authenticate') ?? '';
      assert.match(h, new RegExp(`^Bearer resource_metadata="${t.url}/\\.well-known/oauth-protected-resource/mcp"`));
      assert.equal(/invalid_token/.test(h), auth !== undefined);
      assert.equal(res.headers.get('mcp-session-id'), null);
    }
    // The SDK's client meets the same refusal.
    await assert.rejects(connect('atl_wrong'), /UNAUTHENTICATED/);
  });

  test("a browser page of another origin is refused (DNS rebinding); the server's own origin is not", async () => {
    const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${t.a.ownerToken}` };
    const evil = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { ...headers, origin: 'http://evil.example' }, body });
    assert.equal(evil.status, 403);
    // Not even a session is opened for it, valid token or not.
    const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
    const opened = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { ...headers, origin: 'http://localhost.evil.example' }, body: JSON.stringify(initialize) });
    assert.equal(opened.status, 403);
    assert.equal(opened.headers.get('mcp-session-id'), null);
    assert.equal(opened.headers.get('access-control-allow-origin'), null, 'no CORS grant to the foreign page');
    const own = await fetch(`${t.url}/mcp`, { method: 'POST', headers: { ...headers, origin: t.url }, body });
    assert.notEqual(own.status, 403, 'the own origin passes the origin check (then needs a session)');
    // DNS rebinding proper: a page of evil.example whose name resolves to this server — the browser
    // sends Host and Origin both evil.example, "same origin" to a check that compares the two.
    const port = new URL(t.url).port;
    const status = await new Promise<number>((resolve, reject) => {
      const req = httpRequest(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', headers: { ...headers, host: `evil.example:${port}`, origin: `http://evil.example:${port}` } },
        (res) => (res.resume(), resolve(res.statusCode ?? 0)),
      );
      req.on('error', reject);
      req.end(body);
    });
    assert.equal(status, 403, 'a host this server is not known by is refused to browsers');
  });
});

describe('tools', () => {
  let c: Client;
  let taskId: string;
  before(async () => {
    c = await connect(t.a.ownerToken);
  });

  test('initialize and tools/list: every tool with schemas and honest annotations', async () => {
    assert.equal(c.getServerVersion()?.name, 'atelier');
    const caps = c.getServerCapabilities();
    assert.ok(caps?.tools && caps.resources && caps.tasks?.requests?.tools?.call, 'tools, resources and task-augmented tools/call');
    const { tools } = await c.listTools();
    const by = new Map(tools.map((x) => [x.name, x]));
    assert.deepEqual([...by.keys()].sort(), ['cancel_task', 'create_task', 'get_task', 'list_pending_cards', 'list_tasks', 'read_events', 'send_message', 'signal_task']);
    for (const name of ['get_task', 'list_tasks', 'list_pending_cards', 'read_events']) {
      assert.equal(by.get(name)!.annotations?.readOnlyHint, true, `${name} is read-only`);
    }
    for (const name of ['send_message', 'create_task', 'signal_task', 'cancel_task']) assert.equal(by.get(name)!.annotations?.readOnlyHint, false);
    assert.equal(by.get('cancel_task')!.annotations?.destructiveHint, true);
    assert.equal(by.get('cancel_task')!.annotations?.idempotentHint, true);
    assert.equal(by.get('create_task')!.annotations?.destructiveHint, false);
    assert.equal(by.get('create_task')!.execution?.taskSupport, 'optional');
    assert.equal(by.get('send_message')!.execution?.taskSupport, 'optional');
    assert.equal(by.get('get_task')!.execution?.taskSupport, 'forbidden');
    for (const x of tools) {
      assert.equal(x.inputSchema.type, 'object');
      assert.equal(x.outputSchema?.type, 'object', `${x.name} has an output schema`);
      assert.ok(x.description && x.description.length > 20);
    }
    assert.ok(!tools.some((x) => /resolve|approve/i.test(x.name)), 'no tool resolves an approval');
  });

  test('create_task, get_task, list_tasks: global ids, status in words, the checklist', async () => {
    const created = ok(await call(c, 'create_task', { title: 'Poster for the spring fair', goal: 'three retro posters for a coffee brand', idempotencyKey: 'mcp-1' }));
    taskId = created.task.id;
    assert.equal(Buffer.from(taskId, 'base64').toString().split(':')[0], 'Task', 'a global id');
    const again = ok(await call(c, 'create_task', { title: 'Poster for the spring fair', goal: 'three retro posters for a coffee brand', idempotencyKey: 'mcp-1' }));
    assert.equal(again.task.id, taskId, 'the same key returns the same task');
    // The poster agent plans and waits for the plan's approval.
    const waiting = await waitFor(async () => {
      const s = ok(await call(c, 'get_task', { taskId })).task;
      return s.pendingCards.length > 0 && s.status === 'WAITING' ? s : null;
    }, 'the plan card', { timeoutMs: 30_000, intervalMs: 100 });
    assert.match(waiting.statusText, /^Needs a person's decision in Atelier: /);
    assert.equal(waiting.checklist.total, 3);
    assert.equal(waiting.pendingCards[0].kind, 'PLAN');
    const list = ok(await call(c, 'list_tasks', { first: 10 }));
    assert.ok(list.tasks.some((x: Structured) => x.id === taskId && /Needs a person/.test(x.statusText)));
  });

  test('list_pending_cards shows the cards, read-only; read_events pages with typed fields', async () => {
    const { cards } = ok(await call(c, 'list_pending_cards', { taskId }));
    assert.equal(cards.length, 1);
    assert.equal(cards[0].taskId, taskId);
    const first = ok(await call(c, 'read_events', { taskId, first: 2 }));
    assert.deepEqual(first.events.map((e: Structured) => e.seq), [1, 2]);
    assert.equal(first.events[0].type, 'TASK_CREATED');
    assert.equal(first.events[0].fields.title, 'Poster for the spring fair');
    assert.equal(first.hasMore, true);
    const rest = ok(await call(c, 'read_events', { taskId, afterSeq: first.lastSeq }));
    assert.equal(rest.events[0].seq, 3, 'resumes right after the cursor');
    const milestones = ok(await call(c, 'read_events', { taskId, milestonesOnly: true }));
    assert.ok(milestones.events.every((e: Structured) => e.visibility === 'MILESTONE'));
    const ws = ok(await call(c, 'read_events', { first: 500 }));
    assert.ok(ws.events.some((e: Structured) => e.taskId === taskId));
    const more = ok(await call(c, 'read_events', { after: ws.events[0].cursor, first: 1 }));
    assert.deepEqual(more.events.map((e: Structured) => e.cursor), [ws.events[1].cursor], 'the workspace cursor resumes after its event');
  });

  test('send_message says where the message went', async () => {
    const sent = ok(await call(c, 'send_message', { text: 'compose a short jingle for a radio spot', idempotencyKey: 'mcp-msg-1' }));
    assert.ok(sent.task, 'it reached a task');
    assert.match(sent.routedTo, /task “/);
    assert.equal(typeof sent.messageId, 'string');
    const jingle = sent.task.id;
    const paused = ok(await call(c, 'signal_task', { taskId: jingle, signal: 'PAUSE', reason: 'later' }));
    assert.equal(paused.task.status, 'PAUSED');
    const ctx = ok(await call(c, 'signal_task', { taskId: jingle, signal: 'ADD_CONTEXT', text: 'thirty seconds long' }));
    assert.equal(ctx.task.status, 'PAUSED', 'context waits in the inbox of a paused task');
    const cancelled = ok(await call(c, 'cancel_task', { taskId: jingle, reason: 'not needed' }));
    assert.equal(cancelled.task.status, 'CANCELLED');
    assert.equal(ok(await call(c, 'cancel_task', { taskId: jingle })).task.status, 'CANCELLED', 'cancel is idempotent');
    assert.equal(errorCode(await call(c, 'signal_task', { taskId: jingle, signal: 'RESUME' })), 'CONFLICT', 'an ended task takes no signal');
  });

  test('a token without the write scope: FORBIDDEN; it still reads', async () => {
    const reader = await connect(t.a.readToken);
    assert.equal(errorCode(await call(reader, 'create_task', { title: 'nope' })), 'FORBIDDEN');
    assert.equal(errorCode(await call(reader, 'signal_task', { taskId, signal: 'PAUSE' })), 'FORBIDDEN');
    assert.equal(errorCode(await call(reader, 'send_message', { text: 'hello there' })), 'FORBIDDEN');
    assert.equal(ok(await call(reader, 'get_task', { taskId })).task.id, taskId);
  });

  test("another workspace's ids are NOT_FOUND; bad ids and bad input are BAD_USER_INPUT, changing nothing", async () => {
    const other = await connect(t.b.ownerToken);
    assert.equal(errorCode(await call(other, 'get_task', { taskId })), 'NOT_FOUND');
    assert.equal(errorCode(await call(other, 'cancel_task', { taskId })), 'NOT_FOUND');
    assert.equal(errorCode(await call(other, 'read_events', { taskId })), 'NOT_FOUND');
    assert.equal(errorCode(await call(other, 'list_pending_cards', { taskId })), 'NOT_FOUND');
    await assert.rejects(other.readResource({ uri: `atelier://tasks/${taskId}` }), /NOT_FOUND/);
    assert.equal(errorCode(await call(c, 'get_task', { taskId: 'nope' })), 'BAD_USER_INPUT');
    assert.equal(errorCode(await call(c, 'get_task', { taskId: toGlobalId('WorkspaceObject', t.a.workspaceId) })), 'BAD_USER_INPUT');
    assert.equal(errorCode(await call(c, 'signal_task', { taskId, signal: 'REVISE' })), 'BAD_USER_INPUT', 'REVISE needs text');
    const before = await t.app.deps.prisma.task.count();
    assert.equal(errorCode(await call(c, 'create_task', { title: '' })), 'BAD_USER_INPUT');
    assert.equal(await t.app.deps.prisma.task.count(), before);
  });

  test('resources: tasks and objects by URI, listed and read with the same permissions', async () => {
    const { resourceTemplates } = await c.listResourceTemplates();
    assert.deepEqual(resourceTemplates.map((r) => r.uriTemplate).sort(), ['atelier://objects/{objectId}', 'atelier://tasks/{taskId}']);
    const { resources } = await c.listResources();
    const uri = `atelier://tasks/${taskId}`;
    assert.ok(resources.some((r) => r.uri === uri));
    const read = await c.readResource({ uri });
    assert.equal(JSON.parse((read.contents[0] as { text: string }).text).id, taskId);
  });
});

describe('MCP tasks', () => {
  test('a whole poster task: working → input_required while a person decides → completed, with files that download', async () => {
    const c = await connect(t.a.ownerToken);
    const logs: string[] = [];
    c.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(String((n.params.data as { text?: string }).text));
    });
    const created = await c.request(
      { method: 'tools/call', params: { name: 'create_task', arguments: { title: 'Coffee posters', goal: 'make three retro posters for a coffee brand' }, task: { ttl: 600_000 } } },
      CreateTaskResultSchema,
    );
    const mcpTaskId = created.task.taskId;
    assert.equal(Buffer.from(mcpTaskId, 'base64').toString().split(':')[0], 'Task', 'the MCP task id is the Atelier task id');
    assert.equal(created.task.status, 'working');
    assert.equal(created.task.ttl, null);

    // The plan waits for a person: input_required. The person answers in the studio (GraphQL).
    const status = async (client: Client) => (await client.experimental.tasks.getTask(mcpTaskId)).status;
    await waitFor(async () => (await status(c)) === 'input_required', 'input_required for the plan', { timeoutMs: 30_000, intervalMs: 100 });
    const plan = ok(await call(c, 'list_pending_cards', { taskId: mcpTaskId })).cards[0];
    assert.equal(plan.kind, 'PLAN');
    assert.equal(await resolveApproval(t.a.ownerToken, plan.id, 'APPROVE'), 'APPROVED');

    // Disconnect; a new session polls the same task and follows it to the pick.
    await c.close();
    const c2 = await connect(t.a.ownerToken);
    c2.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      logs.push(String((n.params.data as { text?: string }).text));
    });
    const pick = await waitFor(
      async () => {
        const task = await c2.experimental.tasks.getTask(mcpTaskId);
        if (task.status !== 'input_required') return null;
        return ok(await call(c2, 'list_pending_cards', { taskId: mcpTaskId })).cards.find((x: Structured) => x.kind === 'CHECKPOINT') ?? null;
      },
      'input_required for the pick',
      { timeoutMs: 60_000, intervalMs: 200 },
    );
    assert.deepEqual(pick.options.map((o: Structured) => o.id), ['sunburst', 'diner', 'atomic']);
    const listed = await c2.experimental.tasks.listTasks();
    assert.ok(listed.tasks.some((x) => x.taskId === mcpTaskId && x.status === 'input_required'));

    // tasks/result waits until the end, streaming milestones while the person picks and the series runs.
    const progress: number[] = [];
    const result = c2.experimental.tasks.getTaskResult(mcpTaskId, CallToolResultSchema, {
      timeout: 120_000,
      onprogress: (p) => {
        progress.push(p.progress);
      },
    });
    assert.equal(await resolveApproval(t.a.ownerToken, pick.id, 'PICK', 'diner'), 'APPROVED');
    const done = (await result) as CallToolResult;
    assert.equal(done.isError, undefined);
    const task = (done.structuredContent as Structured).task;
    assert.equal(task.status, 'COMPLETED');
    assert.equal(await status(c2), 'completed');
    assert.equal(task.checklist.done, 3);
    assert.ok(logs.length > 0, 'milestones streamed while waiting');
    assert.ok(progress.length > 0 && progress.every((x, i) => i === 0 || x > progress[i - 1]!), `progress notifications, increasing: ${progress}`);
    assert.ok(logs.some((l) => /COMPLETED|delivered/i.test(l)), `the end among the milestones: ${logs.join(' | ')}`);
    const files = task.results.filter((r: Structured) => r.file?.url);
    assert.equal(files.length, 6, 'three candidates and the series of three');
    for (const r of files.slice(0, 2)) {
      const res = await fetch(r.file.url);
      assert.equal(res.status, 200, 'the signed URL downloads without a token');
      assert.match(res.headers.get('content-type') ?? '', /^image\//);
      assert.ok((await res.arrayBuffer()).byteLength > 0);
    }
    // A result is a resource too.
    const object = await c2.readResource({ uri: `atelier://objects/${files[0].objectId}` });
    assert.equal(JSON.parse((object.contents[0] as { text: string }).text).file.name, files[0].file.name);
  });

  test('tasks/cancel cancels the Atelier task; a session belongs to its token; a lost session is 404', async () => {
    const c = await connect(t.a.ownerToken);
    const created = await c.request(
      { method: 'tools/call', params: { name: 'send_message', arguments: { text: 'make a poster series for the autumn tea festival' }, task: {} } },
      CreateTaskResultSchema,
    );
    const id = created.task.taskId;
    const cancelled = await c.experimental.tasks.cancelTask(id);
    assert.equal(cancelled.status, 'cancelled');
    const row = await t.app.deps.prisma.task.findUniqueOrThrow({ where: { id: Buffer.from(id, 'base64').toString().split(':')[1]! } });
    assert.equal(row.status, 'CANCELLED');
    await assert.rejects(c.experimental.tasks.cancelTask(id), /terminal/);

    // Another token presenting this session's id finds nothing; so does an unknown id.
    const sessionId = (c.transport as StreamableHTTPClientTransport).sessionId!;
    const token2 = (await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'other', scopes: ['READ', 'WRITE'] })).token;
    for (const [sid, token] of [[sessionId, token2], ['00000000-0000-4000-8000-000000000000', t.a.ownerToken]] as const) {
      const res = await fetch(`${t.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      assert.equal(res.status, 404);
    }
    // Nor can it close the session; its own token still reaches it.
    const headers = (token: string) => ({ accept: 'application/json, text/event-stream', authorization: `Bearer ${token}`, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' });
    assert.equal((await fetch(`${t.url}/mcp`, { method: 'DELETE', headers: headers(token2) })).status, 404);
    assert.equal((await fetch(`${t.url}/mcp`, { method: 'GET', headers: headers(token2) })).status, 404);
    assert.ok(ok(await call(c, 'get_task', { taskId: id })).task.id, 'the session lives on for its own token');
    // Another workspace cannot see or cancel the task.
    const other = await connect(t.b.ownerToken);
    await assert.rejects(other.experimental.tasks.getTask(id), /not found/i);
  });

  test('a revoked token stops working on its open session at the next request', async () => {
    const token = (await createToken(t.app.deps.prisma, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, name: 'revoked', scopes: ['READ'] })).token;
    const c = await connect(token);
    ok(await call(c, 'list_tasks'));
    await revokeToken(t.app.deps.prisma, token);
    await assert.rejects(call(c, 'list_tasks'), /UNAUTHENTICATED|Invalid or revoked token/);
  });
});

// A second app for what needs its own settings or a quiet workspace: no worker (a task stays QUEUED
// and appends nothing by itself), a short idle time, a fast token re-check, a small request budget,
// and a log the test reads.
describe('sessions, streams and limits', () => {
  let small: TestApp;
  const logged: { msg: string; fields?: Record<string, unknown> }[] = [];
  const record = (msg: string, fields?: Record<string, unknown>) => void logged.push({ msg, fields });
  before(async () => {
    small = await startTestApp(
      'mcpserversmall',
      { rateLimitPerMinute: 20, mcpSessionIdleMs: 1500, wsReauthMs: 200 },
      { log: { debug: record, info: record, warn: record, error: record } },
    );
  });
  after(async () => {
    await small?.close();
  });

  const newToken = async (name: string, scopes: ('READ' | 'WRITE')[] = ['READ', 'WRITE']) =>
    (await createToken(small.app.deps.prisma, { workspaceId: small.a.workspaceId, userId: small.a.ownerId, name, scopes })).token;
  const quietTask = async (title: string) => {
    const viewer = await authenticateToken(small.app.deps.prisma, small.a.ownerToken);
    return createTask(small.app.deps, viewer, { workspaceId: small.a.workspaceId, title, goal: 'stays queued: this app runs no worker' });
  };
  const milestone = (taskId: string, summary: string) =>
    appendNow(small.app.deps, taskId, [{ type: 'TASK_UPDATED', actor: { kind: 'SYSTEM' }, payload: { summary } }]);
  const cancel = async (taskId: string) => {
    const viewer = await authenticateToken(small.app.deps.prisma, small.a.ownerToken);
    await signalTask(small.app.deps, viewer, { taskId, signal: 'CANCEL', reason: 'test over' });
  };

  test('a dropped tasks/result stream resumes with Last-Event-ID: every message arrives once, in order', async () => {
    const s = await rawSession(small.url, await newToken('resume'));
    const task = await quietTask('Resumed follow');
    const ac = new AbortController();
    const res = await s.send({ jsonrpc: '2.0', id: 7, method: 'tasks/result', params: { taskId: toGlobalId('Task', task.id) } }, { signal: ac.signal });
    assert.equal(res.status, 200);
    const first = collect(res);
    // The request reaches the handler asynchronously: warm-up milestones until one streams.
    let n = 0;
    await waitFor(async () => texts(first).some((x) => x.includes('warm-up')) || (await milestone(task.id, `warm-up ${n++}`), false), 'the wait streaming', { intervalMs: 50 });
    await milestone(task.id, 'resume A');
    await waitFor(() => texts(first).some((x) => x.includes('resume A')), 'A on the first connection');
    ac.abort();
    await first.done;
    const lastEventId = first.got.filter((e) => e.id).at(-1)!.id!;
    // The client stays away past the idle period: a session opened after the drop, holding nothing,
    // is swept; this one is not, because its wait still runs.
    const control = await rawSession(small.url, await newToken('resume-control'));
    await waitFor(() => logged.some((l) => l.msg === 'mcp session closed after idle time' && l.fields?.sessionId === control.sid), 'a sweep past the drop', { timeoutMs: 15_000 });
    assert.ok(!logged.some((l) => l.msg === 'mcp session closed after idle time' && l.fields?.sessionId === s.sid), 'the session with a wait running is kept while its client is away');

    // While the client is away the task moves on and ends: the server keeps what it sends.
    await milestone(task.id, 'resume B');
    await milestone(task.id, 'resume C');
    await cancel(task.id);

    // Resume (409 while the server has not yet seen the old connection close).
    const resumed = await waitFor(async () => {
      const r = await s.get({ 'last-event-id': lastEventId });
      if (r.status === 409) return void (await r.body?.cancel());
      return r;
    }, 'the resumed stream');
    assert.equal(resumed.status, 200);
    const second = collect(resumed);
    await waitFor(() => messages(second).some((m) => m.id === 7), 'the result on the resumed stream');
    await resumed.body?.cancel().catch(() => {});

    const all = [...first.got, ...second.got].filter((e) => e.data);
    const ids = all.map((e) => e.id);
    assert.equal(new Set(ids).size, ids.length, 'no event id twice');
    const said = [...texts(first), ...texts(second)].filter((x) => /resume [ABC]|CANCELLED/.test(x));
    assert.deepEqual(
      said.map((x) => /resume ([ABC])/.exec(x)?.[1] ?? 'ended'),
      ['A', 'B', 'C', 'ended'],
      `each milestone once, in order: ${said.join(' | ')}`,
    );
    const results = [...messages(first), ...messages(second)].filter((m) => m.id === 7);
    assert.equal(results.length, 1, 'the result once');
    assert.equal(results[0].result.structuredContent.task.status, 'CANCELLED');
  });

  test('an idle session is closed (ATELIER_MCP_SESSION_IDLE_MS); one with a request open is kept', async () => {
    const task = await quietTask('Held open');
    const token = await newToken('idle');
    // Session B holds a tasks/result wait open; session A, opened after it, is left alone.
    const b = await rawSession(small.url, token);
    const hold = new AbortController();
    const waiting = await b.send({ jsonrpc: '2.0', id: 1, method: 'tasks/result', params: { taskId: toGlobalId('Task', task.id) } }, { signal: hold.signal });
    assert.equal(waiting.status, 200);
    const a = await rawSession(small.url, token);
    await waitFor(() => logged.some((l) => l.msg === 'mcp session closed after idle time' && l.fields?.sessionId === a.sid), 'the idle sweep', { timeoutMs: 10_000 });
    assert.ok(!logged.some((l) => l.fields?.sessionId === b.sid), 'B is not swept');
    const gone = await a.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    assert.equal(gone.status, 404, 'the idle session is gone: its client starts a new one');
    const kept = await b.send({ jsonrpc: '2.0', id: 3, method: 'ping' });
    assert.equal(kept.status, 200, 'the session with a wait open is kept, however long it waits');
    await kept.body?.cancel();
    hold.abort();
    await cancel(task.id);
  });

  test('a revoked token ends a tasks/result wait already open on its session', async () => {
    const token = await newToken('revoked-wait', ['READ']);
    const s = await rawSession(small.url, token);
    const task = await quietTask('Followed, then revoked');
    const res = await s.send({ jsonrpc: '2.0', id: 9, method: 'tasks/result', params: { taskId: toGlobalId('Task', task.id) } });
    const stream = collect(res);
    await revokeToken(small.app.deps.prisma, token);
    const answer = await waitFor(() => messages(stream).find((m) => m.id === 9), 'the wait refused', { timeoutMs: 10_000 });
    assert.match(answer.error?.message ?? '', /UNAUTHENTICATED/, JSON.stringify(answer));
    assert.equal(answer.result, undefined);
    await cancel(task.id);
  });

  test('tasks/list pages with its cursor: every task once', async () => {
    const viewer = await authenticateToken(small.app.deps.prisma, small.b.ownerToken);
    for (let i = 0; i < 52; i++) await createTask(small.app.deps, viewer, { workspaceId: small.b.workspaceId, title: `Listed ${i}`, goal: 'paged' });
    const c = await connect(small.b.ownerToken, small.url);
    const page1 = await c.experimental.tasks.listTasks();
    assert.equal(page1.tasks.length, 50);
    assert.ok(page1.nextCursor, 'a cursor to the next page');
    const page2 = await c.experimental.tasks.listTasks(page1.nextCursor);
    assert.equal(page2.nextCursor, undefined, 'the last page');
    const ids = [...page1.tasks, ...page2.tasks].map((x) => x.taskId);
    assert.equal(new Set(ids).size, ids.length, 'no task twice');
    const stored = await small.app.deps.prisma.task.findMany({ where: { workspaceId: small.b.workspaceId }, select: { id: true } });
    assert.deepEqual(ids.sort(), stored.map((x) => toGlobalId('Task', x.id)).sort(), 'every task of the workspace, none of another');
    assert.ok(page1.tasks.every((x) => x.status === 'working'));
  });

  test("resources/read of another workspace's object: not found, as if it did not exist", async () => {
    const res = await fetch(`${small.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${small.a.ownerToken}` },
      body: JSON.stringify({
        query: 'mutation($input: CreateObjectInput!) { createObject(input: $input) { object { id } } }',
        variables: { input: { workspaceId: toGlobalId('Workspace', small.a.workspaceId), kind: 'DOCUMENT', title: 'Private brief', content: { markdown: '# Only for A' }, idempotencyKey: 'mcp-object-a' } },
      }),
    });
    const body = (await res.json()) as { data?: { createObject: { object: { id: string } } }; errors?: unknown };
    assert.equal(body.errors, undefined, JSON.stringify(body.errors));
    const uri = `atelier://objects/${body.data!.createObject.object.id}`;
    const own = await connect(small.a.ownerToken, small.url);
    const read = await own.readResource({ uri });
    assert.equal((read.contents.find((x) => x.mimeType === 'text/markdown') as { text?: string } | undefined)?.text, '# Only for A');
    const other = await connect(small.b.ownerToken, small.url);
    await assert.rejects(other.readResource({ uri }), (e: Error) => /NOT_FOUND/.test(e.message) && !/Only for A|Private brief/.test(e.message));
  });

  test('each token has a request budget: past it, 429 with Retry-After', async () => {
    const token = await newToken('budget', ['READ']);
    const post = () =>
      fetch(`${small.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
    for (let i = 0; i < 20; i++) assert.notEqual((await post()).status, 429);
    const refused = await post();
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(((await refused.json()) as { error: { data: { code: string } } }).error.data.code, 'RATE_LIMITED');
    // The budget is the token's: another token of the same workspace is not refused.
    const other = await newToken('budget-2', ['READ']);
    const res = await fetch(`${small.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${other}` },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    assert.notEqual(res.status, 429);
  });
});
