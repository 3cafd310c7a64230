// Run control in a real browser, as a person uses it: the settings page chooses what a task does at
// its cap (pause and ask), the time zone and quiet hours; a task at its cap shows a card whose one
// click raises the cap and lets the same order go on (ordered once); a message sent with
// "Interrupt" while a step runs skips what the agent was about to do next, and the timeline says so
// in words. Desktop and phone width.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { HumanMessage, ToolMessage } from '@langchain/core/messages';
import type { Browser, Page } from 'playwright-core';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { createGate } from './fixtures/gate-tool.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { graphql } from './gql/index.ts';
import { waitFor } from './helpers/wait.ts';
import { launch, shot, signIn, startWebApp, type WebApp } from './helpers/web.ts';

const Settings = graphql(`
  query WebRunControlSettings($id: ID!) { workspace(id: $id) { settings { atBudgetCap taskBudgetCapCents timeZone followUpsEnabled quietFromMinute quietToMinute } } }
`);
const Create = graphql(`
  mutation WebRunControlCreate($input: CreateTaskInput!) { createTask(input: $input) { task { id } } }
`);

// Gate 1 of the interrupt test's task waits in the middle of its work until the test opens it.
const gates = createGate();
const held = gates.hold('*');

const model = new ScriptedChatModel(({ messages }) => {
  const all = messages.map((m) => String(m.content)).join('\n');
  const tool = messages.some((m) => m instanceof ToolMessage);
  if (all.includes('Task: Harbour film')) {
    if (all.includes('[generation result]')) return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'The harbour film is ready.' } }] };
    if (tool) return { content: 'waiting for the film' };
    return { content: 'making the film', toolCalls: [{ name: 'generate_video', args: { prompt: 'a harbour at dawn, slow pan' } }] };
  }
  if (messages.some((m) => m instanceof HumanMessage && String(m.content).includes('blue instead'))) {
    return { content: 'switching to blue', toolCalls: [{ name: 'complete_task', args: { summary: 'Switched to blue as you asked.' } }] };
  }
  if (tool) return { content: 'done', toolCalls: [{ name: 'complete_task', args: { summary: 'Both parts done.' } }] };
  return { content: 'two parts', toolCalls: [{ name: 'gate', args: { k: 1 } }, { name: 'gate', args: { k: 2 } }] };
});

let w: WebApp;
let browser: Browser;
let page: Page;
before(async () => {
  const scripted = scriptedProvider(model);
  w = await startWebApp('webruncontrol', {
    models: { ...scripted, info: { ...scripted.info, offline: true, description: 'Scripted model (test fixture)' } },
    tools: [gates.tool],
  });
  // The simulated provider the web app uses by default makes the film quickly.
  ({ browser, page } = await launch());
  await signIn(page, w.url, w.a.ownerToken);
});
after(async () => {
  held.open();
  await browser?.close();
  await w?.close();
});

const ws = () => toGlobalId('Workspace', w.a.workspaceId);
const prisma = () => w.app.deps.prisma;

async function openTask(taskId: string) {
  await page.goto(`${w.url}/?task=${encodeURIComponent(taskId)}`);
  await page.locator('[data-testid=task-panel]').waitFor();
}

test('settings: "Pause and ask me" at the cap, a time zone and quiet hours are saved; a half-filled quiet time is explained', async () => {
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Budget & autonomy' }).waitFor();
  await page.getByLabel('Default cap per task (USD, empty = none)').fill(((SimulatedProvider.PRICES.VIDEO - 10) / 100).toFixed(2));
  await page.getByLabel(/Free per action/).fill('100');
  await page.getByLabel(/Pause and ask me/).check();
  await page.getByLabel(/Time zone/).fill('Europe/Berlin');
  await page.getByLabel('Quiet from').fill('22:00');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByTestId('settings-message').filter({ hasText: 'Quiet hours need a start and an end' }).waitFor();
  await page.getByLabel('until').fill('07:00');
  await page.getByLabel(/Let the agent follow up/).check();
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByTestId('settings-message').filter({ hasText: 'Saved' }).waitFor();
  const s = (await gqlOk(w.url, w.a.ownerToken, Settings, { id: ws() })).workspace.settings;
  assert.deepEqual(
    [s.atBudgetCap, s.taskBudgetCapCents, s.timeZone, s.quietFromMinute, s.quietToMinute, s.followUpsEnabled],
    ['PAUSE', SimulatedProvider.PRICES.VIDEO - 10, 'Europe/Berlin', 22 * 60, 7 * 60, true],
  );
  await shot(page, 'run-control-settings');
  // A reload shows what was saved.
  await page.reload();
  assert.equal(await page.getByLabel('Quiet from').inputValue(), '22:00');
  assert.ok(await page.getByLabel(/Pause and ask me/).isChecked());
});

test('a task at its cap waits with a card; one click raises the cap and the same order goes on, once', async () => {
  const { createTask } = await gqlOk(w.url, w.a.ownerToken, Create, { input: { workspaceId: ws(), title: 'Harbour film' } });
  await openTask(createTask.task.id);
  const card = page.locator('section.approval[data-testid=approval-BUDGET_CAP][data-status=PENDING]');
  await card.waitFor({ timeout: 60_000 });
  assert.match(await card.innerText(), /reached its budget cap of \$0\.\d\d\. Raise it to \$1\.00/);
  const raw = (await prisma().task.findFirstOrThrow({ where: { title: 'Harbour film' } })).id;
  assert.equal(await prisma().generationJob.count({ where: { taskId: raw } }), 0, 'nothing ordered while it waits');
  await shot(page, 'run-control-cap-card');
  await page.setViewportSize({ width: 390, height: 844 });
  await card.getByRole('button', { name: /Raise the cap to \$1\.00 and go on/ }).scrollIntoViewIfNeeded();
  const box = await card.getByRole('button', { name: /Raise the cap/ }).boundingBox();
  assert.ok(box && box.height >= 40 && box.x >= 0 && box.x + box.width <= 390, 'a thumb-sized button inside the phone screen');
  await shot(page, 'run-control-cap-card-phone');
  await card.getByRole('button', { name: /Raise the cap/ }).click();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.locator('[data-testid=task-panel][data-status=COMPLETED]').waitFor({ timeout: 60_000 });
  assert.equal(await prisma().generationJob.count({ where: { taskId: raw } }), 1, 'ordered once');
  assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: raw } })).budgetCapCents, 100);
});

test('"Interrupt" while a step runs: what the agent was about to do next is skipped, and the timeline says so', async () => {
  const { createTask } = await gqlOk(w.url, w.a.ownerToken, Create, { input: { workspaceId: ws(), title: 'Two-part banner' } });
  await openTask(createTask.task.id);
  await waitFor(() => held.isStarted, 'the first part running', { timeoutMs: 60_000 });
  const composer = page.getByTestId('task-composer');
  const box = page.getByTestId('composer-interrupt');
  await box.waitFor();
  await composer.locator('textarea').fill('Make it blue instead');
  await box.check();
  await composer.getByRole('button', { name: 'Send' }).click();
  await page.getByTestId('composer-sent').filter({ hasText: 'reads this first' }).waitFor();
  held.open();
  await page.locator('[data-testid=task-panel][data-status=COMPLETED]').waitFor({ timeout: 60_000 });
  assert.deepEqual(gates.ran(fromGlobalId(createTask.task.id).id), [1], 'the second part never ran');
  await page.locator('section.timeline').filter({ hasText: 'Stopped to read your message first: skipped 1 planned action' }).waitFor();
  await shot(page, 'run-control-interrupted');
});
