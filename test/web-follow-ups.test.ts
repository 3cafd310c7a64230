// The agent's follow-ups in a real browser: the task panel says in plain words when the agent will
// check again and what for; a person who may write cancels it with one click (the follow-up is
// cancelled in the database and the timeline says so); a viewer sees it without a Cancel button.
// Readable at phone width.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { ToolMessage } from '@langchain/core/messages';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { ScriptedChatModel } from '../server/runtime/models/scripted-model.ts';
import { graphql } from './gql/index.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { waitFor } from './helpers/wait.ts';
import { launch, shot, signIn, startWebApp, type WebApp } from './helpers/web.ts';

const Create = graphql(`
  mutation WebFollowUpsCreate($input: CreateTaskInput!) { createTask(input: $input) { task { id } } }
`);

const ZONE = 'Europe/Berlin';
const REASON = "see whether the video's colours are right";
// Three days ahead: the panel names the weekday ("Will check again Friday 09:00: …").
const wakeAt = new Date(Date.now() + 3 * 86_400_000);

const model = new ScriptedChatModel(({ messages }) => {
  if (messages.some((m) => m instanceof ToolMessage)) return { content: 'I will check the colours then.' };
  return { content: 'Coming back to this later.', toolCalls: [{ name: 'follow_up_at', args: { at: wakeAt.toISOString(), reason: REASON } }] };
});

let w: WebApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
before(async () => {
  const scripted = scriptedProvider(model);
  w = await startWebApp('webfollowups', { models: { ...scripted, info: { ...scripted.info, offline: true, description: 'Scripted model (test fixture)' } } });
  await w.app.deps.prisma.workspaceSettings.upsert({ where: { workspaceId: w.a.workspaceId }, create: { workspaceId: w.a.workspaceId, followUpsEnabled: true }, update: { followUpsEnabled: true } });
  ({ browser } = await launch());
  // The reader's own zone decides the words; fixed here so the expected words are known.
  context = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: ZONE });
  page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await signIn(page, w.url, w.a.ownerToken);
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const expectedWords = () => {
  const weekday = new Intl.DateTimeFormat('en-GB', { weekday: 'long', timeZone: ZONE }).format(wakeAt);
  const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', hourCycle: 'h23', timeZone: ZONE }).format(wakeAt);
  return `Will check again ${weekday} ${time}: ${REASON}`;
};

test('the task panel shows a pending follow-up in plain words; Cancel cancels it; a viewer cannot', async () => {
  const { createTask } = await gqlOk(w.url, w.a.ownerToken, Create, { input: { workspaceId: toGlobalId('Workspace', w.a.workspaceId), title: 'Colour check of the harbour film' } });
  const taskId = createTask.task.id;
  const raw = Buffer.from(taskId, 'base64').toString('utf8').split(':')[1]!;
  await page.goto(`${w.url}/?task=${encodeURIComponent(taskId)}`);
  const item = page.getByTestId('follow-up');
  await item.waitFor({ timeout: 60_000 });
  assert.equal((await item.locator('.follow-up-text').innerText()).trim(), expectedWords());
  assert.equal(await item.locator('time').getAttribute('datetime'), wakeAt.toISOString());
  await page.locator('section.timeline').filter({ hasText: `The agent will check again` }).waitFor();

  // Phone width: the words wrap, the button stays on screen and thumb-sized, nothing scrolls sideways.
  await page.setViewportSize({ width: 390, height: 844 });
  const cancel = item.getByRole('button', { name: /Cancel the follow-up/ });
  await cancel.scrollIntoViewIfNeeded();
  const box = await cancel.boundingBox();
  assert.ok(box && box.height >= 40 && box.x >= 0 && box.x + box.width <= 390, 'a thumb-sized button inside the phone screen');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no sideways scrolling at phone width (${overflow}px)`);
  await shot(page, 'follow-up-pending-phone');
  await page.setViewportSize({ width: 1440, height: 900 });

  // A viewer reads it, and has nothing to press.
  const viewerContext = await browser.newContext({ viewport: { width: 1440, height: 900 }, timezoneId: ZONE });
  const viewer = await viewerContext.newPage();
  await signIn(viewer, w.url, w.a.viewerToken);
  await viewer.goto(`${w.url}/?task=${encodeURIComponent(taskId)}`);
  await viewer.getByTestId('follow-up').waitFor();
  assert.equal(await viewer.getByTestId('follow-up').getByRole('button').count(), 0);
  await viewerContext.close();

  await cancel.click();
  await page.getByTestId('follow-up-cancelled').filter({ hasText: REASON }).waitFor();
  await waitFor(async () => (await page.getByTestId('follow-up').count()) === 0, 'the follow-up to leave the panel');
  const row = await w.app.deps.prisma.followUp.findFirstOrThrow({ where: { taskId: raw } });
  assert.deepEqual([row.status, row.cancelledById], ['CANCELLED', w.a.ownerId]);
  await page.locator('section.timeline').filter({ hasText: `cancelled a follow-up: “${REASON}”` }).waitFor();
  await shot(page, 'follow-up-cancelled');
});
