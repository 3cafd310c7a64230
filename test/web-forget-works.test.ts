// Works stay the person's, in a real browser: forgetting a memory shows the works that contain it on
// the confirmation card; nothing changes on confirming; after it, one click removes it from the
// works the person leaves ticked, and the others stay as they are.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { toGlobalId } from './helpers/clients.ts';
import { eventually } from './helpers/produce.ts';
import { launch, ownerGql, shot, signIn, startWebApp, type WebApp } from './helpers/web.ts';

let w: WebApp;
let browser: Browser;
let page: Page;
before(async () => {
  w = await startWebApp('webforgetworks');
  ({ browser, page } = await launch());
  await signIn(page, w.url, w.a.ownerToken);
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const raw = <T>(query: string, variables: Record<string, unknown>) => ownerGql<T>(w, query, variables);
const createDoc = async (name: string, markdown: string) =>
  (
    await raw<{ createObject: { object: { id: string } } }>(`mutation($input: CreateObjectInput!) { createObject(input: $input) { object { id } } }`, {
      input: { workspaceId: toGlobalId('Workspace', w.a.workspaceId), kind: 'DOCUMENT', name, content: { markdown } },
    })
  ).createObject.object.id;
const current = async (id: string) =>
  (await raw<{ node: { currentVersion: number; current: { markdown: string } } }>(`query($id: ID!) { node(id: $id) { ... on WorkspaceObject { currentVersion current { markdown } } } }`, { id })).node;

test('a source can be forgotten from the Memory view: its card says the message itself stays in the chat', async () => {
  await page.goto(`${w.url}/`);
  const box = page.getByLabel('Message');
  await box.fill('our brand color is zinnober teal');
  await box.press('Enter');
  const ws = toGlobalId('Workspace', w.a.workspaceId);
  await eventually(
    async () => (await raw<{ workspace: { memories: { edges: unknown[] } } }>(`query($id: ID!) { workspace(id: $id) { memories(first: 1) { edges { node { id } } } } }`, { id: ws })).workspace.memories.edges.length > 0,
    'a memory extracted',
    120_000,
  );
  await page.goto(`${w.url}/memory`);
  const m = page.getByTestId('memory').first();
  await m.getByText(/^Sources \(\d+\) and history/).click();
  await m.getByTestId('memory-source').first().getByRole('button', { name: 'Forget this message…' }).click();
  const card = m.locator('[data-testid=approval-IRREVERSIBLE]');
  await card.waitFor();
  assert.match(await card.locator('.card-title').innerText(), /the message itself stays in the chat/);
  // Not this time: the memory stays (the next test forgets it whole).
  await card.getByRole('button', { name: 'Keep it' }).click();
  await card.waitFor({ state: 'detached' });
  await m.getByRole('button', { name: 'Forget…' }).waitFor();
});

test('the forget card lists the works; after confirming (and a reload), one click removes it from the ticked ones', async () => {
  const brief = await createDoc('Brand brief', 'Main colour: zinnober teal.');
  const poster = await createDoc('Poster copy', 'Zinnober teal, big letters.');
  await createDoc('Budget', 'Nothing about colours.');

  await page.goto(`${w.url}/memory`);
  const m = page.getByTestId('memory').first();
  await m.waitFor();
  await m.getByRole('button', { name: 'Forget…' }).click();
  const card = page.locator('[data-testid=approval-IRREVERSIBLE]');
  await card.getByTestId('forget-work').first().waitFor();
  const listed = await card.getByTestId('forget-work').allInnerTexts();
  assert.deepEqual(listed.map((l) => l.split(' v')[0]).sort(), ['Brand brief', 'Poster copy']);
  // Each work with its kind and version; its whole name on hover.
  for (const l of listed) assert.match(l, / v1 \(document, in text\)/);
  assert.deepEqual((await card.locator('.forget-work-name').evaluateAll((els) => els.map((e) => e.getAttribute('title')))).sort(), ['Brand brief', 'Poster copy']);
  await shot(page, '23-forget-works-card');
  await card.getByRole('button', { name: 'Yes, do it' }).click();

  const offer = page.getByTestId('forget-works');
  await offer.getByRole('button', { name: /Remove it from 2 works/ }).waitFor();
  assert.equal((await current(brief)).currentVersion, 1, 'nothing changed on confirming');
  // The choice is not lost with the page: after a reload the approved card's works are offered again.
  await page.reload();
  await offer.getByRole('button', { name: /Remove it from 2 works/ }).waitFor();
  assert.equal(await page.getByTestId('forget-works').count(), 1, 'offered once');
  // Keep the poster as it is: untick it.
  await offer.getByRole('checkbox', { name: /Poster copy/ }).uncheck();
  await offer.getByRole('button', { name: 'Remove it from this work' }).click();
  await offer.locator('[data-status=REDACTED]').waitFor();
  await shot(page, '24-forget-works-done');
  assert.match(await offer.locator('[data-status=REDACTED]').innerText(), /Brand brief v1.*removed \(now v2\)/s);
  assert.match(await offer.locator('[data-status=KEPT]').innerText(), /Poster copy.*left as it is/s);
  assert.deepEqual(await current(brief), { currentVersion: 2, current: { markdown: 'Main colour: [removed].' } });
  assert.deepEqual(await current(poster), { currentVersion: 1, current: { markdown: 'Zinnober teal, big letters.' } });
  // Chosen once: after another reload nothing is offered any more.
  await page.reload();
  await page.getByTestId('memory').first().or(page.getByText('Nothing remembered yet.')).waitFor();
  assert.equal(await page.getByTestId('forget-works').count(), 0, 'nothing left to choose');

  // The brief's versions read newest first, each by its own number (no list ordinal contradicting it).
  await page.goto(`${w.url}/workspace`);
  await page.getByRole('button', { name: /Brand brief/ }).click();
  const versions = page.getByTestId('object-versions');
  await versions.locator('li').nth(1).waitFor();
  assert.equal(await versions.evaluate((e) => e.tagName), 'UL');
  assert.deepEqual((await versions.locator('li').allInnerTexts()).map((t) => t.split(' ')[0]), ['v2', 'v1']);
});
