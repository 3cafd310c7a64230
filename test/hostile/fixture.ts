// Set-up shared by the hostile-input tests: two tasks, messages (evidence, memories), a document, a
// flow, a pending approval and an approved forgetting in one workspace, a task in another, and the
// schema introspected.
import { buildClientSchema, getIntrospectionQuery, type IntrospectionQuery } from 'graphql';
import { extractPending } from '../../server/services/memory/extract-memories.ts';
import { startTestApp } from '../helpers/app.ts';
import { toGlobalId } from '../helpers/clients.ts';
import { startMcpTestServer, type McpTestServer } from '../fixtures/mcp-test-server.ts';
import { agent, mcp, schedule, setApp, setSeeded, t } from './state.ts';
import { http } from './transport.ts';

async function ok(query: string, variables: Record<string, unknown> = {}, token = t.a.ownerToken): Promise<any> {
  const r = await http(query, variables, token);
  if (r.errors.length || !r.data) throw new Error(`set-up failed: ${JSON.stringify(r.errors)} ${r.unparsable ?? ''}`);
  return r.data;
}

/** Starts the app and seeds it; every hostile-input test file runs this in its `before` hook. */
let mcpServer: McpTestServer | undefined;

export async function setUpHostile(): Promise<void> {
  setApp(await startTestApp('hostile', { rateLimitPerMinute: 1_000_000 }));
  // A real MCP server for the registry's mutations (registering one connects to it).
  mcpServer = await startMcpTestServer();
  mcp.url = mcpServer.url;
  const wsGid = toGlobalId('Workspace', t.a.workspaceId);
  const mkTask = async (title: string, token = t.a.ownerToken, ws = wsGid) =>
    (await ok(`mutation($i: CreateTaskInput!) { createTask(input: $i) { task { id } } }`, { i: { workspaceId: ws, title } }, token)).createTask.task.id as string;
  const task = await mkTask('Autumn poster');
  const task2 = await mkTask('Spring poster');
  const otherWorkspaceTask = await mkTask('beta secret', t.b.ownerToken, toGlobalId('Workspace', t.b.workspaceId));
  const sent = await ok(
    `mutation($i: SendMessageInput!) { sendMessage(input: $i) { message { id } } }`,
    { i: { workspaceId: wsGid, taskId: task, text: 'I live in Quorvia.', idempotencyKey: 'seed-1' } },
  );
  await ok(
    `mutation($i: SendMessageInput!) { sendMessage(input: $i) { message { id } } }`,
    { i: { workspaceId: wsGid, taskId: task2, text: 'Our brand color is ochre.', idempotencyKey: 'seed-2' } },
  );
  await extractPending(t.app.deps.memory, t.a.workspaceId, t.a.ownerId);
  const create = async (kind: string, name: string, content: unknown) =>
    (await ok(`mutation($i: CreateObjectInput!) { createObject(input: $i) { object { id } } }`, { i: { workspaceId: wsGid, kind, name, content } })).createObject.object.id as string;
  const doc = await create('DOCUMENT', 'Brief', { markdown: 'hello world' });
  const flow = await create('FLOW', 'Pipeline', { nodes: [{ id: 'a', kind: 'note' }], edges: [] });
  const doomed = await create('DOCUMENT', 'Old draft', { markdown: 'bye' });
  const del = await ok(`mutation($id: ID!) { deleteObject(objectId: $id) { approvalId } }`, { id: doomed });
  const thread = (await ok(`query($id: ID!) { workspace(id: $id) { mainThread { id } } }`, { id: wsGid })).workspace.mainThread.id as string;
  const p = t.app.deps.prisma;
  const memory = await p.memory.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, subjectKey: { not: 'brand.colors' } } });
  // An approved forgetting (of the brand colour), for redactWorks' valid call.
  const brand = await p.memory.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, subjectKey: 'brand.colors' } });
  const forget = await ok(`mutation($i: ForgetMemoryInput!) { forgetMemory(input: $i) { approval { id } } }`, { i: { memoryId: toGlobalId('Memory', brand.id) } });
  await ok(`mutation($i: ResolveApprovalInput!) { resolveApproval(input: $i) { approval { id } } }`, {
    i: { approvalId: forget.forgetMemory.approval.id, decision: 'APPROVE', idempotencyKey: 'seed-forget' },
  });
  const evidence = await p.memoryEvidence.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId } });
  const checklistVersion = (await ok(`query($id: ID!) { task(id: $id) { checklist { version } } }`, { id: task })).task.checklist?.version ?? 0;
  // An open card in the owner's thread (a question about a message), for answerCard's valid call.
  const threadId = Buffer.from(thread, 'base64').toString('utf8').split(':')[1]!;
  const asked = await p.message.create({ data: { threadId, workspaceId: t.a.workspaceId, authorUserId: t.a.ownerId, role: 'USER', text: 'a poster for the fair' } });
  const card = await p.card.create({
    data: { workspaceId: t.a.workspaceId, threadId, messageId: asked.id, kind: 'CLARIFY', prompt: 'Which task is this for?', options: [{ id: 'new', label: 'Start a new task', taskId: null, action: 'create' }] },
  });
  // A webhook endpoint (nothing listens on port 9, and this app runs no worker to send) and a delivery.
  const hook = await ok(`mutation($i: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $i) { endpoint { id } } }`, { i: { workspaceId: wsGid, url: 'http://127.0.0.1:9/hook' } });
  const hookId = hook.createWebhookEndpoint.endpoint.id as string;
  const ping = await ok(`mutation($i: SendTestWebhookInput!) { sendTestWebhook(input: $i) { delivery { id } } }`, { i: { endpointId: hookId } });
  const registered = await ok(`mutation($i: RegisterMcpServerInput!) { registerMcpServer(input: $i) { server { id version } } }`, { i: { workspaceId: wsGid, slug: 'seeded', url: mcp.url } });
  mcp.version = registered.registerMcpServer.server.version as number;
  // An allowed host (revokeEgressHost's valid target).
  const allowed = await ok(`mutation($i: AllowEgressHostInput!) { allowEgressHost(input: $i) { entry { id } } }`, { i: { workspaceId: wsGid, host: 'seeded.example' } });
  // A registered remote agent (removeRemoteAgent's valid target).
  const remote = await ok(`mutation($i: RegisterRemoteAgentInput!) { registerRemoteAgent(input: $i) { remoteAgent { id } } }`, {
    i: { workspaceId: wsGid, name: 'seeded', url: 'https://agents.example.com', jwksUrl: 'https://agents.example.com/.well-known/jwks.json' },
  });
  // The workspace's main agent (created on first read), for the agent principal mutations.
  const agents = await ok(`query($id: ID!) { workspace(id: $id) { agents { id version } } }`, { id: wsGid });
  agent.version = agents.workspace.agents[0].version as number;
  // A schedule (for the schedule mutations; deleteSchedule's valid call runs last).
  const scheduled = await ok(`mutation($i: CreateScheduleInput!) { createSchedule(input: $i) { schedule { id version } } }`, {
    i: { workspaceId: wsGid, kind: 'MESSAGE', text: 'Post the weekly summary', cron: '0 9 * * 1' },
  });
  schedule.version = scheduled.createSchedule.schedule.version as number;
  // A pending follow-up of the agent on the first task (cancelFollowUp's valid call): as the
  // follow_up_at tool records one, without a worker to run the agent.
  const followUp = await p.followUp.create({
    data: { taskId: Buffer.from(task, 'base64').toString('utf8').split(':')[1]!, workspaceId: t.a.workspaceId, callKey: 'seed-follow-up', reason: 'check the autumn poster', dueAt: new Date(Date.now() + 3_600_000), wakeAt: new Date(Date.now() + 3_600_000) },
  });
  const seeds = {
    Workspace: wsGid,
    AgentPrincipal: agents.workspace.agents[0].id as string,
    McpServer: registered.registerMcpServer.server.id as string,
    WebhookEndpoint: hookId,
    WebhookDelivery: ping.sendTestWebhook.delivery.id as string,
    EgressHost: allowed.allowEgressHost.entry.id as string,
    RemoteAgent: remote.registerRemoteAgent.remoteAgent.id as string,
    Schedule: scheduled.createSchedule.schedule.id as string,
    FollowUp: toGlobalId('FollowUp', followUp.id),
    Task: task,
    Task2: task2,
    Message: sent.sendMessage.message.id,
    WorkspaceObject: doc,
    Flow: flow,
    Approval: del.deleteObject.approvalId,
    ForgetApproval: forget.forgetMemory.approval.id,
    Memory: toGlobalId('Memory', memory.id),
    MemoryEvidence: toGlobalId('MemoryEvidence', evidence.id),
    Thread: thread,
    User: toGlobalId('User', t.a.ownerId),
    Card: toGlobalId('Approval', card.id), // a question of the thread is an Approval (kind QUESTION)
  };
  const intro = await ok(getIntrospectionQuery());
  setSeeded({ seeds, otherWorkspaceTask, checklistVersion, schema: buildClientSchema(intro as IntrospectionQuery) });
}

/** The seeded MCP server's current version (the sweep's accepted updates move it on). */
export async function refreshMcpVersion(): Promise<void> {
  const row = await t.app.deps.prisma.mcpServer.findFirst({ where: { workspaceId: t.a.workspaceId, name: 'seeded' } });
  if (row) mcp.version = row.version;
  const main = await t.app.deps.prisma.agentPrincipal.findFirst({ where: { workspaceId: t.a.workspaceId, parentId: null } });
  if (main) agent.version = main.version;
  const seeded = await t.app.deps.prisma.schedule.findFirst({ where: { workspaceId: t.a.workspaceId, text: 'Post the weekly summary' }, orderBy: { createdAt: 'asc' } });
  if (seeded) schedule.version = seeded.version;
}

export async function tearDownHostile(): Promise<void> {
  await t?.close();
  await mcpServer?.close();
}
