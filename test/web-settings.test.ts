// Budget and autonomy in a real browser: change and save; a concurrent change is shown as a conflict
// (load theirs / save mine) instead of being overwritten; a viewer cannot change them; sign-out ends
// the session.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { graphql } from './gql/index.ts';
import { launch, shot, signIn, startWebApp, type WebApp } from './helpers/web.ts';

const Settings = graphql(`
  query WebTestSettings($id: ID!) { workspace(id: $id) { settings { autonomy perActionFreeCents dailyFreeCents taskBudgetCapCents version } } }
`);
const Access = graphql(`
  query WebTestAgentAccess($id: ID!) { workspace(id: $id) { agents { isMain scopes } settings { egressHosts { address } } } }
`);
const Update = graphql(`
  mutation WebTestUpdateSettings($input: UpdateWorkspaceSettingsInput!) { updateWorkspaceSettings(input: $input) { settings { version } } }
`);

let w: WebApp;
let browser: Browser;
let page: Page;
before(async () => {
  w = await startWebApp('websettings');
  ({ browser, page } = await launch());
});
after(async () => {
  await browser?.close();
  await w?.close();
});

test('change budget and autonomy; a concurrent change is a visible conflict, not an overwrite', async () => {
  await signIn(page, w.url, w.a.ownerToken);
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Budget & autonomy' }).waitFor();
  await page.getByLabel(/Manual/).check();
  await page.getByLabel('Free per action (USD)').fill('0.50');
  await page.getByLabel('Default cap per task (USD, empty = none)').fill('5');
  await page.getByRole('button', { name: 'Save settings' }).click();
  await page.getByTestId('settings-message').filter({ hasText: 'Saved' }).waitFor();
  let s = (await gqlOk(w.url, w.a.ownerToken, Settings, { id: toGlobalId('Workspace', w.a.workspaceId) })).workspace.settings;
  assert.deepEqual([s.autonomy, s.perActionFreeCents, s.taskBudgetCapCents], ['MANUAL', 50, 500]);
  await shot(page, '10-settings-saved');

  // Someone else changes them meanwhile.
  await gqlOk(w.url, w.a.ownerToken, Update, { input: { workspaceId: toGlobalId('Workspace', w.a.workspaceId), baseVersion: s.version, dailyFreeCents: 1234 } });
  await page.getByLabel('Free per day (USD)').fill('1.00');
  await page.getByRole('button', { name: 'Save settings' }).click();
  const msg = page.getByTestId('settings-message');
  await msg.filter({ hasText: 'changed these settings' }).waitFor();
  s = (await gqlOk(w.url, w.a.ownerToken, Settings, { id: toGlobalId('Workspace', w.a.workspaceId) })).workspace.settings;
  assert.equal(s.dailyFreeCents, 1234, 'nothing was overwritten');
  await shot(page, '11-settings-conflict');
  await page.getByRole('button', { name: 'Load theirs' }).click();
  assert.equal(await page.getByLabel('Free per day (USD)').inputValue(), '12.34');
});

test('a viewer sees the settings but cannot change them; sign-out ends the session', async () => {
  const ctx = await browser.newContext();
  const p = await ctx.newPage();
  await signIn(p, w.url, w.a.viewerToken);
  await p.goto(`${w.url}/settings`);
  await p.getByText('Only the workspace owner can change these.').waitFor();
  assert.equal(await p.getByRole('button', { name: 'Save settings' }).isDisabled(), true);
  await p.getByRole('button', { name: 'Sign out' }).click();
  await p.waitForURL(/\/signin/);
  await p.goto(`${w.url}/settings`);
  await p.waitForURL(/\/signin\?next=%2Fsettings/);
  await shot(p, '12-signed-out');
  await ctx.close();
});

test('owners choose what the agent may do and which hosts its calls reach; a viewer only reads the rights', async () => {
  const id = toGlobalId('Workspace', w.a.workspaceId);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`${w.url}/settings`);
  await page.getByRole('heading', { name: 'What the agent may do and reach' }).waitFor();
  const paid = page.getByLabel(/Order paid results/);
  await paid.waitFor();
  assert.equal(await paid.isChecked(), true, 'the main agent starts with every right');
  await paid.uncheck();
  await page.getByRole('button', { name: 'Save rights' }).click();
  await page.getByText('The agent works with these rights from its next step.').waitFor();
  let a = (await gqlOk(w.url, w.a.ownerToken, Access, { id })).workspace;
  const main = a.agents.find((x) => x.isMain)!;
  assert.ok(!main.scopes.includes('jobs:order'), 'the right is taken away');
  assert.ok(main.scopes.includes('objects:write'), 'the others stay');

  // A host: bad input is said in words and changes nothing; a good one is listed, then removed.
  const hostBox = page.getByRole('textbox', { name: /Allow a host/ });
  await hostBox.fill('https://tools.example.com/path');
  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  await page.getByRole('alert').first().waitFor();
  a = (await gqlOk(w.url, w.a.ownerToken, Access, { id })).workspace;
  assert.deepEqual(a.settings.egressHosts.map((h) => h.address), []);
  await hostBox.fill('tools.example.com');
  await page.getByRole('button', { name: 'Allow', exact: true }).click();
  await page.getByRole('list', { name: 'Allowed hosts' }).getByText('tools.example.com:443').waitFor();
  await shot(page, '13-agent-access-phone');
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `no sideways scrolling at phone width (${overflow}px)`);
  page.once('dialog', (d) => void d.accept());
  await page.getByRole('list', { name: 'Allowed hosts' }).getByRole('button', { name: 'Remove' }).click();
  await page.getByText('tools.example.com:443 removed.').waitFor();
  a = (await gqlOk(w.url, w.a.ownerToken, Access, { id })).workspace;
  assert.deepEqual(a.settings.egressHosts.map((h) => h.address), []);
  await page.setViewportSize({ width: 1280, height: 860 });

  const ctx = await browser.newContext();
  const p = await ctx.newPage();
  await signIn(p, w.url, w.a.viewerToken);
  await p.goto(`${w.url}/settings`);
  await p.getByText('Only the workspace owner can change the agent’s rights.').waitFor();
  assert.equal(await p.getByLabel(/Create and change works/).isDisabled(), true);
  assert.equal(await p.getByRole('button', { name: 'Save rights' }).count(), 0);
  assert.equal(await p.getByRole('list', { name: 'Allowed hosts' }).count(), 0, 'the host list is the owners\' alone');
  await ctx.close();
});
