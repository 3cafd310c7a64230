// Tools from other apps (MCP) in a real browser, as a person uses them: the owner adds a server
// through the settings form (address and token), sees its tools with their safety in plain words and
// switches one off and on; in the Studio, "use the echo tool with '…'" runs the tool and the task
// delivers its answer; a destructive tool waits for a person's confirmation on a card and then runs
// exactly once (the server counts); the server changes its tools, "Check for changes" shows it
// quarantined in plain words (and the Studio points to it) and Approve turns it back on. Also: the
// card's input and both its buttons, a reload while it waits, German and French phrasings, a tool
// that needs numbers, and a missing input asked for instead of invented. A member who is not an owner sees the
// list read-only; at phone width the section has no sideways scroll; axe finds nothing serious.
// The agent is the product's offline model; the MCP server runs in this process
// (test/fixtures/mcp-web-server.ts) and asks for a bearer token.
import AxeBuilder from '@axe-core/playwright';
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { startMcpWebServer, type McpWebServer } from './fixtures/mcp-web-server.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { holdsFor, waitFor } from './helpers/wait.ts';
import { launch, shot, signIn, startWebApp, type WebApp } from './helpers/web.ts';

let w: WebApp;
let mcp: McpWebServer;
let browser: Browser;
let page: Page;

before(async () => {
  mcp = await startMcpWebServer();
  w = await startWebApp('webmcp');
  ({ browser, page } = await launch());
  await signIn(page, w.url, w.a.ownerToken);
});
after(async () => {
  await browser?.close();
  await w?.close();
  await mcp?.close();
});

const prisma = () => w.app.deps.prisma;
const server = () => page.getByTestId('mcp-server-notes');
const tool = (name: string): Locator => server().locator('.mcp-tool').filter({ has: page.locator('strong', { hasText: new RegExp(`^${name}$`) }) });

async function openSettings(p: Page = page) {
  await p.goto(`${w.url}/settings#mcp`);
  await p.getByRole('heading', { name: 'Tools from other apps (MCP)' }).waitFor();
}

/** Writes `text` in the Studio's main thread and returns the task it opened. */
async function say(text: string): Promise<string> {
  await page.goto(`${w.url}/`);
  const box = page.getByLabel('Message');
  await box.fill(text);
  await box.press('Enter');
  // The router may ask which task the words are for (it cannot tell a new request from a follow-up
  // of a tool task): the person answers "a new task", as they would.
  const newTask = page.getByRole('button', { name: /^(Start a new task|Neue Aufgabe starten|Commencer une nouvelle tâche|Nouvelle tâche)$/ }).last();
  await Promise.race([page.waitForURL(/[?&]task=/), newTask.waitFor({ timeout: 15_000 }).then(() => newTask.click())]).catch(() => undefined);
  await page.waitForURL(/[?&]task=/).catch(async (e) => {
    await shot(page, 'mcp-failed-say');
    throw e;
  });
  await page.locator('[data-testid=task-panel]').waitFor();
  return fromGlobalId(new URL(page.url()).searchParams.get('task')!).id;
}

/** Waits until the open task's delivery says `text` (a screenshot when it does not). */
async function delivered(text: string | RegExp): Promise<Locator> {
  const summary = page.getByTestId('task-summary').filter({ hasText: text });
  await summary.waitFor({ timeout: 60_000 }).catch(async (e) => {
    await shot(page, 'mcp-failed-delivery');
    throw e;
  });
  return summary;
}

test('the owner adds a server through the form: a missing token is refused in words, then its tools show their safety', async () => {
  await openSettings();
  await page.getByLabel('Short name (lowercase, e.g. docs)').fill('notes');
  await page.getByLabel('Address of the server').fill(mcp.url);
  await page.getByRole('button', { name: 'Add server' }).click();
  const refused = page.locator('form.mcp-add [role=alert]');
  await refused.waitFor();
  const why = await refused.innerText();
  assert.doesNotMatch(why, /stack|Error:|at .*\.ts/i, `a plain sentence: ${why}`);
  assert.equal(await prisma().mcpServer.count(), 0, 'nothing was stored');
  await shot(page, 'mcp-01-refused-without-token');

  await page.getByLabel('Bearer token (if the server needs one; never shown again)').fill(mcp.token);
  await page.getByRole('button', { name: 'Add server' }).click();
  await server().waitFor();
  assert.equal(await server().getByTestId('mcp-status').innerText(), 'On');
  assert.match(await tool('Echo').innerText(), /only reads/);
  assert.match(await tool('Wipe').innerText(), /asks before acting \(can destroy things\)/);
  assert.match(await server().innerText(), /token set/);
  assert.doesNotMatch(await page.content(), new RegExp(mcp.token), 'the token is never shown again');
  await shot(page, 'mcp-02-added');
});

test('a tool is switched off and on again', async () => {
  const allowed = async () => (await prisma().mcpServer.findFirstOrThrow({ where: { name: 'notes' } })).allowedTools as string[] | null;
  await tool('Add').getByRole('checkbox').uncheck();
  await tool('Add').getByText('Not allowed').waitFor();
  assert.deepEqual([...(await waitFor(allowed, 'the change is saved'))].sort(), ['echo', 'wipe']);
  await shot(page, 'mcp-03-tool-off');
  await tool('Add').getByRole('checkbox').check();
  await tool('Add').getByText('Allowed', { exact: true }).waitFor();
  await waitFor(async () => (await allowed()) === null, 'every tool is allowed again');
  await waitFor(async () => (await tool('Add').getByRole('checkbox').isChecked()) && !(await tool('Add').getByRole('checkbox').isDisabled()), 'the switch settles');
});

test("the Studio: “use the echo tool with '…'” runs the tool and delivers its answer", async () => {
  const taskId = await say("use the echo tool with 'hello from the web'");
  await delivered('Echo: hello from the web');
  assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: taskId } })).status, 'COMPLETED');
  assert.equal(mcp.runs.echo, 1);
  assert.deepEqual(mcp.inputs.echo, [{ text: 'hello from the web' }]);
  await shot(page, 'mcp-04-echo-delivered');
});

test('a destructive tool asks on a card first; nothing runs until the person confirms, then it runs once', async () => {
  await say("use the wipe tool with 'old notebook'");
  const card = page.locator('[data-testid=approval-IRREVERSIBLE][data-status=PENDING]');
  await card.waitFor({ timeout: 60_000 });
  assert.match(await card.innerText(), /Wipe/);
  assert.match(await card.innerText(), /destructive/);
  // What it would wipe is on the card: a person cannot confirm what they cannot see.
  assert.match(await card.getByTestId('mcp-call-input').innerText(), /target\s*old notebook/);
  await shot(page, 'mcp-05-confirm-card');
  await holdsFor(() => !mcp.runs.wipe, 'nothing is wiped before the person confirms', 1500);
  // A reload while it waits: the card is still there, still waiting, and nothing ran.
  await page.reload();
  await card.waitFor();
  assert.equal(mcp.runs.wipe ?? 0, 0);
  await card.getByRole('button', { name: 'Yes, do it' }).click();
  await delivered('Wiped old notebook');
  await holdsFor(() => mcp.runs.wipe === 1, 'it ran exactly once', 1500);
  await shot(page, 'mcp-06-confirmed');
});

test('“Keep it” on the card: the tool never runs, and the delivery says so in words', async () => {
  await say("use the wipe tool with 'precious notebook'");
  const card = page.locator('[data-testid=approval-IRREVERSIBLE][data-status=PENDING]');
  await card.waitFor({ timeout: 60_000 });
  assert.match(await card.getByTestId('mcp-call-input').innerText(), /precious notebook/);
  await card.getByLabel('Note (optional)').fill('not this one');
  await card.getByRole('button', { name: 'Keep it' }).click();
  const summary = await delivered('wipe did not work');
  assert.doesNotMatch(await summary.innerText(), /[{}]/, 'words, not JSON');
  await holdsFor(() => mcp.runs.wipe === 1 && !mcp.inputs.wipe!.some((i) => JSON.stringify(i).includes('precious')), 'the declined call never reached the server', 1500);
  await shot(page, 'mcp-06b-kept');
});

test('other languages and a tool that needs numbers: German and French phrasings call the tool; a missing number is asked for, then taken from the reply', async () => {
  await say('Benutze das Echo-Werkzeug mit „Hallo aus dem Browser“');
  await delivered('Echo: Hallo aus dem Browser');
  await say("Utilise l'outil add avec 2 et 3");
  await delivered('The sum is 5');
  assert.deepEqual(mcp.inputs.add, [{ a: 2, b: 3 }]);

  await say('use the add tool with 40');
  await delivered('add needs b');
  assert.equal(mcp.runs.add, 1, 'nothing invented: the tool was not called without its second number');
  await shot(page, 'mcp-06c-needs-input');
  const box = page.getByTestId('task-composer').getByRole('textbox');
  await box.fill('2');
  await box.press('Enter');
  await delivered('The sum is 42');
  assert.deepEqual(mcp.inputs.add, [{ a: 2, b: 3 }, { a: 40, b: 2 }]);
});

test('the server changes its tools: “Check for changes” shows it quarantined in plain words, Approve turns it back on', async () => {
  mcp.changeTools();
  await openSettings();
  await server().getByRole('button', { name: 'Check for changes' }).click();
  await server().getByTestId('mcp-status').filter({ hasText: 'Changed — waiting for you' }).waitFor();
  assert.match(await server().innerText(), /This server changed since you added it/);
  assert.match(await server().innerText(), /new tools: shout/);
  // Its card belongs to no task: the Studio, where owners look for what waits for them, points to it
  // (and still lists its tasks).
  await page.goto(`${w.url}/`);
  const notice = page.getByTestId('mcp-waiting');
  await notice.waitFor();
  assert.match(await notice.innerText(), /“Notes service” changed its tools/);
  assert.ok((await page.locator('.tasklist li').count()) > 0, 'the task list still shows the tasks');
  await shot(page, 'mcp-07a-studio-notice');
  await notice.getByRole('link', { name: 'Decide in Settings' }).click();
  await page.waitForURL(/\/settings/);
  await server().getByTestId('mcp-status').filter({ hasText: 'Changed — waiting for you' }).waitFor();
  await shot(page, 'mcp-07-quarantined');
  await server().getByRole('button', { name: 'Approve the new version' }).click();
  await server().getByTestId('mcp-status').filter({ hasText: /^On$/ }).waitFor();
  await tool('Shout').waitFor();
  assert.equal((await prisma().mcpServer.findFirstOrThrow({ where: { name: 'notes' } })).status, 'ACTIVE');
  await shot(page, 'mcp-08-approved');
  await page.goto(`${w.url}/`);
  await page.locator('.tasklist li').first().waitFor();
  assert.equal(await page.getByTestId('mcp-waiting').count(), 0, 'nothing waits any more');
});

test('a member who is not an owner sees the list read-only', async () => {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const p = await ctx.newPage();
    await signIn(p, w.url, w.a.viewerToken);
    await openSettings(p);
    await p.getByText('Only the workspace owner can add or change these.').waitFor();
    await p.getByTestId('mcp-server-notes').waitFor();
    for (const box of await p.getByTestId('mcp-server-notes').getByRole('checkbox').all()) assert.equal(await box.isDisabled(), true);
    for (const name of ['Add server', 'Check for changes', 'Remove', 'Turn off']) assert.equal(await p.getByRole('button', { name }).count(), 0, `no “${name}”`);
    await shot(p, 'mcp-09-member-read-only');
  } finally {
    await ctx.close();
  }
});

test('phone width: the section has no sideways scroll; axe finds no serious violation on the settings page', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await openSettings();
    await server().waitFor();
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    assert.ok(scrollWidth <= clientWidth, `no sideways scroll (${scrollWidth} > ${clientWidth})`);
    await shot(page, 'mcp-10-phone');
    const r = await new AxeBuilder({ page: page as never }).analyze();
    const serious = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    assert.deepEqual(serious, []);
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});
