// Generated files through signed URLs: ObjectFile.url (and GeneratedFile.url) is an absolute,
// short-lived link that plain fetch — an <img>, curl — opens with no token or cookie; a link whose
// signature, file name, workspace or expiry was changed, or that ran out, is refused with 403 and a
// sentence; a valid link still serves only the stored file of a delivered job of its workspace; and
// no server file path reaches an API answer (ObjectFile.path, deprecated, is the file name).
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, test } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import { print } from 'graphql';
import type { Viewer } from '../server/auth/viewer.ts';
import { fileUrlSecret, signFileUrl } from '../server/auth/file-urls.ts';
import { loadConfig } from '../server/config.ts';
import { withFileNames } from '../server/domain/file-names.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { runTurn } from '../server/runtime/engine.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { createTask } from '../server/services/tasks/create-task.ts';
import { graphql } from './gql/index.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';
import { collect, gqlOk, toGlobalId, wsClient } from './helpers/clients.ts';
import { waitFor } from './helpers/wait.ts';

// The agent: generate an image, then (woken by its result) read the object it became — so a tool
// call's recorded result holds a media file too — and complete.
const OBJECT_REF = /object:([0-9a-f-]{36})/;
const model = new ScriptedChatModel(({ messages }) => {
  const tools = messages.filter((m) => m instanceof ToolMessage).map((m) => String(m.content));
  if (tools.some((c) => c.includes('"kind":"IMAGE"'))) return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'image delivered' } }] };
  const result = messages.map((m) => String(m.content)).find((c) => c.includes('[generation result]') && OBJECT_REF.test(c));
  if (result) return { content: 'checking it', toolCalls: [{ name: 'read_object', args: { objectId: OBJECT_REF.exec(result)![1]! } }] };
  if (tools.length) return { content: 'waiting' };
  return { content: 'generating', toolCalls: [{ name: 'generate_image', args: { prompt: 'a lighthouse at dusk', finishWhenDone: false } }] };
});

const Everything = graphql(`
  query FileUrlsEverything($ws: ID!, $task: ID!) {
    workspace(id: $ws) {
      objects(first: 20) {
        edges {
          node {
            id
            kind
            content
            current { content provenance file { name path url urlExpiresAt mime bytes width height } }
            versions(first: 5) { edges { node { version content provenance file { name path url } } } }
          }
        }
      }
    }
    task(id: $task) {
      status
      summary
      jobs { status files { name url urlExpiresAt mime bytes } }
      turns { steps { toolCalls { name input result } } }
      inbox { text }
      events(first: 200) { edges { node { type payload } } }
    }
  }
`);

let t: TestApp;
let dir: string;
let taskId: string;
before(async () => {
  dir = mkdtempSync(join(tmpdir(), 'atelier-fileurls-'));
  t = await startTestApp('fileurls', {}, { models: scriptedProvider(model), provider: new SimulatedProvider({ filesDir: dir, latencyMs: { IMAGE: 50 } }) });
  const viewer: Viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
  const task = await createTask(t.app.deps, viewer, { workspaceId: t.a.workspaceId, title: 'lighthouse' });
  taskId = task.id;
  const first = await t.app.deps.prisma.turn.findFirstOrThrow({ where: { taskId } });
  assert.equal((await runTurn(t.app.deps.runtime, first.id, { workerId: 'w' })).outcome, 'suspended');
  const next = await waitFor(() => t.app.deps.prisma.turn.findFirst({ where: { taskId, status: 'QUEUED' } }), 'the turn the image result wakes', { timeoutMs: 15_000 });
  assert.equal((await runTurn(t.app.deps.runtime, next.id, { workerId: 'w' })).outcome, 'completed');
});
after(async () => {
  await t?.close();
  rmSync(dir, { recursive: true, force: true });
});

type Answer = Awaited<ReturnType<typeof everything>>;
const everything = () => gqlOk(t.url, t.a.readToken, Everything, { ws: toGlobalId('Workspace', t.a.workspaceId), task: toGlobalId('Task', taskId) });
const imageOf = (a: Answer) => a.workspace!.objects.edges.map((e) => e.node).find((o) => o.kind === 'IMAGE')!;
/** The stored path of the delivered file (what the API must never show). */
const storedPath = async () => {
  const job = await t.app.deps.prisma.generationJob.findFirstOrThrow({ where: { taskId, status: 'SUCCEEDED' } });
  return (job.result as { files: { path: string }[] }).files[0]!.path;
};
const noStore = { cache: 'no-store' } as const;

test('ObjectFile.url: plain fetch with no credential gets the bytes and the content type', async () => {
  const image = imageOf(await everything());
  const file = image.current.file!;
  const path = await storedPath();
  assert.ok(file.url, 'a url');
  assert.ok(file.url.startsWith(`${t.url}/files/${file.name}?`), `absolute, on the server's origin: ${file.url}`);
  const left = Date.parse(file.urlExpiresAt!) - Date.now();
  assert.ok(left > 14 * 60_000 && left <= 16 * 60_000, `valid about 15 minutes by default (${left} ms)`);
  const res = await fetch(file.url, noStore);
  assert.equal(res.status, 200);
  assert.equal(res.headers.get('content-type'), 'image/png');
  assert.deepEqual(Buffer.from(await res.arrayBuffer()), readFileSync(path));
  assert.match(res.headers.get('cache-control')!, /^private, max-age=\d+$/);
  assert.ok(Number(/max-age=(\d+)/.exec(res.headers.get('cache-control')!)![1]) <= 16 * 60, 'cached no longer than the link lives');
  // HEAD works the same (curl -I).
  assert.equal((await fetch(file.url, { method: 'HEAD' })).status, 200);

  // The job's file has the same kind of link, to the same bytes.
  const a = await everything();
  const jobFile = a.task!.jobs.find((j) => j.status === 'SUCCEEDED')!.files[0]!;
  assert.equal(jobFile.name, file.name);
  const byJob = await fetch(jobFile.url!, noStore);
  assert.equal(byJob.status, 200);
  assert.deepEqual(Buffer.from(await byJob.arrayBuffer()), readFileSync(path));

  // The token and cookie route keeps working beside it, and without either the file is refused.
  const byToken = await fetch(`${t.url}/files/${file.name}`, { headers: { authorization: `Bearer ${t.a.readToken}` } });
  assert.equal(byToken.status, 200);
  assert.equal((await fetch(`${t.url}/files/${file.name}`)).status, 401);
});

test('a changed signature, file name, workspace or expiry is 403 with a sentence, and so is an expired link', async () => {
  const url = new URL(imageOf(await everything()).current.file!.url!);
  const name = decodeURIComponent(url.pathname.slice('/files/'.length));
  const variant = (f: (u: URL) => void) => {
    const u = new URL(url);
    f(u);
    return u.toString();
  };
  const sig = url.searchParams.get('sig')!;
  const cases: [string, string][] = [
    ['signature', variant((u) => u.searchParams.set('sig', `${sig[0] === 'A' ? 'B' : 'A'}${sig.slice(1)}`))],
    ['signature removed', variant((u) => u.searchParams.delete('sig'))],
    ['file name', variant((u) => void (u.pathname = `/files/${name.replace(/^./, (c) => (c === 'x' ? 'y' : 'x'))}`))],
    ['extension', variant((u) => void (u.pathname = `/files/${name.replace(/\.png$/, '.svg')}`))],
    ['workspace', variant((u) => u.searchParams.set('ws', t.b.workspaceId))],
    ['expiry', variant((u) => u.searchParams.set('exp', String(Number(u.searchParams.get('exp')) + 3600)))],
  ];
  for (const [what, bad] of cases) {
    const res = await fetch(bad, noStore);
    assert.equal(res.status, 403, what);
    assert.match(await res.text(), /^This file link is not valid: it was changed or was not made by this server\.$/, what);
    // A valid token does not rescue an altered link: the link is what was presented.
    assert.equal((await fetch(bad, { headers: { authorization: `Bearer ${t.a.ownerToken}` } })).status, 403, `${what}, with a token`);
  }

  // Signed by the server, but already past its expiry.
  const secret = t.app.deps.config.files!.urlSecret!;
  const past = signFileUrl({ secret, ttlSeconds: 900 }, { workspaceId: t.a.workspaceId, name, exp: Math.floor(Date.now() / 1000) - 1 });
  const expired = await fetch(`${t.url}${past.path}`, noStore);
  assert.equal(expired.status, 403);
  assert.match(await expired.text(), /^This file link has expired\. .+\.$/);
  // A link made with a tiny lifetime works, then stops once its expiry passes (waited for, not slept).
  const short = signFileUrl({ secret, ttlSeconds: 1 }, { workspaceId: t.a.workspaceId, name });
  assert.equal((await fetch(`${t.url}${short.path}`, noStore)).status, 200);
  await waitFor(async () => (await fetch(`${t.url}${short.path}`, noStore)).status === 403, 'the one-second link to expire');
  assert.ok(Date.now() >= short.expiresAt.getTime(), 'refused only once expired');
  // Signed with another secret: not valid.
  const foreign = signFileUrl({ secret: 'x'.repeat(43), ttlSeconds: 900 }, { workspaceId: t.a.workspaceId, name });
  assert.equal((await fetch(`${t.url}${foreign.path}`, noStore)).status, 403);
});

test('a valid link serves only the stored file of a delivered job of the workspace it was signed for', async () => {
  const secret = t.app.deps.config.files!.urlSecret!;
  const name = imageOf(await everything()).current.file!.name;
  const signed = (workspaceId: string, n: string) => `${t.url}${signFileUrl({ secret, ttlSeconds: 900 }, { workspaceId, name: n }).path}`;
  assert.equal((await fetch(signed(t.a.workspaceId, name), noStore)).status, 200, 'the control');
  assert.equal((await fetch(signed(t.b.workspaceId, name), noStore)).status, 404, "signed for another workspace: that workspace has no such file");
  assert.equal((await fetch(signed(t.a.workspaceId, name.replace(/\.png$/, '.txt')), noStore)).status, 404, 'not a file the job delivered');
  assert.equal((await fetch(signed(t.a.workspaceId, 'sim_nosuchjob.png'), noStore)).status, 404, 'no such job');
  // A job that was not delivered serves nothing, even with its stored file on disk.
  const job = await t.app.deps.prisma.generationJob.findFirstOrThrow({ where: { taskId, status: 'SUCCEEDED' } });
  await t.app.deps.prisma.generationJob.create({
    data: {
      workspaceId: t.a.workspaceId,
      taskId,
      kind: 'IMAGE',
      provider: 'simulated',
      idempotencyKey: 'file-urls-running',
      prompt: 'x',
      params: {},
      status: 'RUNNING',
      upstreamJobId: 'up_running',
      result: job.result ?? {},
    },
  });
  assert.equal((await fetch(signed(t.a.workspaceId, name.replace(/^[^.]+/, 'up_running')), noStore)).status, 404);
  // No name outside the strict pattern is ever looked up, signed or not.
  for (const evil of ['..%2Fsecret.txt', '%2E%2E%2F%2E%2E%2Fetc%2Fpasswd']) {
    const u = new URL(signed(t.a.workspaceId, name));
    u.pathname = `/files/${evil}`;
    assert.equal((await fetch(u, noStore)).status, 403, evil);
  }
});

test('no answer carries a server file path; ObjectFile.path is the file name', async () => {
  const path = await storedPath();
  // The stored records do hold the absolute path (so this test would see one leak).
  const version = await t.app.deps.prisma.objectVersion.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, object: { kind: 'IMAGE' } } });
  assert.ok(path.startsWith(dir) && JSON.stringify(version.content).includes(path), 'stored with its absolute path');
  const a = await everything();
  const image = imageOf(a);
  assert.equal(image.current.file!.path, image.current.file!.name, 'the deprecated path is the name');
  assert.equal(image.current.file!.name, path.split('/').pop());
  assert.ok(a.task!.turns.some((u) => u.steps.some((s) => s.toolCalls.some((c) => c.name === 'read_object' && JSON.stringify(c.result).includes(image.current.file!.name)))), 'a tool result with the file was read');
  const dataDir = resolve(t.app.deps.config.dataDir);
  const leaks: string[] = [];
  const walk = (v: unknown, at: string) => {
    if (typeof v === 'string') {
      if ((v.startsWith('/') && v.length > 1 && existsSync(v)) || v.includes(dir) || v.includes(dataDir)) leaks.push(`${at}: ${v}`);
    } else if (Array.isArray(v)) v.forEach((x, i) => walk(x, `${at}[${i}]`));
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) walk(x, `${at}.${k}`);
  };
  walk(a, 'data');
  assert.deepEqual(leaks, []);
  // The walk itself finds a path where one is.
  walk({ content: { file: { path } } }, 'planted');
  assert.equal(leaks.length, 1);
});

test('file paths in JSON are reduced to names in the known places only', () => {
  const doc = { markdown: 'see /etc/hosts', nodes: [{ id: 'a', params: { path: '/keep/me' } }] };
  assert.equal(withFileNames(doc), doc, 'unchanged content is the same value');
  assert.deepEqual(
    withFileNames({ ok: true, content: { file: { path: '/srv/.data/files/sim_1.png', mime: 'image/png' }, provenance: { moreFiles: ['/srv/.data/files/sim_1b.png'] } }, files: [{ path: 'C:\\data\\files\\x.png' }] }),
    { ok: true, content: { file: { path: 'sim_1.png', mime: 'image/png' }, provenance: { moreFiles: ['sim_1b.png'] } }, files: [{ path: 'x.png' }] },
  );
});

test('the signing secret: from the environment, else kept in the data dir; required in production', () => {
  const data = mkdtempSync(join(tmpdir(), 'atelier-fileurl-secret-'));
  try {
    const dev = loadConfig({ ATELIER_DATA_DIR: data });
    const made = fileUrlSecret(dev);
    assert.ok(made.length >= 43, 'generated');
    assert.equal(fileUrlSecret(dev), made, 'kept: every process on the data dir signs alike');
    assert.equal(statSync(join(data, 'file-url-secret')).mode & 0o777, 0o600);
    // A data directory it creates gets the default mode, not a private one: the embedded PostgreSQL's
    // system user must be able to enter it.
    fileUrlSecret(loadConfig({ ATELIER_DATA_DIR: join(data, 'fresh', 'data') }));
    mkdirSync(join(data, 'control'));
    assert.equal(statSync(join(data, 'fresh', 'data')).mode & 0o777, statSync(join(data, 'control')).mode & 0o777);
    const given = 'k'.repeat(40);
    assert.equal(fileUrlSecret(loadConfig({ ATELIER_DATA_DIR: data, ATELIER_FILE_URL_SECRET: given })), given);
    assert.throws(() => fileUrlSecret(loadConfig({ ATELIER_DATA_DIR: data, NODE_ENV: 'production' })), /ATELIER_FILE_URL_SECRET: required when NODE_ENV=production/);
    assert.equal(fileUrlSecret(loadConfig({ NODE_ENV: 'production', ATELIER_FILE_URL_SECRET: given })), given);
    assert.throws(() => loadConfig({ ATELIER_FILE_URL_SECRET: 'short' }), /ATELIER_FILE_URL_SECRET/);
    assert.equal(loadConfig({ ATELIER_FILE_URL_TTL_SECONDS: '60' }).files?.urlTtlSeconds, 60);
  } finally {
    rmSync(data, { recursive: true, force: true });
  }
});

test('the link starts with the origin the client addressed (https behind a proxy), or ATELIER_PUBLIC_URL', async () => {
  const Q = graphql(`
    query FileUrlsOrigin($ws: ID!) {
      workspace(id: $ws) { objects(first: 20, kind: IMAGE) { edges { node { current { file { url } } } } } }
    }
  `);
  const ask = async (headers: Record<string, string>) => {
    const res = await fetch(`${t.url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${t.a.readToken}`, ...headers },
      body: JSON.stringify({ query: print(Q), variables: { ws: toGlobalId('Workspace', t.a.workspaceId) } }),
    });
    const body = (await res.json()) as { data: { workspace: { objects: { edges: { node: { current: { file: { url: string } | null } } }[] } } } };
    return body.data.workspace.objects.edges[0]!.node.current.file!.url;
  };
  const port = new URL(t.url).port;
  assert.ok((await ask({ 'x-forwarded-proto': 'https' })).startsWith(`https://127.0.0.1:${port}/files/`));
  // Over graphql-ws the origin is the upgrade request's.
  const ws = wsClient(t.url, t.a.readToken);
  try {
    const { collector } = collect(ws, Q, { ws: toGlobalId('Workspace', t.a.workspaceId) });
    await collector.untilDone();
    const viaSocket = collector.items[0]!.workspace!.objects.edges[0]!.node.current.file!.url!;
    assert.ok(viaSocket.startsWith(`${t.url}/files/`), viaSocket);
    assert.equal((await fetch(viaSocket, noStore)).status, 200);
  } finally {
    await ws.dispose();
  }
  const files = t.app.deps.config.files!;
  files.publicUrl = 'https://atelier.example.com/studio';
  try {
    assert.ok((await ask({})).startsWith('https://atelier.example.com/studio/files/'));
  } finally {
    delete files.publicUrl;
  }
});
