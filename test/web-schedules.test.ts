// Schedules in a real browser, at desktop (1440×900) and phone (390×844) width: make a weekly
// message and a one-off task from the form, see each said in plain words with its next run (the
// same instant the API holds), pause and resume, edit, delete after confirming; a viewer only reads.
// No sideways scroll at phone width; axe finds nothing serious or critical.
import AxeBuilder from '@axe-core/playwright';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { nextSlotAfter } from '../server/domain/schedule-slots.ts';
import { waitFor } from './helpers/wait.ts';
import { launch, ownerGql, shot, signIn, startWebApp, type WebApp } from './helpers/web.ts';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

let w: WebApp;
let browser: Browser;
let page: Page;

before(async () => {
  w = await startWebApp('webschedules');
  ({ browser, page } = await launch());
  await ownerGql(w, 'mutation($i: UpdateWorkspaceSettingsInput!) { updateWorkspaceSettings(input: $i) { settings { timeZone } } }', {
    i: { workspaceId: Buffer.from(`Workspace:${w.a.workspaceId}`).toString('base64'), timeZone: 'Europe/Berlin' },
  });
  await signIn(page, w.url, w.a.ownerToken);
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const rows = () => w.app.deps.prisma.schedule.findMany({ where: { workspaceId: w.a.workspaceId, deletedAt: null }, orderBy: { createdAt: 'asc' } });

async function audit(p: Page, where: string): Promise<void> {
  const r = await new AxeBuilder({ page: p as never }).analyze();
  const serious = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${where}: ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
  assert.deepEqual(serious, []);
}

async function noSidewaysScroll(p: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await p.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
  assert.ok(scrollWidth <= clientWidth, `no sideways scroll (${scrollWidth} > ${clientWidth})`);
}

for (const [size, label] of [[DESKTOP, 'desktop'], [PHONE, 'phone']] as const) {
  test(`${label}: create a weekly message, see its next run, pause and resume, edit, delete`, async () => {
    await page.setViewportSize(size);
    await page.goto(`${w.url}/`);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: /Schedules|Later/ }).click();
    await page.getByRole('heading', { name: 'Schedules', level: 1 }).waitFor();
    await page.getByText('Nothing scheduled yet.').waitFor();

    const form = page.getByTestId('schedule-form');
    await form.getByLabel('Send a message (to your main thread, as if you wrote it)').check();
    await form.getByLabel('Message', { exact: true }).fill('Write a social post from last week’s results');
    await form.getByLabel('Name (optional)').fill(`Weekly post (${label})`);
    await form.getByLabel('Once a week').check();
    await form.getByLabel('Day', { exact: true }).selectOption({ label: 'Monday' });
    await form.getByLabel('Time', { exact: true }).fill('09:00');
    assert.equal(await form.getByLabel('Time zone').inputValue(), 'Europe/Berlin', 'the workspace’s zone by default');
    await form.getByRole('button', { name: 'Create schedule' }).click();

    const item = page.getByTestId('schedule').filter({ hasText: `Weekly post (${label})` });
    await item.getByTestId('schedule-description').filter({ hasText: 'Every Monday at 09:00 (Europe/Berlin)' }).waitFor();
    const [row] = await rows();
    assert.ok(row, 'saved');
    assert.deepEqual([row.kind, row.cron, row.timeZone, row.text], ['MESSAGE', '0 9 * * 1', 'Europe/Berlin', 'Write a social post from last week’s results']);
    const next = item.getByTestId('schedule-next');
    assert.equal(await next.getAttribute('data-next-run'), row.nextRunAt!.toISOString(), 'the next run shown is the one the API holds');
    assert.equal(row.nextRunAt!.toISOString(), nextSlotAfter('0 9 * * 1', 'Europe/Berlin', new Date(row.nextRunAt!.getTime() - 7 * 86_400_000))!.toISOString(), 'a Monday 09:00 in Berlin');
    assert.match(await next.innerText(), /^Next run: Mon.*9:00.*\(in /);
    await noSidewaysScroll(page);
    await shot(page, `schedules-01-created-${label}`);
    await audit(page, `/schedules ${label}`);

    await item.getByRole('button', { name: 'Pause' }).click();
    await item.getByText('Paused: nothing runs until it is resumed.').waitFor();
    assert.equal(await item.getAttribute('data-paused'), 'true');
    assert.equal((await rows())[0]!.paused, true);
    await shot(page, `schedules-02-paused-${label}`);
    await item.getByRole('button', { name: 'Resume' }).click();
    await item.getByText(/^Next run:/).waitFor();
    assert.equal((await rows())[0]!.paused, false);

    // Edit: every weekday at 08:30.
    await item.getByRole('button', { name: 'Edit' }).click();
    const edit = item.getByTestId('schedule-edit-form');
    assert.equal(await edit.getByLabel('Once a week').isChecked(), true, 'the form opens on what the schedule is');
    await edit.getByLabel('Every weekday (Mon–Fri)').check();
    await edit.getByLabel('Time', { exact: true }).fill('08:30');
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await item.getByTestId('schedule-description').filter({ hasText: 'Every weekday (Monday to Friday) at 08:30 (Europe/Berlin)' }).waitFor();
    assert.deepEqual([(await rows())[0]!.cron, (await rows())[0]!.version], ['30 8 * * 1-5', 4]);

    // Delete asks first; declining keeps it.
    page.once('dialog', (d) => void d.dismiss());
    await item.getByRole('button', { name: 'Delete' }).click();
    assert.equal((await rows()).length, 1, 'declined: still there');
    page.once('dialog', (d) => {
      assert.match(d.message(), /^Delete “Weekly post/);
      void d.accept();
    });
    await item.getByRole('button', { name: 'Delete' }).click();
    await item.waitFor({ state: 'detached' });
    await page.getByText('Nothing scheduled yet.').waitFor();
    await waitFor(async () => (await rows()).length === 0, 'the schedule deleted');
  });
}

test('a one-off task at a date and time in the workspace’s zone; a viewer only reads', async () => {
  await page.setViewportSize(DESKTOP);
  await page.goto(`${w.url}/schedules`);
  const form = page.getByTestId('schedule-form');
  await form.getByLabel('Start a task').check();
  await form.getByLabel('What the task should do').fill('Make three posters for Friday’s show');
  await form.getByLabel('Once', { exact: true }).check();
  await form.getByLabel('Date').fill('2031-06-12');
  await form.getByLabel('Time', { exact: true }).fill('09:00');
  await form.getByLabel('Budget cap per run (USD, empty = the workspace’s default)').fill('2.50');
  await form.getByRole('button', { name: 'Create schedule' }).click();
  const item = page.getByTestId('schedule').filter({ hasText: 'Make three posters' });
  await item.getByTestId('schedule-description').filter({ hasText: 'Once on Thursday, 12 June 2031 at 09:00 (Europe/Berlin)' }).waitFor();
  const [row] = await rows();
  assert.deepEqual([row!.kind, row!.cron, row!.runAt?.toISOString(), row!.budgetCapCents], ['TASK', null, '2031-06-12T07:00:00.000Z', 250], '09:00 summer time in Berlin');
  await item.getByText('budget cap per run: $2.50', { exact: false }).waitFor();

  // A bad cron is refused with the server's sentence, and nothing is saved.
  await form.getByLabel('Custom (cron, for experts)').check();
  await form.getByLabel('What the task should do').fill('never');
  await form.getByLabel('Cron expression (minute hour day month weekday)').fill('61 9 * * 1');
  await form.getByRole('button', { name: 'Create schedule' }).click();
  await form.getByRole('alert').filter({ hasText: 'The minute field "61"' }).waitFor();
  assert.equal((await rows()).length, 1);

  const ctx = await browser.newContext({ viewport: PHONE });
  try {
    const p = await ctx.newPage();
    await signIn(p, w.url, w.a.viewerToken);
    await p.goto(`${w.url}/schedules`);
    await p.getByTestId('schedule').filter({ hasText: 'Make three posters' }).waitFor();
    await p.getByText('You can see the schedules, but not make or change them.').waitFor();
    for (const name of ['Pause', 'Edit', 'Delete', 'Create schedule']) assert.equal(await p.getByRole('button', { name }).count(), 0, `no “${name}”`);
    await noSidewaysScroll(p);
    await audit(p, '/schedules viewer phone');
    await shot(p, 'schedules-03-viewer-phone');
  } finally {
    await ctx.close();
  }
});
