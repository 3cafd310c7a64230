// Workspace objects and memory in a real browser: a document save against a stale base version
// shows the conflict (reload or merge) instead of overwriting; a remembered fact shows its source,
// and forgetting it goes through the confirmation card.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { toGlobalId } from './helpers/clients.ts';
import { eventually } from './helpers/produce.ts';
import { launch, ownerGql, ROOT, shot, signIn, startWebApp, type WebApp } from './helpers/web.ts';

const schema = readFileSync(`${ROOT}schema.graphql`, 'utf8');
const hasObjects = /\btype WorkspaceObject\b/.test(schema) && /\bupdateObject\(/.test(schema);
const hasMemory = /\bmemories\(/.test(schema) && /\bforgetMemory\(/.test(schema);

let w: WebApp;
let browser: Browser;
let page: Page;
before(async () => {
  w = await startWebApp('webworkspace');
  ({ browser, page } = await launch());
  await signIn(page, w.url, w.a.ownerToken);
});
after(async () => {
  await browser?.close();
  await w?.close();
});

const raw = <T>(query: string, variables: Record<string, unknown>) => ownerGql<T>(w, query, variables);

test('document editor: a stale save shows the conflict (reload or merge) instead of overwriting', async () => {
  assert.ok(hasObjects, 'the objects API is in the schema');
  const wsId = toGlobalId('Workspace', w.a.workspaceId);
  const created = await raw<{ createObject: { object: { id: string; currentVersion: number } } }>(
    `mutation($input: CreateObjectInput!) { createObject(input: $input) { object { id currentVersion } } }`,
    { input: { workspaceId: wsId, kind: 'DOCUMENT', name: 'Brand brief', content: { markdown: 'Warm, retro, friendly.' } } },
  );
  const obj = created.createObject.object;
  await page.goto(`${w.url}/workspace`);
  await page.getByRole('button', { name: /Brand brief/ }).click();
  const editor = page.getByLabel(/Document \(editing version/);
  await editor.fill('Warm, retro, friendly. Orange and brown.');
  // Someone else saves first.
  await raw(`mutation($input: UpdateObjectInput!) { updateObject(input: $input) { object { id currentVersion } } }`, {
    input: { objectId: obj.id, baseVersion: obj.currentVersion, content: { markdown: 'Warm, retro, friendly. No orange!' } },
  });
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByTestId('conflict').waitFor();
  await shot(page, '21-document-conflict');
  await page.getByRole('button', { name: /Merge/ }).click();
  assert.match(await editor.inputValue(), /No orange!/);
  assert.match(await editor.inputValue(), /Orange and brown/);
});

test('memory: see what is remembered with its source; forgetting asks for confirmation first', async () => {
  assert.ok(hasMemory, 'the memory API is in the schema');
  await page.goto(`${w.url}/`);
  const box = page.getByLabel('Message');
  await box.fill('our brand color is deep orange');
  await box.press('Enter');
  // Extraction is a background job: wait on the API for its result (cheap, unlike reloading the
  // page), with a bound for a loaded machine, then open the page once.
  const ws = toGlobalId('Workspace', w.a.workspaceId);
  await eventually(
    async () => (await raw<{ workspace: { memories: { edges: unknown[] } } }>(`query($id: ID!) { workspace(id: $id) { memories(first: 1) { edges { node { id } } } } }`, { id: ws })).workspace.memories.edges.length > 0,
    'a memory extracted',
    120_000,
  );
  await page.goto(`${w.url}/memory`);
  await page.getByTestId('memory').first().waitFor();
  const m = page.getByTestId('memory').first();
  assert.match(await m.innerText(), /orange/i);
  await m.getByText(/Sources/).click();
  await shot(page, '22-memory');
  await m.getByRole('button', { name: 'Forget…' }).click();
  const card = page.locator('[data-testid=approval-IRREVERSIBLE]');
  await card.waitFor();
  await card.getByRole('button', { name: 'Yes, do it' }).click();
  await eventually(async () => !/deep orange/i.test(await page.locator('main').innerText()), 'forgotten', 120_000);
});
