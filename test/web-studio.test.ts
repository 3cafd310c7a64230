// The studio in a real browser: sign in; write "make three retro posters for a coffee brand" in the
// main thread; approve the plan; watch progress; pick a candidate; lose the connection mid-run and
// come back with nothing missed or doubled; see the finished series; re-route a message.
// The agent is a scripted fixture (test/fixtures/poster-plugin.ts: plan, three candidates, a pick, the
// series), not the product's offline model; messages are routed by the offline router.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Viewer } from '../server/auth/viewer.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { transactWithEvents } from '../server/channel/unit-of-work.ts';
import { ChecklistItemSchema } from '../server/domain/checklist.ts';
import { editDocument } from '../server/services/objects/write-object.ts';
import { readChecklist, writeChecklist } from '../server/store/checklist/write-checklist.ts';
import { createObjectOp } from '../server/store/objects/operations.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { posterModel } from './fixtures/poster-plugin.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { eventually } from './helpers/produce.ts';
import { launch, shot, signIn, startWebApp, type WebApp } from './helpers/web.ts';

let w: WebApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let filesDir: string;
let taskId: string;

before(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'atelier-web-files-'));
  const scripted = scriptedProvider(posterModel);
  w = await startWebApp('webstudio', {
    // `offline: true` only makes messages go to the offline router (there is no router model to ask);
    // the model that runs the steps is the scripted poster fixture, and says so.
    models: { ...scripted, info: { ...scripted.info, offline: true, description: 'Scripted poster model (test fixture); messages routed by the offline router' } },
    provider: new SimulatedProvider({ filesDir, latencyMs: { IMAGE: 1200 } }),
  });
  ({ browser, context, page } = await launch());
});
after(async () => {
  await browser?.close();
  await w?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

const prisma = () => w.app.deps.prisma;

test('sign in: a wrong token is explained in words; the owner token opens the studio', async () => {
  await page.goto(`${w.url}/`);
  await page.waitForURL(/\/signin/);
  await page.getByLabel('Access token').fill('atl_wrong');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: 'not valid' }).waitFor();
  await shot(page, '01-signin-error');
  await signIn(page, w.url, w.a.ownerToken);
  await page.locator('[data-testid=live-state][data-state=live]').waitFor();
  const cookies = await context.cookies();
  const session = cookies.find((c) => c.name === 'atelier_session');
  assert.ok(session?.httpOnly && session.sameSite === 'Strict', 'an httpOnly, SameSite=Strict session cookie');
  await shot(page, '02-studio-empty');
});

test('a natural message starts a task; the plan card is approved with one click', async () => {
  const box = page.getByLabel('Message');
  await box.fill('make three retro posters for a coffee brand');
  await box.press('Enter');
  await page.locator('[data-testid=route-chip]').first().waitFor();
  await page.locator('[data-testid=task-panel]').waitFor();
  taskId = new URL(page.url()).searchParams.get('task')!;
  assert.ok(taskId, 'the routed task opens');
  const chip = await page.locator('[data-testid=route-chip]').first().innerText();
  assert.match(chip, /→/, `the reply shows where the message went: ${chip}`);
  const plan = page.locator('[data-testid=approval-PLAN][data-status=PENDING]');
  await plan.waitFor({ timeout: 30_000 });
  assert.match(await plan.innerText(), /Three candidate directions/);
  assert.match(await page.getByTestId('waiting-reason').innerText(), /Needs your decision/);
  await shot(page, '03-plan-card');
  await plan.getByRole('button', { name: 'Approve plan' }).click();
  await plan.waitFor({ state: 'detached' });
});

test('progress is visible: results appear, the checklist moves, cost is shown', async () => {
  await page.locator('[data-testid=artifact][data-status=SUCCEEDED] img').first().waitFor({ timeout: 30_000 });
  await eventually(async () => /[1-9] of 3 steps|0 of 3 steps/.test(await page.getByTestId('checklist-progress').innerText()), 'checklist shown');
  assert.match(await page.getByTestId('cost').innerText(), /\$\d+\.\d\d/);
  assert.ok((await page.locator('[data-testid=milestone]').count()) >= 3, 'a readable timeline');
  await shot(page, '04-progress');
});

test('pick a candidate from thumbnails; drop the connection mid-run and resume with nothing missed or doubled', async () => {
  const card = page.locator('[data-testid=approval-CHECKPOINT][data-status=PENDING]');
  await card.waitFor({ timeout: 45_000 });
  const candidates = card.locator('[data-testid=candidate]');
  assert.equal(await candidates.count(), 3);
  // Thumbnails are the real generated pictures.
  await eventually(
    async () => (await candidates.locator('img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length)) === 3,
    'three thumbnails loaded',
  );
  await shot(page, '05-pick-candidate');
  await candidates.nth(1).click();
  await card.waitFor({ state: 'detached' });

  // Network drop (or a laptop's sleep): the page goes offline while the agent keeps working.
  const seqBefore = (await prisma().task.findUniqueOrThrow({ where: { id: fromGlobal(taskId) } })).lastEventSeq;
  await context.setOffline(true);
  await page.locator('[data-testid=live-state][data-state=offline]').waitFor();
  await eventually(async () => (await prisma().task.findUniqueOrThrow({ where: { id: fromGlobal(taskId) } })).lastEventSeq >= seqBefore + 5, 'events while offline', 20_000);
  await shot(page, '06-offline');
  await context.setOffline(false);
  await page.locator('[data-testid=live-state][data-state=live]').waitFor({ timeout: 20_000 });

  // The finished series.
  await page.locator('[data-testid=task-panel][data-status=COMPLETED]').waitFor({ timeout: 60_000 });
  await page.getByTestId('task-summary').waitFor();
  const done = page.locator('[data-testid=artifact][data-status=SUCCEEDED] img');
  await eventually(async () => (await done.count()) === 6, 'six results');
  await eventually(async () => (await done.evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length)) === 6, 'six pictures loaded');
  assert.match(await page.getByTestId('checklist-progress').innerText(), /3 of 3 steps/);
  assert.match(await page.locator('section.timeline').innerText(), /Approved: Diner neon/, 'the pick, in words');

  // Nothing missed, nothing doubled: the timeline holds exactly events 1..lastEventSeq.
  const last = (await prisma().task.findUniqueOrThrow({ where: { id: fromGlobal(taskId) } })).lastEventSeq;
  const timeline = page.locator('section.timeline');
  await eventually(async () => Number(await timeline.getAttribute('data-event-count')) === last, `timeline has ${last} events`);
  await page.getByLabel('Raw events').check();
  const seqs = await page.locator('.raw-events li').evaluateAll((lis) => lis.map((li) => Number(li.getAttribute('data-seq'))));
  assert.deepEqual(seqs, Array.from({ length: last }, (_, i) => i + 1));
  await page.getByLabel('Raw events').uncheck();
  const reconnects = await page.evaluate(() => (window as unknown as { __atelierLive: { reconnects: number } }).__atelierLive.reconnects);
  assert.ok(reconnects >= 1, 'the socket really came back');
  assert.match(await page.getByTestId('cost').innerText(), /\$0\.\d\d/);
  await shot(page, '07-finished-series');
});

test('the task list shows status, progress and cost; a message can be re-routed', async () => {
  const item = page.locator('[data-testid=task-item]').first();
  assert.equal(await item.getAttribute('data-status'), 'COMPLETED');
  assert.match(await item.innerText(), /3\/3/);
  const posterId = fromGlobal(taskId);
  const other = await prisma().task.findFirst({ where: { workspaceId: w.a.workspaceId, NOT: { id: posterId } } });
  assert.equal(other, null);
  // A second piece of work, sharing no word with the first: a task of its own, which stays open (its
  // plan waits for approval) — somewhere to move a message to.
  const box = page.getByLabel('Message');
  await box.fill('compose a short jingle for a radio spot');
  await box.press('Enter');
  await eventually(async () => (await page.locator('[data-testid=route-chip]').count()) === 2, 'second reply');
  const jingle = await prisma().task.findFirstOrThrow({ where: { workspaceId: w.a.workspaceId, NOT: { id: posterId } } });
  await eventually(async () => !['COMPLETED', 'FAILED', 'CANCELLED'].includes((await prisma().task.findUniqueOrThrow({ where: { id: jingle.id } })).status), 'the jingle task open');
  const posterMessage = await prisma().message.findFirstOrThrow({ where: { role: 'USER', text: 'make three retro posters for a coffee brand' } });
  assert.equal(posterMessage.taskId, posterId);

  // Move the first message to the jingle task: the select must offer it, and the chip must change.
  const chip = page.locator('[data-testid=route-chip]').first();
  assert.doesNotMatch(await chip.innerText(), /jingle/, 'before: the chip names the poster task');
  await page.getByRole('button', { name: /Re-route “make three retro posters/ }).click();
  const select = page.getByLabel('Move this message to');
  await eventually(async () => (await select.locator('option:not([disabled])', { hasText: jingle.title }).count()) === 1, 'the jingle task offered');
  await select.selectOption({ label: jingle.title });
  await eventually(async () => (await chip.innerText()).includes(jingle.title), 'the chip names the jingle task');

  // On the server: the message belongs to the jingle task, the router's decision is kept but
  // superseded by the user's correction, and the jingle task received the message.
  assert.equal((await prisma().message.findUniqueOrThrow({ where: { id: posterMessage.id } })).taskId, jingle.id);
  const decisions = await prisma().routeDecision.findMany({ where: { messageId: posterMessage.id }, orderBy: { createdAt: 'asc' } });
  assert.equal(decisions.length, 2);
  assert.ok(decisions[0]!.supersededAt, 'the first decision is superseded');
  assert.deepEqual([decisions[1]!.taskId, decisions[1]!.correctedBy, decisions[1]!.supersededAt], [jingle.id, w.a.ownerId, null]);
  const received = await prisma().taskEvent.findMany({ where: { taskId: jingle.id, type: 'MESSAGE_RECEIVED' } });
  assert.ok(received.some((e) => (e.payload as { messageId?: string; rerouted?: boolean }).messageId === posterMessage.id && (e.payload as { rerouted?: boolean }).rerouted));
  await shot(page, '08-reroute');
});

const fromGlobal = (id: string) => fromGlobalId(id).id;

test('an ambiguous message gets a clarification card; one click answers it', async () => {
  const cards = page.locator('.card.clarify');
  const before = await cards.count();
  const box = page.getByLabel('Message');
  await box.fill('make that one blue');
  await box.press('Enter');
  await eventually(async () => (await cards.count()) > before, 'a clarification card', 20_000);
  const card = cards.last();
  const options = card.getByRole('button');
  assert.ok((await options.count()) >= 2, 'the candidates are offered');
  await shot(page, '08b-clarify');
  const label = (await options.first().innerText()).trim();
  const userMessages = async () => page.locator('[data-testid=message].msg-user .bubble').allInnerTexts();
  const sentBefore = await userMessages();
  await options.first().click();
  await eventually(async () => await options.first().isDisabled(), 'the card is answered', 20_000);
  // The answer sends only the choice: the message the card asked about goes to the task picked,
  // and no message (or task) carries the button's label.
  const asked = page.locator('[data-testid=message].msg-user').filter({ hasText: 'make that one blue' }).last();
  await eventually(async () => /→/.test(await asked.getByTestId('route-chip').innerText()), 'the asked message shows its task', 20_000);
  assert.deepEqual(await userMessages(), sentBefore, 'no message was added by the answer');
  assert.equal(await prisma().message.count({ where: { text: label } }), 0, `no message "${label}"`);
  const routed = await prisma().message.findFirstOrThrow({ where: { text: 'make that one blue' }, orderBy: { createdAt: 'desc' } });
  assert.ok(routed.taskId, 'the message that raised the card went to a task');
  assert.equal(await prisma().inboxItem.count({ where: { taskId: routed.taskId!, text: 'make that one blue' } }), 1);
});

test('responsive: on a phone-sized screen nothing overflows sideways', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.getByRole('heading', { name: 'Main thread' }).waitFor();
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no horizontal overflow (${overflow}px)`);
  await page.screenshot({ path: `${process.cwd()}/test-results/web/09-phone.png`, fullPage: true });
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('a plan with steps that use other steps reads as an indented list, at phone width too', async () => {
  // A paused task of the workspace (no turn runs it), planned by a person with edges.
  const made = await prisma().task.create({ data: { workspaceId: w.a.workspaceId, createdById: w.a.ownerId, title: 'Keeper film', status: 'PAUSED' } });
  const gid = Buffer.from(`Task:${made.id}`).toString('base64');
  const res = await fetch(`${w.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${w.a.ownerToken}` },
    body: JSON.stringify({
      query: 'mutation($i: EditChecklistInput!) { editChecklist(input: $i) { task { id } } }',
      variables: { i: { taskId: gid, baseVersion: 0, items: [{ title: 'Storyboard', kind: 'DOCUMENT' }, { title: 'Character', kind: 'IMAGE', after: ['Storyboard'] }, { title: 'Harbour', kind: 'IMAGE', after: ['Storyboard'] }, { title: 'Shot one', kind: 'IMAGE', after: ['Character', 'Harbour'] }] } },
    }),
  });
  assert.equal(((await res.json()) as { errors?: unknown }).errors, undefined);
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${w.url}/?task=${encodeURIComponent(gid)}`);
    const items = page.getByTestId('checklist-item');
    await items.nth(3).waitFor();
    assert.deepEqual(await items.evaluateAll((els) => els.map((e) => e.getAttribute('data-depth'))), ['0', '1', '1', '2']);
    assert.match(await items.nth(3).innerText(), /uses Character, Harbour/);
    const [first, last] = [await items.nth(0).boundingBox(), await items.nth(3).boundingBox()];
    assert.ok(last!.x > first!.x, 'a deeper step is indented');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `no sideways scrolling at ${width}px (${overflow}px)`);
  }
  await shot(page, '14-plan-graph-phone');
  await page.setViewportSize({ width: 1440, height: 900 });
});

test('a person edits the character sheet: the shot made from it is marked out of date, and the card says what re-making costs; one click makes it again', async () => {
  // A paused film (no turn runs it) made as far as two shots; shot 2 shows the character.
  const made = await prisma().task.create({ data: { workspaceId: w.a.workspaceId, createdById: w.a.ownerId, title: 'Lighthouse film', status: 'PAUSED', approvedBudgetCents: 200 } });
  const doc = async (name: string) =>
    (await transactWithEvents(w.app.deps, (tx, emit) => createObjectOp(tx, emit, { workspaceId: w.a.workspaceId, kind: 'DOCUMENT', name, content: { markdown: `# ${name}\nfirst draft\n` }, actor: { kind: 'AGENT', taskId: made.id }, idempotencyKey: `web-graph-${name}` }))).value.object.id;
  const [sheet, setting, s1, s2] = [await doc('Character sheet'), await doc('Setting'), await doc('Shot 1'), await doc('Shot 2')];
  await transactWithEvents(w.app.deps, (tx, emit) =>
    writeChecklist(tx, emit, { taskId: made.id, actor: { kind: 'AGENT' }, reason: 'plan' }, () =>
      [
        { id: 'character-sheet', title: 'Character sheet', kind: 'DOCUMENT', status: 'DONE', artifacts: [`object:${sheet}`] },
        { id: 'setting', title: 'Setting', kind: 'IMAGE', status: 'DONE', artifacts: [`object:${setting}`], estimateCents: 4 },
        { id: 'shot-1', title: 'Shot 1', kind: 'VIDEO', status: 'DONE', artifacts: [`object:${s1}`], estimateCents: 40, after: ['setting'] },
        { id: 'shot-2', title: 'Shot 2', kind: 'VIDEO', status: 'DONE', artifacts: [`object:${s2}`], estimateCents: 40, after: ['character-sheet', 'setting'] },
      ].map((i) => ChecklistItemSchema.parse(i)),
    ),
  );
  const viewer: Viewer = { userId: w.a.ownerId, credentialId: 'test', scopes: new Set(['READ', 'WRITE']), memberships: new Map([[w.a.workspaceId, 'OWNER']]) };
  await editDocument(w.app.deps, viewer, { objectId: sheet, edits: [{ find: 'first draft', replace: 'an old woman in a red raincoat' }], idempotencyKey: 'web-graph-edit' });
  const gid = Buffer.from(`Task:${made.id}`).toString('base64');
  for (const width of [1440, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${w.url}/?task=${encodeURIComponent(gid)}`);
    const stale = page.locator('[data-testid=checklist-item][data-status=STALE]');
    await stale.waitFor();
    assert.match(await stale.innerText(), /Shot 2.*out of date.*Character sheet/s);
    assert.equal(await page.locator('[data-testid=checklist-item][data-status=DONE]').count(), 3, 'the other steps stay as they are');
    const card = page.locator('section.approval[data-status=PENDING]');
    assert.match(await card.innerText(), /Character sheet.*changed/);
    assert.match(await card.innerText(), /Stays as it is: .*Shot 1/);
    await card.getByRole('button', { name: 'Keep them as they are' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 1, `no sideways scrolling at ${width}px (${overflow}px)`);
  }
  await shot(page, '15-impact-card-phone');
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.locator('section.approval[data-status=PENDING]').getByRole('button', { name: 'Make again for $0.40' }).click();
  await eventually(async () => (await readChecklist(prisma(), made.id))!.items.find((i) => i.id === 'shot-2')!.status === 'TODO', 'shot 2 re-opened');
  await page.locator('[data-testid=checklist-item][data-status=STALE]').waitFor({ state: 'detached' });
  assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: made.id } })).approvedBudgetCents, 240, 'the price approved with it');
});
