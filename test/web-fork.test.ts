// "Try a different direction from here" in a real browser: a finished poster series (the scripted
// poster fixture: plan, three candidates, a pick, the series); each step of its plan has the
// button once the steps before it are finished; the form under the pick step asks what should
// change and offers the other candidates; starting it opens the fork, which shows the original and
// itself side by side with their costs and links between them — stacked at phone width, with no
// sideways scroll; axe finds no serious or critical violation at either width.
import AxeBuilder from '@axe-core/playwright';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { scriptedProvider } from '../server/runtime/models/provider.ts';
import { posterModel } from './fixtures/poster-plugin.ts';
import { toGlobalId } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { eventually } from './helpers/produce.ts';
import { waitFor } from './helpers/wait.ts';
import { launch, ownerGql, shot, signIn, startWebApp, type WebApp } from './helpers/web.ts';

let w: WebApp;
let browser: Browser;
let page: Page;
let filesDir: string;
let original = '';
let fork = '';

const prisma = () => w.app.deps.prisma;

before(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'atelier-web-fork-'));
  const scripted = scriptedProvider(posterModel);
  w = await startWebApp('webfork', {
    models: { ...scripted, info: { ...scripted.info, offline: true, description: 'Scripted poster model (test fixture)' } },
    provider: new SimulatedProvider({ filesDir, latencyMs: { IMAGE: 100 } }),
  });
  ({ browser, page } = await launch());
  await signIn(page, w.url, w.a.ownerToken);
});
after(async () => {
  await browser?.close();
  await w?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

/** Runs a task to its end through the API: plans approved, picks with `pick`. */
async function runToEnd(taskId: string, pick: string) {
  const answered = new Set<string>();
  await waitFor(
    async () => {
      const task = await prisma().task.findUniqueOrThrow({ where: { id: taskId } });
      if (['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'].includes(task.status)) return true;
      for (const a of await prisma().approval.findMany({ where: { taskId, status: 'PENDING' } })) {
        if (answered.has(a.id)) continue;
        answered.add(a.id);
        const options = (a.options ?? []) as unknown[];
        await ownerGql(w, 'mutation($input: ResolveApprovalInput!) { resolveApproval(input: $input) { approval { id } } }', {
          input: { approvalId: toGlobalId('Approval', a.id), decision: 'APPROVE', idempotencyKey: `web-fork-${a.id}`, ...(options.length ? { choice: pick } : {}) },
        });
      }
      return false;
    },
    `task ${taskId} to end`,
    { timeoutMs: 60_000, intervalMs: 50 },
  );
  assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: taskId } })).status, 'COMPLETED');
}

const open = async (taskId: string) => {
  await page.goto(`${w.url}/?task=${encodeURIComponent(toGlobalId('Task', taskId))}`);
  await page.locator('[data-testid=task-panel]').waitFor();
};

test('a finished series: every step of its plan offers “Try a different direction from here”', async () => {
  const r = await ownerGql<{ createTask: { task: { id: string } } }>(w, 'mutation($input: CreateTaskInput!) { createTask(input: $input) { task { id } } }', {
    input: { workspaceId: toGlobalId('Workspace', w.a.workspaceId), title: 'Coffee posters', goal: 'make three retro posters for a coffee brand' },
  });
  original = fromGlobalId(r.createTask.task.id).id;
  await runToEnd(original, 'sunburst');
  await open(original);
  await page.locator('[data-testid=task-panel][data-status=COMPLETED]').waitFor();
  const steps = page.locator('[data-testid=checklist-item]');
  await eventually(async () => (await steps.count()) === 3, 'three steps');
  assert.equal(await page.getByTestId('fork-button').count(), 3, 'one button per step');
  assert.equal(await page.getByTestId('forks').count(), 0, 'no directions yet: nothing side by side');
  await page.getByRole('button', { name: /Try a different direction from here \(step 2, You pick a direction\)/ }).waitFor();
});

test('the form at the pick: what should change, the other candidates with their pictures; it starts the fork and opens it', async () => {
  await page.getByRole('button', { name: /Try a different direction from here \(step 2/ }).click();
  const form = page.getByTestId('fork-form');
  await form.waitFor();
  assert.match(await form.innerText(), /A different direction from step 2, “You pick a direction”/);
  assert.match(await form.innerText(), /Step 1 and its results are kept as they are\. This task stays as it is/);
  const choices = form.getByTestId('fork-choice');
  assert.equal(await choices.count(), 3, 'the three candidates');
  await eventually(async () => (await choices.locator('img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length)) === 3, 'their pictures');
  assert.match(await choices.nth(0).innerText(), /Sunburst \(picked before\)/);
  const start = form.getByRole('button', { name: 'Start this direction' });
  assert.equal(await start.isDisabled(), true, 'nothing to start before saying what changes');
  await form.getByLabel('What should change from here?').fill('the diner look instead');
  await form.getByRole('radio', { name: /Diner neon/ }).check();
  await shot(page, 'fork-01-form');
  const a11y = await new AxeBuilder({ page: page as never }).exclude('.thread').analyze();
  assert.deepEqual(
    a11y.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((x) => x.target.join(' ')).join(', ')}`),
    [],
    'no serious or critical accessibility violations with the form open',
  );
  await start.click();
  await page.waitForURL((u) => { const id = u.searchParams.get('task'); return !!id && fromGlobalId(id).id !== original; });
  fork = fromGlobalId(new URL(page.url()).searchParams.get('task')!).id;
  const row = await prisma().task.findUniqueOrThrow({ where: { id: fork } });
  assert.deepEqual([row.forkedFromId, row.forkedAtStep], [original, 2]);
});

test('the fork beside the original: both lines with their costs, links between them; the original is unchanged', async () => {
  const before = await prisma().task.findUniqueOrThrow({ where: { id: original } });
  await runToEnd(fork, 'diner');
  await page.locator('[data-testid=task-panel][data-status=COMPLETED]').waitFor({ timeout: 30_000 });
  const lines = page.getByTestId('fork-line');
  await eventually(async () => (await lines.count()) === 2, 'two lines side by side');
  const [first, second] = [lines.nth(0), lines.nth(1)];
  assert.match(await first.innerText(), /Original/);
  assert.match(await second.innerText(), /From step 2: “the diner look instead”/);
  assert.match(await second.innerText(), /Picked “Diner neon”/);
  assert.match(await second.innerText(), /Step 1 is shared with the original \(paid there\)/);
  assert.equal(await second.getAttribute('data-current'), 'true');
  // Costs: the original paid for candidates and series (6 images), the fork only for its series (3).
  await eventually(async () => (await first.getByTestId('fork-line-cost').innerText()) === '$0.24' && (await second.getByTestId('fork-line-cost').innerText()) === '$0.12', 'both costs');
  await eventually(async () => (await second.locator('.fork-results img').count()) === 3, 'the fork’s three posters');
  // Its results: its own three posters with their prices, and the three candidates it shares, marked as shared.
  const artifacts = page.locator('.artifacts-section [data-testid=artifact]');
  await eventually(async () => (await artifacts.count()) === 6, 'six results: three shared, three its own');
  assert.equal(await artifacts.filter({ hasText: 'shared with the original' }).count(), 3);
  // In the task list the fork reads apart from the original: its title names its direction.
  assert.equal(await page.locator('[data-testid=task-item]', { hasText: '— the diner look instead' }).count(), 1);
  // Side by side at desktop width.
  const a = (await first.boundingBox())!;
  const b = (await second.boundingBox())!;
  assert.ok(Math.abs(a.y - b.y) < 2 && b.x > a.x + a.width - 2, `side by side: ${JSON.stringify([a, b])}`);
  // The timeline: the original's milestones, then the fork's own start.
  assert.match(await page.locator('section.timeline').innerText(), /tried a different direction from step 2 \(“You pick a direction”\): “the diner look instead”, picking “Diner neon”/);
  assert.equal(await page.locator('[data-testid=shared-step]').count(), 1, 'the shared step is marked');
  await shot(page, 'fork-02-side-by-side');
  // The original links to the fork, and shows it beside itself.
  await first.getByTestId('fork-line-open').click();
  await page.waitForURL((u) => fromGlobalId(u.searchParams.get('task') ?? 'x').id === original);
  await eventually(async () => (await page.getByTestId('fork-line').count()) === 2, 'the original shows both');
  assert.equal(await page.getByTestId('fork-line').nth(0).getAttribute('data-current'), 'true');
  const after = await prisma().task.findUniqueOrThrow({ where: { id: original } });
  assert.deepEqual([after.lastEventSeq, after.status, after.updatedAt.toISOString()], [before.lastEventSeq, before.status, before.updatedAt.toISOString()], 'the original was not written to');
});

test('phone width: the two lines are stacked, no sideways scroll, no serious axe violation', async () => {
  await page.setViewportSize({ width: 390, height: 844 });
  try {
    await open(fork);
    const lines = page.getByTestId('fork-line');
    await eventually(async () => (await lines.count()) === 2, 'two lines');
    await lines.nth(1).scrollIntoViewIfNeeded();
    const a = (await lines.nth(0).boundingBox())!;
    const b = (await lines.nth(1).boundingBox())!;
    assert.ok(b.y >= a.y + a.height - 2 && Math.abs(a.x - b.x) < 2, `stacked: ${JSON.stringify([a, b])}`);
    const { scrollWidth, clientWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth }));
    assert.ok(scrollWidth <= clientWidth, `no sideways scroll (${scrollWidth} > ${clientWidth})`);
    await page.getByRole('button', { name: /Try a different direction from here \(step 3/ }).click();
    await page.getByTestId('fork-form').waitFor();
    await shot(page, 'fork-03-phone');
    const a11y = await new AxeBuilder({ page: page as never }).analyze();
    assert.deepEqual(
      a11y.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((x) => x.target.join(' ')).join(' | ')}`),
      [],
    );
  } finally {
    await page.setViewportSize({ width: 1440, height: 900 });
  }
});
