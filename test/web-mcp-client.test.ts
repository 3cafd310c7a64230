// The product promise for an MCP client (a desktop assistant): it runs a whole poster task through
// /mcp — created as an MCP task, followed with tasks/get and tasks/result — while a PERSON answers its
// cards in the studio, in real headless Chromium, by clicking. The MCP side sees `working`, then
// `input_required` while a card waits, then `completed`, and the results' signed URLs download with
// no token. Cards stay human-only: the client lists them but no MCP tool answers them.
// The agent is the scripted poster fixture (test/fixtures/poster-plugin.ts: plan, three candidates, a
// pick, the series of three); the provider is the simulated one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CallToolResultSchema, CreateTaskResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { posterModel } from './fixtures/poster-plugin.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';
import { launch, shot, signIn, startWebApp, type WebApp } from './helpers/web.ts';

type Structured = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const TITLE = 'Jazz night posters';
const TERMINAL = ['completed', 'failed', 'cancelled'];

let w: WebApp;
let browser: Browser;
let page: Page;
let filesDir: string;
let mcp: Client;
let mcpTaskId = '';
/** Every status the MCP client's tasks/get poll saw, in order, repeats collapsed. */
const statuses: string[] = [];
let polling: Promise<unknown> | null = null;

before(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'atelier-web-mcp-client-'));
  const scripted = scriptedProvider(posterModel);
  w = await startWebApp('webmcpclient', {
    models: { ...scripted, info: { ...scripted.info, offline: true, description: 'Scripted poster model (test fixture); messages routed by the offline router' } },
    // Slow enough images that the poll sees the agent working between two cards.
    provider: new SimulatedProvider({ filesDir, latencyMs: { IMAGE: 400 } }),
  });
  ({ browser, page } = await launch());
  // The person is signed in to the studio before the assistant starts anything.
  await signIn(page, w.url, w.a.ownerToken);
  mcp = new Client({ name: 'desktop-assistant', version: '1.0.0' }, { capabilities: {} });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${w.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${w.a.ownerToken}` } } }));
});
after(async () => {
  await mcp?.close().catch(() => {});
  await polling?.catch(() => {});
  await browser?.close();
  await w?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

const prisma = () => w.app.deps.prisma;
const raw = (gid: string) => fromGlobalId(gid).id;

const call = async (name: string, args: Record<string, unknown> = {}) => (await mcp.callTool({ name, arguments: args })) as CallToolResult;
const ok = (r: CallToolResult): Structured => {
  assert.ok(!r.isError, `tool error: ${JSON.stringify(r.content)}`);
  assert.ok(r.structuredContent, 'structured content');
  return r.structuredContent as Structured;
};
const mcpStatus = async () => (await mcp.experimental.tasks.getTask(mcpTaskId)).status;
const pendingCards = async (): Promise<Structured[]> => ok(await call('list_pending_cards', { taskId: mcpTaskId })).cards;

/**
 * While a card waits: the MCP client lists it (and only lists it), the MCP task is input_required,
 * and no MCP tool answers it — the card is still pending afterwards.
 */
async function cardIsHumanOnly(kind: string): Promise<Structured> {
  const card = await waitFor(
    async () => ((await mcpStatus()) === 'input_required' ? ((await pendingCards()).find((c) => c.kind === kind) ?? null) : null),
    `the MCP client to see input_required and a ${kind} card`,
    // Generous: the whole studio, a browser and the worker share two cores in CI.
    { timeoutMs: 60_000, intervalMs: 150 },
  );
  assert.equal(card.taskId, mcpTaskId);
  // A client that tries anyway: there is no tool for it, by any likely name.
  for (const name of ['resolve_approval', 'resolve_card', 'approve']) {
    await assert.rejects(call(name, { approvalId: card.id, decision: 'APPROVE', choice: card.options[0]?.id }), /Unknown tool/, `${name} does not exist`);
  }
  const row = await prisma().approval.findUniqueOrThrow({ where: { id: raw(card.id) } });
  assert.deepEqual([row.status, row.resolvedById], ['PENDING', null], 'the card still waits for a person');
  assert.ok((await pendingCards()).some((c) => c.id === card.id), 'still listed');
  return card;
}

test('the MCP client creates the poster task as an MCP task; it is working, and no tool could answer a card', async () => {
  const { tools } = await mcp.listTools();
  assert.ok(!tools.some((x) => /resolve|approve|answer|decide/i.test(x.name)), `no tool answers a card: ${tools.map((x) => x.name).join(', ')}`);
  const created = await mcp.request(
    { method: 'tools/call', params: { name: 'create_task', arguments: { title: TITLE, goal: 'A poster for a jazz night' }, task: { ttl: 600_000 } } },
    CreateTaskResultSchema,
  );
  mcpTaskId = created.task.taskId;
  assert.equal(created.task.status, 'working');
  assert.equal(fromGlobalId(mcpTaskId).type, 'Task', 'the MCP task is the Atelier task');
  const row = await prisma().task.findUniqueOrThrow({ where: { id: raw(mcpTaskId) } });
  assert.equal(row.title, TITLE);

  // The assistant polls tasks/get from here to the end; every status it sees is kept, in order.
  polling = waitFor(
    async () => {
      const s = await mcpStatus();
      if (statuses.at(-1) !== s) statuses.push(s);
      return TERMINAL.includes(s);
    },
    'the MCP task to end',
    { timeoutMs: 180_000, intervalMs: 150 },
  );
  polling.catch(() => {}); // awaited (and its failure reported) in the last test
});

test('the person finds the task in the studio and answers every card by clicking; the MCP side waits meanwhile', async () => {
  // The task the assistant created appears in the person's task list without a reload.
  const item = page.locator('[data-testid=task-item]', { hasText: TITLE });
  await item.waitFor({ timeout: 60_000 });
  await item.click();
  await page.waitForURL((u) => u.searchParams.get('task') === mcpTaskId);
  const panel = page.locator('[data-testid=task-panel]');
  assert.match(await panel.locator('#task-h').innerText(), new RegExp(TITLE));

  const pending = page.locator('section.approval[data-status=PENDING]');
  const completed = page.locator('[data-testid=task-panel][data-status=COMPLETED]');
  const answered: string[] = [];
  for (;;) {
    // Read without auto-waiting: a card that just left PENDING must not be mistaken for the next one.
    const next = await waitFor(
      async () => {
        if (await completed.count()) return { end: true as const };
        const ids = await pending.evaluateAll((els) => els.map((e) => ({ id: e.getAttribute('data-id') ?? '', testid: e.getAttribute('data-testid') ?? '' })));
        return ids[0] ? { end: false as const, ...ids[0] } : null;
      },
      'the next card or the end',
      { timeoutMs: 90_000, intervalMs: 200 },
    );
    if (next.end) break;
    const card = page.locator(`section.approval[data-id="${next.id}"]`);
    const kind = next.testid.replace(/^approval-/, '');
    const listed = await cardIsHumanOnly(kind);
    const n = answered.length + 1;
    if (kind === 'PLAN') {
      assert.match(await card.innerText(), /Three candidate directions/);
      assert.match(await page.getByTestId('waiting-reason').innerText(), /Needs your decision/);
      await shot(page, `mcp-client-${n}-plan`);
      await card.getByRole('button', { name: 'Approve plan' }).click();
    } else if (kind === 'CHECKPOINT') {
      const candidates = card.locator('[data-testid=candidate]');
      assert.equal(await candidates.count(), 3);
      // The labels the person sees are the options the assistant was told about.
      const labels = (await candidates.locator('.cand-label').allInnerTexts()).map((t) => t.trim());
      assert.deepEqual(labels, listed.options.map((o: Structured) => o.label));
      await waitFor(
        async () => (await candidates.locator('img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0).length)) === 3,
        'three thumbnails loaded',
        { timeoutMs: 20_000 },
      );
      await shot(page, `mcp-client-${n}-pick`);
      // A click on the picture picks it.
      await candidates.filter({ hasText: 'Diner neon' }).locator('img').click();
    } else if (kind === 'PAID_ACTION') {
      await shot(page, `mcp-client-${n}-price`);
      await card.getByRole('button', { name: /^Approve/ }).click();
    } else {
      assert.fail(`a card the poster flow does not raise: ${kind}`);
    }
    answered.push(kind);
    // Answered by the person, in the studio: the card leaves, and the store says who decided.
    await waitFor(async () => (await prisma().approval.findUniqueOrThrow({ where: { id: raw(listed.id) } })).status !== 'PENDING', `the ${kind} card answered`);
    const row = await prisma().approval.findUniqueOrThrow({ where: { id: raw(listed.id) } });
    assert.deepEqual([row.status, row.resolvedById], ['APPROVED', w.a.ownerId]);
    if (kind === 'CHECKPOINT') assert.equal(row.choice, 'diner');
    await waitFor(async () => !(await pendingCards()).some((c) => c.id === listed.id), 'the MCP client no longer lists the answered card', { timeoutMs: 15_000, intervalMs: 150 });
    // …and the studio shows it answered before the loop looks for the next card.
    await waitFor(async () => (await page.locator(`section.approval[data-id="${next.id}"][data-status=PENDING]`).count()) === 0, 'the studio shows the card answered', {
      timeoutMs: 30_000,
    });
  }
  assert.ok(answered.includes('PLAN') && answered.includes('CHECKPOINT'), `the plan and the pick were answered: ${answered.join(', ')}`);
  await page.getByTestId('task-summary').waitFor();
  assert.match(await page.locator('section.timeline').innerText(), /Approved: Diner neon/, 'the pick, in words');
  await shot(page, 'mcp-client-finished');
});

test('the MCP side sees completed; tasks/result and get_task carry signed file URLs that download without a token', async () => {
  await polling;
  // working → (input_required → working)+ → completed: the client saw each wait for the person and
  // the work resume after it.
  assert.match(statuses.join(','), /^working(,input_required,working)+,completed$/, `statuses seen: ${statuses.join(' → ')}`);
  assert.equal(await mcpStatus(), 'completed');

  const result = (await mcp.experimental.tasks.getTaskResult(mcpTaskId, CallToolResultSchema, { timeout: 30_000 })) as CallToolResult;
  assert.notEqual(result.isError, true);
  assert.equal((result.structuredContent as Structured).task.status, 'COMPLETED');

  const task = ok(await call('get_task', { taskId: mcpTaskId })).task;
  assert.equal(task.status, 'COMPLETED');
  assert.deepEqual(task.pendingCards, []);
  assert.equal(task.checklist.done, 3);
  const files = task.results.filter((r: Structured) => r.file?.url);
  assert.equal(files.length, 6, 'three candidates and the series of three');
  assert.deepEqual(
    (result.structuredContent as Structured).task.results.map((r: Structured) => r.objectId).sort(),
    task.results.map((r: Structured) => r.objectId).sort(),
    'tasks/result names the same results',
  );
  for (const r of files) {
    assert.ok(r.file.url.startsWith(w.url), `an absolute URL of this server: ${r.file.url}`);
    const res = await fetch(r.file.url, { signal: AbortSignal.timeout(15_000) }); // no authorization header, no cookie
    assert.equal(res.status, 200, `${r.title} downloads`);
    assert.match(res.headers.get('content-type') ?? '', /^image\//);
    assert.ok((await res.arrayBuffer()).byteLength > 0);
  }
  // The signature is what opens it: the same path unsigned is refused.
  const unsigned = await fetch(files[0].file.url.split('?')[0], { signal: AbortSignal.timeout(15_000) });
  assert.notEqual(unsigned.status, 200);
  await unsigned.body?.cancel();
});
