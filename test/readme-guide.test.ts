// The README's integrator guide runs as written: every `// guide: <name>` snippet is run with
// plain node (ESM), after the prelude, against a real server with a worker, the simulated
// provider and webhooks — as an integrator would paste it. A snippet that no longer matches the API
// fails here.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { fromRoot } from '../server/paths.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { graphql } from './gql/index.ts';
import { waitFor } from './helpers/wait.ts';
import { fromGlobalId } from './helpers/ids.ts';

const README = readFileSync(fromRoot('README.md'), 'utf8');
const guide = README.slice(README.indexOf('## Integrator guide'), README.indexOf('\n## ', README.indexOf('## Integrator guide') + 5));
const SNIPPETS = new Map([...guide.matchAll(/```js\n\/\/ guide: ([\w-]+)\n([\s\S]*?)```/g)].map((m) => [m[1]!, m[2]!]));

// The agent of every task here: generate an image, then complete (a work with a file to download).
const model = new ScriptedChatModel(({ messages }) => {
  const tools = messages.filter((m) => m instanceof ToolMessage).map((m) => String(m.content));
  if (messages.some((m) => String(m.content).includes('[generation result]'))) return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'poster delivered' } }] };
  if (tools.length) return { content: 'waiting' };
  return { content: 'generating', toolCalls: [{ name: 'generate_image', args: { prompt: 'a harbour festival poster' } }] };
});

const TaskStatus = graphql(`query GuideTaskStatus($id: ID!) { task(id: $id) { status } }`);
const MakeDoc = graphql(`mutation GuideMakeDoc($input: CreateObjectInput!) { createObject(input: $input) { object { id } } }`);
const AskDelete = graphql(`mutation GuideAskDelete($id: ID!) { deleteObject(objectId: $id) { approval { id status } } }`);
const ApprovalStatus = graphql(`query GuideApproval($id: ID!) { node(id: $id) { ... on Approval { status } } }`);

let t: TestApp;
const dir = fromRoot('.data', 'guide-snippets');
let env: Record<string, string>;
before(async () => {
  mkdirSync(dir, { recursive: true });
  const files = mkdtempSync(join(tmpdir(), 'atelier-guide-'));
  t = await startTestApp(
    'guide',
    { webhooks: { timeoutMs: 5_000, maxAttempts: 3, retryBaseMs: 50, retryMaxMs: 200, secretGraceSeconds: 86_400, concurrency: 2 } },
    { models: scriptedProvider(model), provider: new SimulatedProvider({ filesDir: files, latencyMs: { IMAGE: 50 } }) },
    { worker: { concurrency: 2 } },
  );
  env = { ATELIER_URL: t.url, ATELIER_TOKEN: t.a.ownerToken };
});
after(async () => {
  await t.close();
});

function run(name: string, extra: Record<string, string> = {}): Promise<{ code: number | null; out: string; err: string }> {
  const body = SNIPPETS.get(name);
  assert.ok(body, `the guide has a snippet "${name}"`);
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, `${SNIPPETS.get('prelude')}\n${body}`);
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [file], { env: { ...process.env, ...env, ...extra }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (c) => (out += c));
    p.stderr.on('data', (c) => (err += c));
    const timer = setTimeout(() => p.kill('SIGKILL'), 60_000);
    p.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out, err });
    });
  });
}

async function ok(name: string, expect: RegExp, extra: Record<string, string> = {}) {
  const r = await run(name, extra);
  assert.equal(r.code, 0, `${name} exits 0\n${r.out}\n${r.err}`);
  assert.match(r.out, expect, `${name} prints what the guide says`);
  return r.out;
}

let taskId = '';

test('the guide has every step of an integration', () => {
  assert.deepEqual([...SNIPPETS.keys()], ['prelude', 'auth', 'send-message', 'approvals', 'subscribe-ws', 'subscribe-sse', 'resume', 'webhooks', 'files']);
});

test('authenticate', async () => {
  await ok('auth', /signed in as Owner Alpha in .+ \(\S+\)/);
});

test('send a message and find the task; it runs to a delivered image', async () => {
  const out = await ok('send-message', /NEW_TASK: ".+" (\S+)/);
  taskId = /NEW_TASK: ".+" (\S+)/.exec(out)![1]!;
  await waitFor(async () => (await gqlOk(t.url, t.a.ownerToken, TaskStatus, { id: taskId })).task?.status === 'COMPLETED', 'the task to complete', { timeoutMs: 60_000 });
});

test('answer approvals: an irreversible one is refused by the script, nothing is deleted', async () => {
  const made = await gqlOk(t.url, t.a.ownerToken, MakeDoc, { input: { workspaceId: toGlobalId('Workspace', t.a.workspaceId), kind: 'DOCUMENT', title: 'Notes', content: { markdown: '# Notes' } } });
  const asked = await gqlOk(t.url, t.a.ownerToken, AskDelete, { id: made.createObject.object.id });
  const approvalId = asked.deleteObject.approval!.id;
  await ok('approvals', /IRREVERSIBLE ".+" \(0 ¢\) → REJECTED/);
  const answered = (await gqlOk(t.url, t.a.ownerToken, ApprovalStatus, { id: approvalId })).node;
  assert.equal(answered && 'status' in answered ? answered.status : null, 'REJECTED');
  const obj = await t.app.deps.prisma.workspaceObject.findUniqueOrThrow({ where: { id: fromGlobalId(made.createObject.object.id).id } });
  assert.equal(obj.deletedAt, null, 'nothing was deleted');
});

test('subscribe with graphql-ws and with SSE', async () => {
  await ok('subscribe-ws', /live from cursor \S+/);
  assert.ok(taskId, 'the task of the send-message step');
  await ok('subscribe-sse', /^1 TASK_CREATED Make a poster/m, { ATELIER_TASK: taskId });
});

test('resume from a cursor, filtered to milestones', async () => {
  const out = await ok('resume', /next time resume from \S+/);
  assert.match(out, /#1 TASK_CREATED/);
  assert.doesNotMatch(out, /TURN_STARTED|MODEL_CALL|STEP_DECIDED/, 'details are filtered out');
});

test('receive a webhook and verify its signature', async () => {
  await ok('webhooks', /verified delivery: \S+/);
});

test('download a file with its signed URL, no token', async () => {
  await ok('files', /image\/png, \d{3,} bytes, link valid until \S+/);
});
