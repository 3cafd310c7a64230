// How the web app looks and reads to a person, in real Chromium at a desktop (1440×900) and a phone
// (390×844) size: skeletons rather than empty states while loading, every task card's progress after
// a reload, no layout jumps while events stream, a readable /workspace, the right "on hold" figure on
// /settings, a phone header of one row with one scroll area, plain words (no tool names, no internal
// tags), GraphiQL with no internet, an accessibility audit of every page, and screenshots of every
// page at both sizes (test-results/web/layout-*.png).
// The agent is the scripted poster fixture (test/fixtures/poster-plugin.ts); the runtime reports the
// offline model, so the header's offline badge shows.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { posterModel } from './fixtures/poster-plugin.ts';
import { gqlOk, toGlobalId } from './helpers/clients.ts';
import { pause, waitFor } from './helpers/wait.ts';
import { launch, SHOTS, signIn, startWebApp, type WebApp } from './helpers/web.ts';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const PAGES = [
  { path: '/', name: 'studio' },
  { path: '/workspace', name: 'workspace' },
  { path: '/memory', name: 'memory' },
  { path: '/settings', name: 'settings' },
] as const;

let w: WebApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let filesDir: string;
const taskIds: string[] = [];

const doc = <T, V = Record<string, unknown>>(text: string) => parse(text) as unknown as TypedDocumentNode<T, V>;
const CreateTask = doc<{ createTask: { task: { id: string } } }, { i: { workspaceId: string; title: string; goal: string } }>(
  'mutation($i: CreateTaskInput!) { createTask(input: $i) { task { id } } }',
);
const SendMessage = doc<{ sendMessage: { message: { id: string } } }, { i: { workspaceId: string; text: string; idempotencyKey: string } }>(
  'mutation($i: SendMessageInput!) { sendMessage(input: $i) { message { id } } }',
);
const TaskChecklist = doc<{ task: { checklist: { total: number } | null } | null }, { id: string }>('query($id: ID!) { task(id: $id) { checklist { total } } }');

before(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'atelier-web-layout-'));
  const scripted = scriptedProvider(posterModel);
  w = await startWebApp('weblayout', {
    models: { ...scripted, info: { ...scripted.info, offline: true, description: 'Scripted poster model (test fixture)' } },
    provider: new SimulatedProvider({ filesDir, latencyMs: { IMAGE: 400 } }),
  });
  ({ browser, context, page } = await launch());
  await signIn(page, w.url, w.a.ownerToken);
  // A lasting fact for the memory page (said before any task exists, so it belongs to none).
  await gqlOk(w.url, w.a.ownerToken, SendMessage, { i: { workspaceId: toGlobalId('Workspace', w.a.workspaceId), text: 'our brand color is deep orange', idempotencyKey: 'fact-1' } });
  await waitFor(async () => (await w.app.deps.prisma.memory.count()) > 0, 'a memory extracted', { timeoutMs: 30_000 });
  // Two pieces of work, each planned (a checklist) and waiting for its plan to be approved.
  for (const title of ['make three retro posters for a coffee brand', 'design two vintage posters for a bicycle repair shop']) {
    const r = await gqlOk(w.url, w.a.ownerToken, CreateTask, { i: { workspaceId: toGlobalId('Workspace', w.a.workspaceId), title, goal: title } });
    taskIds.push(r.createTask.task.id);
  }
  for (const id of taskIds) {
    await waitFor(async () => (await gqlOk(w.url, w.a.ownerToken, TaskChecklist, { id })).task?.checklist?.total, `task ${id} planned`, { timeoutMs: 30_000 });
  }
});
after(async () => {
  await browser?.close();
  await w?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

async function layoutShot(p: Page, name: string): Promise<string> {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `layout-${name}.png`);
  await p.screenshot({ path, fullPage: true });
  return path;
}

/** Elements other than the page itself that scroll (overflow auto/scroll and more content than room). */
function nestedScrollers(p: Page): Promise<string[]> {
  return p.evaluate(() =>
    [...document.querySelectorAll<HTMLElement>('body *')]
      .filter((e) => {
        const s = getComputedStyle(e);
        const y = s.overflowY === 'auto' || s.overflowY === 'scroll';
        const x = s.overflowX === 'auto' || s.overflowX === 'scroll';
        return (y && e.scrollHeight > e.clientHeight + 1) || (x && e.scrollWidth > e.clientWidth + 1);
      })
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].join('.')}`),
  );
}

/** Words split across lines, and boxes whose text overflows them, inside `selector`. */
function cutWords(p: Page, selector: string): Promise<string[]> {
  return p.evaluate((sel) => {
    const bad: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>(sel)) {
      if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) bad.push(`overflows: ${el.textContent}`);
      const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent ?? '';
        for (const m of text.matchAll(/\S+/g)) {
          const r = document.createRange();
          r.setStart(n, m.index);
          r.setEnd(n, m.index + m[0].length);
          const tops = new Set([...r.getClientRects()].filter((x) => x.width > 0).map((x) => Math.round(x.top)));
          if (tops.size > 1) bad.push(`"${m[0]}" split in ${text}`);
        }
      }
    }
    return bad;
  }, selector);
}

test('loading shows skeletons, never "No tasks yet" (GraphQL slowed down)', async () => {
  await page.setViewportSize(DESKTOP);
  await page.goto(`${w.url}/`);
  await page.locator('[data-testid=task-item]').first().waitFor();
  // Every GraphQL answer arrives 1.5 s late; record whether the empty state is ever shown.
  await page.route('**/graphql', async (route) => {
    await pause(1500); // a slow network, on purpose: the page must show skeletons meanwhile
    // A request the page gave up meanwhile (a reload, a component that unmounted) is already
    // handled by the browser: nothing is left to continue.
    await route.continue().catch((e: Error) => {
      if (!/already handled|Target page, context or browser has been closed/.test(e.message)) throw e;
    });
  });
  await page.evaluate(() => sessionStorage.setItem('watchEmpty', '1'));
  await page.addInitScript(() => {
    if (!sessionStorage.getItem('watchEmpty')) return;
    const seen = { empty: false, skeleton: false };
    (window as unknown as { __seen: typeof seen }).__seen = seen;
    new MutationObserver(() => {
      if (document.body?.innerText.includes('No tasks yet')) seen.empty = true;
      if (document.querySelector('[data-testid=skeleton]')) seen.skeleton = true;
    }).observe(document, { subtree: true, childList: true, characterData: true });
  });
  await page.reload();
  await page.locator('[data-testid=skeleton]').first().waitFor();
  await layoutShot(page, 'studio-loading-desktop');
  await page.locator('[data-testid=task-item]').first().waitFor({ timeout: 30_000 });
  const seen = await page.evaluate(() => (window as unknown as { __seen: { empty: boolean; skeleton: boolean } }).__seen);
  assert.equal(seen.skeleton, true, 'skeletons were shown while loading');
  assert.equal(seen.empty, false, '"No tasks yet" never flashed');
  await page.unroute('**/graphql');
  await page.evaluate(() => sessionStorage.removeItem('watchEmpty'));
});

test('after a reload every task card shows its progress, not only the selected one', async () => {
  await page.goto(`${w.url}/?task=${encodeURIComponent(taskIds[0]!)}`);
  await page.reload();
  const items = page.locator('[data-testid=task-item]');
  await waitFor(async () => (await items.count()) === 2, 'two task cards');
  await waitFor(async () => (await page.locator('[data-testid=task-item] [data-testid=task-progress]').count()) === 2, 'a progress bar on every card');
  for (const label of await page.locator('[data-testid=task-progress]').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))) {
    assert.match(label ?? '', /^\d+ of \d+ steps done$/);
  }
});

test('plain words: one offline badge with a link to set up a model; no tool names or tags; the header reads "Atelier · workspace"', async () => {
  await page.setViewportSize(DESKTOP);
  await page.goto(`${w.url}/?task=${encodeURIComponent(taskIds[0]!)}`);
  await page.locator('[data-testid=task-panel]').waitFor();
  const badge = page.getByTestId('offline-badge');
  assert.equal(await badge.count(), 1, 'the offline model is stated once');
  assert.match(await badge.innerText(), /Offline model/);
  assert.match(await badge.innerText(), /not an AI model/);
  const brand = await page.locator('.brand').innerText();
  assert.match(brand, /Atelier · \S/, `a space on both sides of the dot: ${brand}`);
  const text = await page.locator('body').innerText();
  assert.doesNotMatch(text, /\[offline model\]|generate_image|generate_video|generate_audio|went on without it/, 'no internal tags, tool names or reasons');
  for (const part of ['header', '.thread', '.tasklist', 'main']) {
    assert.doesNotMatch(await page.locator(part).first().innerText(), /×\d|\b[a-z]+_[a-z_]+\b/, `plain words in ${part}`);
  }
  // Memories read as sentences, not keys and enum values.
  await page.goto(`${w.url}/memory`);
  const memory = page.getByTestId('memory').first();
  await memory.waitFor();
  const said = await memory.innerText();
  assert.doesNotMatch(said, /\b[a-z]+[._][a-z_.]+\b|BRAND_RULE|brand_rule|\bfact · /, `a memory in plain words: ${said}`);
  assert.match(said, /you said so|inferred from what you did/);
  await page.goto(`${w.url}/?task=${encodeURIComponent(taskIds[0]!)}`);
  await badge.getByRole('link', { name: 'Set up a model' }).click();
  await page.waitForURL(/\/settings#model$/);
  // On a failure, say what the page showed instead (an error, a skeleton).
  await page.getByRole('heading', { name: 'Model', exact: true }).waitFor().catch(async (e: Error) => {
    throw new Error(`${e.message}\nThe page showed: ${(await page.locator('body').innerText()).slice(0, 600)}`);
  });
  assert.match(await page.locator('#model').innerText(), /OPENAI_API_KEY/);
});

test('no layout jumps while events stream (approve a plan, results arrive)', async () => {
  await page.setViewportSize(DESKTOP);
  await page.addInitScript(() => {
    const shifts: { value: number; where: string[] }[] = [];
    (window as unknown as { __shifts: typeof shifts }).__shifts = shifts;
    new PerformanceObserver((list) => {
      for (const e of list.getEntries() as unknown as { value: number; hadRecentInput: boolean; sources?: { node?: Node | null }[] }[]) {
        if (e.hadRecentInput) continue;
        shifts.push({ value: e.value, where: (e.sources ?? []).map((s) => (s.node instanceof Element ? s.node.className : String(s.node?.nodeName))) });
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
  await page.goto(`${w.url}/?task=${encodeURIComponent(taskIds[0]!)}`);
  const plan = page.locator('[data-testid=approval-PLAN][data-status=PENDING]');
  await plan.waitFor({ timeout: 30_000 });
  await plan.getByRole('button', { name: /Approve/ }).first().click();
  await page.locator('[data-testid=approval-CHECKPOINT][data-status=PENDING]').waitFor({ timeout: 60_000 });
  const shifts = await page.evaluate(() => (window as unknown as { __shifts: { value: number; where: string[] }[] }).__shifts);
  // The header, the thread and the task list never move; the task panel grows only below what is read.
  const mine = shifts.filter((s) => s.where.some((c) => /topbar|brand|live|thread|messages|tasklist|task-item|mini-progress/.test(c)));
  const total = mine.reduce((a, s) => a + s.value, 0);
  assert.ok(total < 0.05, `layout shift in the header, thread and task list: ${total.toFixed(3)} (${JSON.stringify(mine)})`);
  await layoutShot(page, 'studio-streamed-desktop');
});

test('/settings: "on hold" is what is held and not yet charged or released', async () => {
  const ws = w.a.workspaceId;
  // Every candidate job has ended (the task waits on the pick card): nothing is on hold any more.
  await waitFor(
    async () => (await w.app.deps.prisma.generationJob.count({ where: { workspaceId: ws, status: { notIn: ['SUCCEEDED', 'FAILED', 'CANCELLED'] } } })) === 0,
    'every job ended',
  );
  const rows = await w.app.deps.prisma.$queryRawUnsafe<{ held: bigint; charged: bigint }[]>(
    `SELECT COALESCE(SUM(amount_cents) FILTER (WHERE kind = 'HOLD' AND NOT EXISTS (
              SELECT 1 FROM ledger_entries s WHERE s.job_id = e.job_id AND s.kind IN ('CHARGE', 'RELEASE'))), 0)::bigint AS held,
            COALESCE(SUM(amount_cents) FILTER (WHERE kind = 'CHARGE'), 0)::bigint AS charged
       FROM ledger_entries e WHERE workspace_id = $1::uuid`,
    ws,
  );
  const held = Number(rows[0]!.held);
  const charged = Number(rows[0]!.charged);
  assert.ok(charged > 0, 'the candidates were charged');
  await page.goto(`${w.url}/settings`);
  const row = page.locator('.ledger tbody tr').first();
  await row.waitFor();
  const cells = await row.locator('td').allInnerTexts();
  const usd = (c: number) => `$${(c / 100).toFixed(2)}`;
  assert.equal(cells[1], usd(charged), 'charged');
  assert.equal(cells[2], usd(held), 'on hold = held and not settled');
  assert.equal(cells[2], '$0.00', 'every job has settled');
  assert.notEqual(cells[2], cells[1], 'on hold is not the charged figure');
});

test('/workspace is readable at desktop and phone widths: titles wrap at words, no narrow columns', async () => {
  for (const [size, label] of [[DESKTOP, 'desktop'], [PHONE, 'phone']] as const) {
    await page.setViewportSize(size);
    await page.goto(`${w.url}/workspace`);
    await page.locator('.asset-name').first().waitFor({ timeout: 30_000 });
    const widths = await page.locator('.gallery .asset').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().width));
    assert.ok(widths.length >= 3, 'results are in the gallery');
    assert.ok(Math.min(...widths) >= 150, `cards at least 150 px wide (${label}): ${widths.join(', ')}`);
    const gallery = await page.locator('.gallery').boundingBox();
    assert.ok(gallery!.width >= size.width * 0.8, `the gallery uses the page's width (${label}): ${gallery!.width}`);
    assert.deepEqual(await cutWords(page, '.asset-name'), [], `no title cut mid-word (${label})`);
    const names = await page.locator('.asset-name').allInnerTexts();
    for (const n of names) assert.doesNotMatch(n, /^(image|video|audio|model 3d):/, `named by what was asked for: ${n}`);
  }
  await page.setViewportSize(DESKTOP);
});

test('phone: header at most 64 px, one scroll area per page, tapping a task brings it into view, thumb-sized targets', async () => {
  await page.setViewportSize(PHONE);
  for (const p of PAGES) {
    await page.goto(`${w.url}${p.path}`);
    await page.locator('main [data-testid=skeleton]').first().waitFor({ state: 'detached', timeout: 30_000 }).catch(() => {});
    await page.locator('main h1, main h2').first().waitFor();
    const header = await page.locator('header.topbar').boundingBox();
    assert.ok(header!.height <= 64, `${p.path}: header ${header!.height} px`);
    assert.deepEqual(await nestedScrollers(page), [], `${p.path}: the page is the only scroll area`);
    const navTargets = await page.locator('nav[aria-label=Main] a').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
    assert.ok(Math.min(...navTargets) >= 44, `${p.path}: section links ≥ 44 px: ${navTargets.join(', ')}`);
  }
  await page.goto(`${w.url}/`);
  const items = page.locator('[data-testid=task-item]');
  await waitFor(async () => (await items.count()) === 2, 'two task cards');
  const heights = await items.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height));
  assert.ok(Math.min(...heights) >= 44, `task cards ≥ 44 px: ${heights.join(', ')}`);
  const buttons = await page.locator('main button:visible').evaluateAll((els) => els.map((e) => [e.textContent, e.getBoundingClientRect().height] as const));
  for (const [label, h] of buttons) assert.ok(h >= 44, `button "${label}" is ${h} px high`);
  await items.nth(1).click();
  await page.locator('[data-testid=task-panel]').waitFor();
  await waitFor(async () => {
    const top = await page.locator('#task-area').evaluate((e) => e.getBoundingClientRect().top);
    return top >= 0 && top <= 80;
  }, 'the tapped task scrolled into view');
  await layoutShot(page, 'studio-task-phone');
  await page.setViewportSize(DESKTOP);
});

test('GraphiQL works with no internet: every other host blocked, the editor renders and runs a query', async () => {
  const ctx = await browser.newContext({ viewport: DESKTOP });
  try {
    const origin = new URL(w.url).host;
    const blocked: string[] = [];
    await ctx.route('**/*', (route) => {
      const u = new URL(route.request().url());
      if (u.protocol.startsWith('http') && u.host !== origin) {
        blocked.push(u.href);
        return route.abort('internetdisconnected');
      }
      return route.continue();
    });
    // Signed in as in the main window (the session cookie), so GraphiQL runs as that person.
    await ctx.addCookies(await context.cookies());
    const p = await ctx.newPage();
    const res = await p.goto(`${w.url}/graphql`);
    const csp = res?.headers()['content-security-policy'];
    assert.ok(!csp || /script-src[^;]*'unsafe-inline'/.test(csp), `the page's own CSP allows its inline scripts: ${csp}`);
    assert.doesNotMatch(await p.title(), /__TITLE__|Loading/);
    const editor = p.locator('.graphiql-query-editor .monaco-editor').first();
    await editor.waitFor({ timeout: 30_000 });
    await editor.click();
    await p.keyboard.press('Control+A');
    await p.keyboard.press('Delete');
    await p.keyboard.type('{ viewer { user { id } } }');
    await p.locator('.graphiql-execute-button').click();
    const response = p.locator('.graphiql-response');
    await waitFor(async () => /"viewer"[\s\S]*"id"/.test(await response.innerText()), 'the query answered in GraphiQL', { timeoutMs: 20_000 });
    const answer = await response.innerText();
    assert.match(answer, new RegExp(toGlobalId('User', w.a.ownerId).replace(/[+/=]/g, '.')), 'as the signed-in person');
    assert.deepEqual(blocked, [], 'nothing was asked of another host');
    await layoutShot(p, 'graphiql-desktop');
  } finally {
    await ctx.close();
  }
});

test('accessibility: every page at both widths has no serious or critical axe violation; screenshots of every page', async () => {
  const failures: string[] = [];
  const audit = async (p: Page, where: string) => {
    const r = await new AxeBuilder({ page: p as never }).analyze();
    for (const v of r.violations.filter((x) => x.impact === 'serious' || x.impact === 'critical')) {
      failures.push(`${where}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
    }
  };
  for (const [size, label] of [[DESKTOP, 'desktop'], [PHONE, 'phone']] as const) {
    await page.setViewportSize(size);
    for (const p of PAGES) {
      await page.goto(`${w.url}${p.path}${p.path === '/' ? `?task=${encodeURIComponent(taskIds[0]!)}` : ''}`);
      await page.locator('main h1, main h2').first().waitFor();
      await page.locator('main [data-testid=skeleton]').first().waitFor({ state: 'detached', timeout: 30_000 });
      if (p.path === '/') await page.locator('[data-testid=task-panel]').waitFor();
      await audit(page, `${p.path} ${label}`);
      await layoutShot(page, `${p.name}-${label}`);
    }
    const out = await browser.newContext({ viewport: size });
    try {
      const s = await out.newPage();
      await s.goto(`${w.url}/signin`);
      await s.getByLabel('Access token').waitFor();
      await audit(s, `/signin ${label}`);
      await layoutShot(s, `signin-${label}`);
    } finally {
      await out.close();
    }
  }
  await page.setViewportSize(DESKTOP);
  assert.deepEqual(failures, []);
});


/** Whether the element's centre is the element (or inside it) for a tap there, nothing drawn over it. */
function uncovered(p: Page, selector: string): Promise<{ ok: boolean; at: string }> {
  return p.locator(selector).first().evaluate((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return { ok: !!hit && (hit === el || el.contains(hit)), at: hit ? `${hit.tagName.toLowerCase()}.${[...hit.classList].join('.')}` : 'nothing' };
  });
}

test('phone: a card scrolled into view keeps its buttons above the bottom tab bar (studio and memory)', async () => {
  await page.setViewportSize(PHONE);
  try {
    // The studio: the second task's plan card, its buttons brought just into view from above.
    await page.goto(`${w.url}/?task=${encodeURIComponent(taskIds[1]!)}`);
    const plan = page.locator('[data-testid=approval-PLAN][data-status=PENDING]');
    await plan.waitFor({ timeout: 30_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    await plan.locator('.card-actions').evaluate((e) => e.scrollIntoView({ block: 'nearest' }));
    for (const b of ['approve', 'decline']) {
      const sel = `[data-testid=approval-PLAN][data-status=PENDING] .card-actions button:${b === 'approve' ? 'first-child' : 'last-child'}`;
      const r = await uncovered(page, sel);
      assert.ok(r.ok, `studio: the plan card's ${b} button is covered by ${r.at}`);
    }
    // Memory: a forget card's "Yes, do it" / "Keep it".
    await page.goto(`${w.url}/memory`);
    const m = page.getByTestId('memory').first();
    await m.getByRole('button', { name: 'Forget…' }).click();
    const card = m.locator('[data-testid=approval-IRREVERSIBLE]');
    await card.getByRole('button', { name: 'Keep it' }).waitFor();
    await page.evaluate(() => window.scrollTo(0, 0));
    await card.locator('.card-actions').evaluate((e) => e.scrollIntoView({ block: 'nearest' }));
    for (const name of ['Yes, do it', 'Keep it']) {
      const r = await uncovered(page, `[data-testid=approval-IRREVERSIBLE] .card-actions button:${name === 'Keep it' ? 'last-child' : 'first-child'}`);
      assert.ok(r.ok, `memory: "${name}" is covered by ${r.at}`);
    }
    await layoutShot(page, 'memory-forget-card-phone');
    await card.getByRole('button', { name: 'Keep it' }).click();
    await card.waitFor({ state: 'detached' });
  } finally {
    await page.setViewportSize(DESKTOP);
  }
});
