// The MCP server registry end to end: the real API on a per-file database and a real MCP server
// over Streamable HTTP on 127.0.0.1 (the SDK's Server in this process), whose version, tools and
// required bearer token each test sets. Registration discovers and pins it; a changed server is
// quarantined with an approval card, and approving that card pins the new version.
import assert from 'node:assert/strict';
import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { ListToolsRequestSchema, CallToolRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { createToken } from '../server/auth/create-token.ts';
import { getMcpServer, listActiveMcpServers, quarantineMcpServer } from '../server/store/mcp/registry.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { toGlobalId } from './helpers/clients.ts';

type Tool = { name: string; description: string; inputSchema: Record<string, unknown>; annotations?: Record<string, boolean> };

/** The MCP server the tests talk to: what it reports is changed between tests. */
const remote = {
  version: '1.0.0',
  token: 'tok-Secret-9f2c1e' as string | null,
  tools: [
    { name: 'search', description: 'Finds documents', inputSchema: { type: 'object', properties: { q: { type: 'string' } } }, annotations: { readOnlyHint: true } },
    { name: 'create_page', description: 'Creates a page', inputSchema: { type: 'object', properties: { title: { type: 'string' } } } },
    { name: 'delete_page', description: 'Deletes a page', inputSchema: { type: 'object', properties: { id: { type: 'string' } } }, annotations: { destructiveHint: true } },
  ] as Tool[],
};

function startRemote(): Promise<{ url: string; close: () => Promise<void> }> {
  const http: HttpServer = createServer(async (req, res) => {
    if (remote.token && req.headers.authorization !== `Bearer ${remote.token}`) {
      res.writeHead(401, { 'content-type': 'application/json' }).end('{"error":"unauthorized"}');
      return;
    }
    // Stateless: a server and transport per request, reporting what `remote` says now.
    const server = new Server({ name: 'docs-tools', version: remote.version }, { capabilities: { tools: {} } });
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: remote.tools }));
    server.setRequestHandler(CallToolRequestSchema, async () => ({ content: [{ type: 'text', text: 'ok' }] }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res);
  });
  return new Promise((resolve) =>
    http.listen(0, '127.0.0.1', () => {
      const { port } = http.address() as AddressInfo;
      resolve({ url: `http://127.0.0.1:${port}/mcp`, close: () => new Promise((r) => http.close(() => r())) });
    }),
  );
}

const SERVER_FIELDS = `id name: slug title transport url trust status quarantineReason version hasAuthSecret priceCentsPerCall domains
  pinnedVersion { serverName serverVersion protocolVersion }
  tools { name: toolName description allowed safety destructive needsApproval priceCents inputSchema overridden }
  history { version change actorKind actor { id } }
  pendingChange { serverVersion changedTools summary approval { id status kind } }`;
const Register = `mutation($i: RegisterMcpServerInput!) { registerMcpServer(input: $i) { server { ${SERVER_FIELDS} } } }`;
const Update = `mutation($i: UpdateMcpServerInput!) { updateMcpServer(input: $i) { server { ${SERVER_FIELDS} } } }`;
const Remove = `mutation($i: RemoveMcpServerInput!) { removeMcpServer(input: $i) { removedServerId } }`;
const Refresh = `mutation($i: RefreshMcpServerInput!) { refreshMcpServer(input: $i) { server { ${SERVER_FIELDS} } } }`;
const List = `query($id: ID!) { workspace(id: $id) { mcpServers { ${SERVER_FIELDS} } } }`;
const Resolve = `mutation($i: ResolveApprovalInput!) { resolveApproval(input: $i) { approval { id status outcome } } }`;

type Res = { status: number; text: string; body: { data?: any; errors?: { message: string; extensions?: { code?: string } }[] } };

describe('MCP server registry', () => {
  let t: TestApp;
  let mcp: { url: string; close: () => Promise<void> };
  let memberToken: string;
  let memberId: string;
  const post = async (query: string, variables: Record<string, unknown>, token: string): Promise<Res> => {
    const r = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const text = await r.text();
    return { status: r.status, text, body: JSON.parse(text) };
  };
  const ok = async (query: string, variables: Record<string, unknown>, token = t.a.ownerToken) => {
    const r = await post(query, variables, token);
    assert.equal(r.body.errors, undefined, JSON.stringify(r.body.errors));
    // The bearer token never appears in any answer.
    assert.ok(!r.text.includes(remote.token ?? 'tok-Secret-9f2c1e') && !r.text.includes('tok-Secret'), 'the token leaked into an answer');
    return r.body.data;
  };
  const codeOf = (r: Res) => r.body.errors?.[0]?.extensions?.code;
  const ws = () => toGlobalId('Workspace', t.a.workspaceId);
  const countServers = () => t.app.deps.prisma.mcpServer.count({ where: { workspaceId: t.a.workspaceId } });
  const register = (name: string, extra: Record<string, unknown> = {}) =>
    ok(Register, { i: { workspaceId: ws(), slug: name, url: mcp.url, authSecret: remote.token, ...extra } }).then((d) => d.registerMcpServer.server);

  before(async () => {
    mcp = await startRemote();
    t = await startTestApp('mcp_registry', { mcp: { stdioCommands: ['/usr/bin/true'] } });
    const prisma = t.app.deps.prisma;
    const member = await prisma.user.create({ data: { email: 'member-a@example.test', name: 'Member A' } });
    await prisma.membership.create({ data: { workspaceId: t.a.workspaceId, userId: member.id, role: 'MEMBER' } });
    memberToken = (await createToken(prisma, { workspaceId: t.a.workspaceId, userId: member.id, name: 'member', scopes: ['READ', 'WRITE', 'APPROVE'] })).token;
    memberId = member.id;
  });
  after(async () => {
    await t?.close();
    await mcp?.close();
  });

  test('registering pins the server version and tools; members read the list; the token is stored sealed', async () => {
    const s = await register('docs');
    assert.equal(s.status, 'ACTIVE');
    assert.equal(s.title, 'docs-tools');
    assert.equal(s.version, 1);
    assert.equal(s.hasAuthSecret, true);
    assert.deepEqual({ ...s.pinnedVersion, protocolVersion: undefined }, { serverName: 'docs-tools', serverVersion: '1.0.0', protocolVersion: undefined });
    assert.ok(s.pinnedVersion.protocolVersion.length > 0);
    assert.deepEqual(
      s.tools.map((x: any) => [x.name, x.allowed, x.safety, x.destructive, x.needsApproval]),
      [
        ['create_page', true, 'AT_MOST_ONCE', false, false],
        ['delete_page', true, 'AT_MOST_ONCE', true, true],
        ['search', true, 'READ_ONLY', false, false],
      ],
    );
    assert.deepEqual(s.tools.find((x: any) => x.name === 'search').inputSchema, remote.tools[0]!.inputSchema);
    assert.deepEqual(s.history.map((h: any) => [h.version, h.change, h.actorKind, h.actor?.id]), [[1, 'registered', 'USER', toGlobalId('User', t.a.ownerId)]]);
    // Readable by a member who is not an owner (and by a viewer), without the token.
    const listed = await ok(List, { id: ws() }, memberToken);
    assert.deepEqual(listed.workspace.mcpServers.map((x: any) => x.name), ['docs']);
    await ok(List, { id: ws() }, t.a.viewerToken);
    // At rest the token is sealed; the runtime's read opens it.
    const row = await t.app.deps.prisma.mcpServer.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, name: 'docs' } });
    assert.ok(row.authSecretCipher && !row.authSecretCipher.includes(remote.token!));
    const versions = await t.app.deps.prisma.mcpServerVersion.findMany({ where: { serverId: row.id } });
    assert.ok(!JSON.stringify(versions).includes(remote.token!), 'the token is not in the history');
    const rec = await getMcpServer(t.app.deps.prisma, t.a.workspaceId, row.id);
    assert.equal(rec?.authSecret, remote.token);
    assert.deepEqual((await listActiveMcpServers(t.app.deps.prisma, t.a.workspaceId)).map((x) => x.name), ['docs']);
    assert.equal(await getMcpServer(t.app.deps.prisma, t.b.workspaceId, row.id), null);
  });

  test('an unreachable server, a wrong token or a taken name is refused with the reason and nothing is stored', async () => {
    const before = await countServers();
    const wrongUrl = await post(Register, { i: { workspaceId: ws(), slug: 'nowhere', url: 'http://127.0.0.1:9/mcp' } }, t.a.ownerToken);
    assert.equal(codeOf(wrongUrl), 'BAD_USER_INPUT');
    assert.match(wrongUrl.body.errors![0]!.message, /could not be reached/);
    const wrongToken = await post(Register, { i: { workspaceId: ws(), slug: 'badtoken', url: mcp.url, authSecret: 'not-the-token' } }, t.a.ownerToken);
    assert.equal(codeOf(wrongToken), 'BAD_USER_INPUT');
    assert.ok(!wrongToken.text.includes('not-the-token'));
    const badName = await post(Register, { i: { workspaceId: ws(), slug: 'Bad-Name', url: mcp.url } }, t.a.ownerToken);
    assert.equal(codeOf(badName), 'BAD_USER_INPUT');
    const plainHttp = await post(Register, { i: { workspaceId: ws(), slug: 'remote', url: 'http://tools.example.com/mcp' } }, t.a.ownerToken);
    assert.equal(codeOf(plainHttp), 'BAD_USER_INPUT');
    const taken = await post(Register, { i: { workspaceId: ws(), slug: 'docs', url: mcp.url, authSecret: remote.token } }, t.a.ownerToken);
    assert.equal(codeOf(taken), 'BAD_USER_INPUT');
    assert.match(taken.body.errors![0]!.message, /already registered/);
    assert.equal(await countServers(), before);
  });

  test('only owners register, change, refresh or remove; other workspaces see nothing', async () => {
    const before = await countServers();
    const byMember = await post(Register, { i: { workspaceId: ws(), slug: 'mine', url: mcp.url, authSecret: remote.token } }, memberToken);
    assert.equal(codeOf(byMember), 'FORBIDDEN');
    assert.equal(await countServers(), before);
    const docs = (await ok(List, { id: ws() })).workspace.mcpServers.find((x: any) => x.name === 'docs');
    for (const [q, i] of [
      [Update, { serverId: docs.id, baseVersion: docs.version, title: 'Mine now' }],
      [Remove, { serverId: docs.id }],
      [Refresh, { serverId: docs.id }],
    ] as const) {
      assert.equal(codeOf(await post(q, { i }, memberToken)), 'FORBIDDEN');
      // Another workspace's owner: the server does not exist for them.
      assert.equal(codeOf(await post(q, { i }, t.b.ownerToken)), 'NOT_FOUND');
    }
    const other = await post(List, { id: ws() }, t.b.ownerToken);
    assert.ok(other.body.errors?.length || other.body.data?.workspace == null);
    const node = await post(`query($id: ID!) { node(id: $id) { id } }`, { id: docs.id }, t.b.ownerToken);
    assert.equal(node.body.data?.node ?? null, null);
    assert.equal((await ok(List, { id: ws() })).workspace.mcpServers.find((x: any) => x.name === 'docs').title, 'docs-tools');
  });

  test('a STDIO command must be on the operator allow-list', async () => {
    const before = await countServers();
    const r = await post(Register, { i: { workspaceId: ws(), slug: 'shell', transport: 'STDIO', command: '/bin/sh', args: ['-c', 'echo hi'] } }, t.a.ownerToken);
    assert.equal(codeOf(r), 'BAD_USER_INPUT');
    assert.match(r.body.errors![0]!.message, /not one the operator allows/);
    const sneaky = await post(Register, { i: { workspaceId: ws(), slug: 'shell', transport: 'STDIO', command: '/tmp/x/true' } }, t.a.ownerToken);
    assert.equal(codeOf(sneaky), 'BAD_USER_INPUT');
    assert.equal(await countServers(), before);
  });

  test('updates: against the current version only, allowed tools must exist, every change is in the history', async () => {
    let s = (await ok(List, { id: ws() })).workspace.mcpServers.find((x: any) => x.name === 'docs');
    const v = s.version;
    s = (
      await ok(Update, {
        i: {
          serverId: s.id,
          baseVersion: v,
          allowedTools: ['search', 'create_page'],
          toolOverrides: [{ tool: 'create_page', safety: 'IDEMPOTENT', priceCents: 7 }],
          priceCentsPerCall: 2,
          trust: 'UNTRUSTED',
        },
      })
    ).updateMcpServer.server;
    assert.equal(s.version, v + 1);
    const byName = Object.fromEntries(s.tools.map((x: any) => [x.name, x]));
    assert.deepEqual([byName.search.allowed, byName.create_page.allowed, byName.delete_page.allowed], [true, true, false]);
    assert.deepEqual([byName.create_page.safety, byName.create_page.overridden, byName.create_page.priceCents], ['IDEMPOTENT', true, 7]);
    assert.equal(byName.search.priceCents, 2);
    // Untrusted: a call that changes something asks first; a read does not.
    assert.deepEqual([byName.create_page.needsApproval, byName.search.needsApproval], [true, false]);
    assert.match(s.history[0].change, /allowed tools: create_page, search/);
    assert.match(s.history[0].change, /trust: not trusted/);

    const stale = await post(Update, { i: { serverId: s.id, baseVersion: v, title: 'Old view' } }, t.a.ownerToken);
    assert.equal(codeOf(stale), 'CONFLICT');
    const unknown = await post(Update, { i: { serverId: s.id, baseVersion: s.version, allowedTools: ['search', 'format_disk'] } }, t.a.ownerToken);
    assert.equal(codeOf(unknown), 'BAD_USER_INPUT');
    assert.match(unknown.body.errors![0]!.message, /format_disk: not a tool of this server/);
    const unknownOverride = await post(Update, { i: { serverId: s.id, baseVersion: s.version, toolOverrides: [{ tool: 'nope', safety: 'READ_ONLY' }] } }, t.a.ownerToken);
    assert.equal(codeOf(unknownOverride), 'BAD_USER_INPUT');
    const after = (await ok(List, { id: ws() })).workspace.mcpServers.find((x: any) => x.name === 'docs');
    assert.equal(after.version, s.version, 'refused changes wrote nothing');

    // The token: set and clear, never shown; turning off and on again.
    let u = (await ok(Update, { i: { serverId: s.id, baseVersion: after.version, clearAuthSecret: true } })).updateMcpServer.server;
    assert.equal(u.hasAuthSecret, false);
    u = (await ok(Update, { i: { serverId: s.id, baseVersion: u.version, authSecret: remote.token } })).updateMcpServer.server;
    assert.equal(u.hasAuthSecret, true);
    u = (await ok(Update, { i: { serverId: s.id, baseVersion: u.version, status: 'DISABLED' } })).updateMcpServer.server;
    assert.equal(u.status, 'DISABLED');
    assert.deepEqual(await listActiveMcpServers(t.app.deps.prisma, t.a.workspaceId), []);
    u = (await ok(Update, { i: { serverId: s.id, baseVersion: u.version, status: 'ACTIVE', allowAllTools: true, trust: 'TRUSTED' } })).updateMcpServer.server;
    assert.equal(u.status, 'ACTIVE');
    assert.deepEqual(
      u.history.slice(0, 4).map((h: any) => h.change),
      ['trust: trusted; allowed tools: all; turned on', 'turned off', 'bearer token set', 'bearer token cleared'],
    );
    assert.deepEqual(u.history.map((h: any) => h.version), Array.from({ length: u.version }, (_, i) => u.version - i));
  });

  test('a changed server is quarantined with a card; approving it pins the new version and makes it active', async () => {
    let s = (await ok(List, { id: ws() })).workspace.mcpServers.find((x: any) => x.name === 'docs');
    // Unchanged: refreshing changes nothing.
    const same = (await ok(Refresh, { i: { serverId: s.id } })).refreshMcpServer.server;
    assert.equal(same.version, s.version);
    assert.equal(same.status, 'ACTIVE');

    remote.version = '1.1.0';
    remote.tools = [...remote.tools.filter((x) => x.name !== 'create_page'), { name: 'create_page', description: 'Creates a page (now with a parent)', inputSchema: { type: 'object', properties: { title: { type: 'string' }, parent: { type: 'string' } } } }];
    s = (await ok(Refresh, { i: { serverId: s.id } })).refreshMcpServer.server;
    assert.equal(s.status, 'QUARANTINED');
    assert.match(s.quarantineReason, /version 1\.0\.0 → 1\.1\.0/);
    assert.deepEqual(s.pendingChange.changedTools, ['create_page']);
    assert.equal(s.pendingChange.serverVersion, '1.1.0');
    assert.equal(s.pinnedVersion.serverVersion, '1.0.0', 'the pin stays until approved');
    assert.equal(s.pendingChange.approval.status, 'PENDING');
    assert.equal(s.pendingChange.approval.kind, 'CHECKPOINT');
    assert.match(s.history[0].change, /^quarantined: version 1\.0\.0 → 1\.1\.0/);
    assert.equal(s.history[0].actorKind, 'SYSTEM');
    assert.deepEqual(await listActiveMcpServers(t.app.deps.prisma, t.a.workspaceId), [], 'a quarantined server offers nothing');
    // The same observation again (a second discovery) files no second card and changes nothing.
    const rec = (await getMcpServer(t.app.deps.prisma, t.a.workspaceId, Buffer.from(s.id, 'base64').toString().split(':')[1]!))!;
    const again = (await ok(Refresh, { i: { serverId: s.id } })).refreshMcpServer.server;
    assert.equal(again.version, s.version);
    await quarantineMcpServer(t.app.deps.prisma, { serverId: rec.id, workspaceId: rec.workspaceId, expectedVersion: rec.version, observed: (await t.app.deps.prisma.mcpServer.findUniqueOrThrow({ where: { id: rec.id } })).observed as any, reason: 'x' });
    const cards = await t.app.deps.prisma.approval.findMany({ where: { workspaceId: t.a.workspaceId, taskId: null, status: 'PENDING' } });
    assert.equal(cards.filter((c) => (c.action as any).serverId === rec.id).length, 1);
    // An edit cannot make it active; only the card can.
    const activate = await post(Update, { i: { serverId: s.id, baseVersion: s.version, status: 'ACTIVE' } }, t.a.ownerToken);
    assert.equal(codeOf(activate), 'BAD_USER_INPUT');

    // A member may approve task cards, but not this one.
    const byMember = await post(Resolve, { i: { approvalId: s.pendingChange.approval.id, decision: 'APPROVE', idempotencyKey: 'm1' } }, memberToken);
    assert.equal(codeOf(byMember), 'FORBIDDEN');
    const approved = (await ok(Resolve, { i: { approvalId: s.pendingChange.approval.id, decision: 'APPROVE', idempotencyKey: 'o1' } })).resolveApproval.approval;
    assert.equal(approved.status, 'APPROVED');
    s = (await ok(List, { id: ws() })).workspace.mcpServers.find((x: any) => x.name === 'docs');
    assert.equal(s.status, 'ACTIVE');
    assert.equal(s.pinnedVersion.serverVersion, '1.1.0');
    assert.equal(s.pendingChange, null);
    assert.equal(s.quarantineReason, null);
    assert.match(s.tools.find((x: any) => x.name === 'create_page').description, /parent/);
    assert.equal(s.history[0].change, 'change approved: now version 1.1.0');
    assert.equal(s.history[0].actor.id, toGlobalId('User', t.a.ownerId));
    assert.deepEqual((await listActiveMcpServers(t.app.deps.prisma, t.a.workspaceId)).map((x) => x.name), ['docs']);
    void memberId;
  });

  test('a rejected change stays quarantined; removing the server removes it with its history', async () => {
    remote.version = '2.0.0';
    let s = (await ok(List, { id: ws() })).workspace.mcpServers.find((x: any) => x.name === 'docs');
    s = (await ok(Refresh, { i: { serverId: s.id } })).refreshMcpServer.server;
    assert.equal(s.status, 'QUARANTINED');
    const rejected = (await ok(Resolve, { i: { approvalId: s.pendingChange.approval.id, decision: 'REJECT', idempotencyKey: 'r1' } })).resolveApproval.approval;
    assert.equal(rejected.status, 'REJECTED');
    s = (await ok(List, { id: ws() })).workspace.mcpServers.find((x: any) => x.name === 'docs');
    assert.equal(s.status, 'QUARANTINED');
    assert.equal(s.pinnedVersion.serverVersion, '1.1.0');
    // The owner may turn it off.
    s = (await ok(Update, { i: { serverId: s.id, baseVersion: s.version, status: 'DISABLED' } })).updateMcpServer.server;
    assert.equal(s.status, 'DISABLED');
    const id = Buffer.from(s.id, 'base64').toString().split(':')[1]!;
    assert.equal((await ok(Remove, { i: { serverId: s.id } })).removeMcpServer.removedServerId, s.id);
    assert.equal(await t.app.deps.prisma.mcpServer.count({ where: { id } }), 0);
    assert.equal(await t.app.deps.prisma.mcpServerVersion.count({ where: { serverId: id } }), 0);
    assert.equal(codeOf(await post(Remove, { i: { serverId: s.id } }, t.a.ownerToken)), 'NOT_FOUND');
  });
});
