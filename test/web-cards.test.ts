// The cards and results of the task panel in a real browser, as a person sees them: pick cards with
// real pictures, results named by what they are (Poster 1–3, Candidate A–C, Shot 1–3) and grouped by
// step with the pick marked; players for sound, a figure with its name for a 3D model; a delivery that
// names and links each result; a storyboard shown inside the card that asks to confirm it; "None of
// these" that makes new candidates instead of the same card; a composer on every task panel and
// Revise on a finished one; screenshots of every card kind at 1440×900 and 390×844; an axe-core audit
// with a card open. The agent is the product's offline model, the provider the simulated one.
import AxeBuilder from '@axe-core/playwright';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Locator, Page } from 'playwright-core';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { toGlobalId } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { waitFor } from './helpers/wait.ts';
import { launch, SHOTS, shot, signIn, startWebApp, type WebApp } from './helpers/web.ts';

let w: WebApp;
let browser: Browser;
let page: Page;
let filesDir: string;
let n = 0;
let posterTask = '';

before(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'atelier-web-cards-'));
  w = await startWebApp('webcards', { provider: new SimulatedProvider({ filesDir, latencyMs: { IMAGE: 60, VIDEO: 60, AUDIO: 60, MODEL_3D: 60 } }) });
  ({ browser, page } = await launch());
  await signIn(page, w.url, w.a.ownerToken);
});
after(async () => {
  await browser?.close();
  await w?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

const prisma = () => w.app.deps.prisma;
const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'];
const raw = (gid: string) => fromGlobalId(gid).id;

async function api<T = Record<string, unknown>>(query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${w.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${w.a.ownerToken}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors[0]!.message);
  return body.data!;
}

/** A task started through the API and run to its end, every card approved (the first candidate picked). */
async function madeThroughApi(text: string): Promise<string> {
  const r = await api<{ sendMessage: { task: { id: string } } }>(`mutation($input: SendMessageInput!) { sendMessage(input: $input) { task { id } } }`, {
    input: { workspaceId: toGlobalId('Workspace', w.a.workspaceId), text, idempotencyKey: `cards-${++n}` },
  });
  const id = raw(r.sendMessage.task.id);
  await waitFor(
    async () => {
      for (const a of await prisma().approval.findMany({ where: { taskId: id, status: 'PENDING' } })) {
        const options = (a.options ?? []) as { id: string }[];
        await api(`mutation($input: ResolveApprovalInput!) { resolveApproval(input: $input) { approval { id } } }`, {
          input: { approvalId: toGlobalId('Approval', a.id), decision: 'APPROVE', idempotencyKey: `cards-${++n}`, ...(options[0] ? { choice: options[0].id } : {}) },
        });
      }
      return TERMINAL.includes((await prisma().task.findUniqueOrThrow({ where: { id } })).status);
    },
    `task “${text}” to end`,
    { timeoutMs: 120_000, intervalMs: 100 },
  );
  return r.sendMessage.task.id;
}

/** Both sizes of one view: 1440×900 (the whole task area) and 390×844 with `focus` in view. */
async function shots(name: string, focus?: Locator) {
  await shot(page, `cards-${name}-1440`);
  await page.setViewportSize({ width: 390, height: 844 });
  if (focus) await focus.scrollIntoViewIfNeeded();
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `cards-${name}-390.png`), fullPage: false });
  await page.setViewportSize({ width: 1440, height: 900 });
}

/** Pictures inside `scope` that really loaded. */
const loadedImages = (scope: Locator) => scope.locator('img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).complete && (i as HTMLImageElement).naturalWidth > 0).length);

/** Approves a price card if one waits (the amounts above the confirmation-free ones ask). */
async function approvePriceCards() {
  const price = page.locator('[data-testid=approval-PAID_ACTION][data-status=PENDING]');
  if (await price.count()) await price.first().getByRole('button', { name: /^Approve/ }).click();
}

async function send(text: string) {
  const box = page.getByLabel('Message', { exact: true });
  await box.fill(text);
  await box.press('Enter');
}

test('plan card: the steps with their prices and the total, approved with one click', async () => {
  await send('make three retro posters for a coffee brand');
  const plan = page.locator('[data-testid=approval-PLAN][data-status=PENDING]');
  await plan.waitFor({ timeout: 30_000 });
  posterTask = new URL(page.url()).searchParams.get('task')!;
  const rows = plan.locator('[data-testid=plan-steps] tbody tr');
  assert.equal(await rows.count(), 5);
  assert.match(await rows.nth(0).innerText(), /Look candidates — 3 images[\s\S]*\$0\.\d\d/);
  assert.match(await plan.locator('tfoot').innerText(), /Total\s+\$0\.\d\d/);
  await shots('plan', plan);
  await plan.getByRole('button', { name: 'Approve plan' }).click();
  await plan.waitFor({ state: 'detached' });
});

test('pick card: real thumbnails labelled Candidate A–C; None of these makes new ones, never the same card; the pick is marked', async () => {
  const card = page.locator('[data-testid=approval-CHECKPOINT][data-status=PENDING]');
  await waitFor(async () => (await approvePriceCards(), (await card.count()) > 0), 'the pick card', { timeoutMs: 60_000, intervalMs: 200 });
  const candidates = card.locator('[data-testid=candidate]');
  assert.equal(await candidates.count(), 3);
  await waitFor(async () => (await loadedImages(card)) === 3, 'three thumbnails loaded', { timeoutMs: 20_000 });
  assert.deepEqual((await candidates.locator('.cand-label').allInnerTexts()).map((t) => t.trim()), ['Candidate A', 'Candidate B', 'Candidate C']);
  assert.doesNotMatch(await card.locator('.card-title').innerText(), /\[offline model\]/);
  const firstSrcs = await card.locator('img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
  const firstId = await card.getAttribute('aria-label');
  await shots('pick', card);

  // An audit of the studio with the card open: nothing serious or critical. (The main thread's
  // column is audited by the thread's own browser test.)
  const audit = await new AxeBuilder({ page: page as never }).exclude('.thread').analyze();
  const serious = audit.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  assert.deepEqual(
    serious.map((v) => `${v.id}: ${v.nodes.map((x) => x.target.join(' ')).join(', ')}`),
    [],
    'no serious or critical accessibility violations with a pick card open',
  );

  // None of these: asks what to change, then new candidates (a new round of the step) — not the same card.
  await card.getByRole('button', { name: 'None of these' }).click();
  await card.getByLabel(/what should change/).fill('warmer colours');
  await shots('none-of-these', card);
  const pickIds = async () => (await prisma().approval.findMany({ where: { taskId: raw(posterTask), kind: 'CHECKPOINT' } })).map((a) => a.id);
  const before = await pickIds();
  await card.getByRole('button', { name: 'Make new candidates' }).click();
  // The new candidates are a new round of the step, priced: the plan card asks for its new total.
  const replan = page.locator('[data-testid=approval-PLAN][data-status=PENDING]');
  await replan.waitFor({ timeout: 30_000 });
  assert.match(await replan.innerText(), /Look candidates[\s\S]*\$0\.\d\d/);
  await shots('new-round-plan', replan);
  await replan.getByRole('button', { name: 'Approve plan' }).click();
  await waitFor(async () => (await approvePriceCards(), (await pickIds()).length > before.length), 'a new pick card', { timeoutMs: 60_000, intervalMs: 200 });
  const again = page.locator('[data-testid=approval-CHECKPOINT][data-status=PENDING]');
  await waitFor(async () => (await again.count()) === 1 && (await loadedImages(again)) === 3, 'the new candidates loaded', { timeoutMs: 30_000 });
  const newSrcs = await again.locator('img').evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
  assert.ok(newSrcs.every((s) => !firstSrcs.includes(s)), 'new pictures, not the same candidates');
  assert.equal(await page.locator('[data-testid=approval-CHECKPOINT][data-status=PENDING]').count(), 1, 'one pick card, not a repeated one');
  assert.ok(firstId, 'the first card had a name');

  await again.getByRole('button', { name: 'Pick Candidate B' }).click();
  await again.waitFor({ state: 'detached' });
});

test('results: Poster 1–3 and Candidate A–C grouped by step, pictures loaded, the pick marked; the delivery names and links each poster', async () => {
  const panel = page.locator('[data-testid=task-panel][data-status=COMPLETED]');
  await waitFor(async () => (await approvePriceCards(), (await panel.count()) === 1), 'the series finished', { timeoutMs: 90_000, intervalMs: 200 });
  const labels = async () => (await page.locator('[data-testid=result-label]').allInnerTexts()).map((t) => t.trim());
  await waitFor(async () => (await labels()).filter((l) => /^Poster \d$/.test(l)).length === 3, 'three posters named');
  const all = await labels();
  assert.deepEqual(all.filter((l) => /^Poster/.test(l)), ['Poster 1', 'Poster 2', 'Poster 3']);
  assert.deepEqual(all.filter((l) => /^Candidate/.test(l)), ['Candidate A', 'Candidate B', 'Candidate C', 'Candidate A', 'Candidate B', 'Candidate C'].slice(0, all.filter((l) => /^Candidate/.test(l)).length));
  assert.ok(!all.some((l) => /^Result \d/.test(l)), `no "Result n": ${all.join(', ')}`);
  const groups = (await page.locator('[data-testid=result-group] h4').allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(groups.filter((g) => /^Poster/.test(g)), ['Poster 1', 'Poster 2', 'Poster 3']);
  assert.ok(groups.includes('Earlier candidates'), `the candidates set aside keep their names: ${groups.join(', ')}`);
  assert.ok(groups.includes('Look candidates'), `grouped by step: ${groups.join(', ')}`);
  const results = page.locator('.artifacts-section');
  await waitFor(async () => (await loadedImages(results)) === (await results.locator('img').count()) && (await results.locator('img').count()) >= 6, 'every result picture loaded');
  const chosen = page.locator('[data-testid=artifact][data-chosen]');
  assert.equal(await chosen.count(), 1, 'the pick is marked');
  assert.match(await chosen.innerText(), /Chosen[\s\S]*Candidate B/);

  const summary = page.getByTestId('task-summary');
  const said = (await summary.innerText()).trim();
  assert.match(said, /^Delivered: Poster 1, Poster 2, Poster 3 — in the look of Candidate B$/);
  assert.doesNotMatch(said, /Delivered\. Delivered|a result/);
  const links = summary.getByTestId('delivered-link');
  assert.deepEqual((await links.allInnerTexts()).map((t) => t.trim()), ['Poster 1', 'Poster 2', 'Poster 3', 'Candidate B']);
  for (const href of await links.evaluateAll((as) => as.map((a) => (a as HTMLAnchorElement).href))) {
    const res = await page.request.get(href);
    assert.equal(res.status(), 200, `${href} opens the result`);
  }
  await shots('results', results);
});

test('a confirmation shows what it asks about: the storyboard inside the card', async () => {
  await send('make a short video of ocean waves at sunset');
  const plan = page.locator('[data-testid=approval-PLAN][data-status=PENDING]');
  await plan.waitFor({ timeout: 30_000 });
  await plan.getByRole('button', { name: 'Approve plan' }).click();
  const confirm = page.locator('[data-testid=approval-CHECKPOINT][data-status=PENDING]');
  await waitFor(async () => (await approvePriceCards(), (await confirm.count()) > 0), 'the storyboard card', { timeoutMs: 90_000, intervalMs: 200 });
  const doc = confirm.getByTestId('card-document');
  await doc.waitFor({ timeout: 20_000 });
  assert.ok(await doc.isVisible(), 'the storyboard is visible in the card');
  assert.match(await doc.innerText(), /Storyboard[\s\S]*ocean waves at sunset/i);
  assert.match(await doc.innerText(), /Shot 1/);
  await shots('confirm-storyboard', confirm);
  await confirm.getByRole('button', { name: 'Continue' }).click();
  const panel = page.locator('[data-testid=task-panel][data-status=COMPLETED]');
  await waitFor(async () => (await approvePriceCards(), (await panel.count()) === 1), 'the video finished', { timeoutMs: 90_000, intervalMs: 200 });
  const labels = (await page.locator('[data-testid=result-label]').allInnerTexts()).map((t) => t.trim());
  assert.deepEqual(labels.filter((l) => /^Shot/.test(l)), ['Shot 1', 'Shot 2', 'Shot 3']);
  await waitFor(async () => (await loadedImages(page.locator('.artifacts-section'))) >= 3, 'the shots’ poster frames loaded');
  await shots('video-results', page.locator('.artifacts-section'));
});

test('sound has a player and a 3D model a figure with its name — never an empty box', async () => {
  const jingle = await madeThroughApi('compose a short jingle for a radio spot');
  await page.goto(`${w.url}/?task=${encodeURIComponent(jingle)}`);
  await page.locator('[data-testid=task-panel][data-status=COMPLETED]').waitFor();
  const audio = page.locator('.artifacts-section audio');
  await audio.first().waitFor();
  await waitFor(async () => (await audio.first().evaluate((a) => (a as HTMLAudioElement).readyState)) >= 1, 'the sound loads in its player');
  await shots('audio-results', page.locator('.artifacts-section'));

  const model = await madeThroughApi('build a 3D model of a vintage espresso machine');
  await page.goto(`${w.url}/?task=${encodeURIComponent(model)}`);
  await page.locator('[data-testid=task-panel][data-status=COMPLETED]').waitFor();
  const figure = page.locator('.artifacts-section .figure-3d');
  await figure.first().waitFor();
  assert.match((await figure.first().getAttribute('aria-label')) ?? '', /^3D model: .*espresso/i);
  assert.match(await figure.first().innerText(), /espresso/i);
  assert.equal(await page.locator('.artifacts-section .thumb-missing').count(), 0);
  await shots('3d-results', page.locator('.artifacts-section'));
});

test('every task panel has a composer; Revise on a finished task continues it as a next round', async () => {
  // A live task: the composer sends to it, without routing.
  const live = page.locator('[data-testid=task-composer]');
  await page.goto(`${w.url}/?task=${encodeURIComponent(posterTask)}`);
  await page.locator('[data-testid=task-panel][data-status=COMPLETED]').waitFor();
  assert.equal(await live.count(), 1, 'the finished task has a composer');
  await page.getByTestId('revise-finished').click();
  const box = live.getByRole('textbox');
  assert.ok(await box.evaluate((el) => el === document.activeElement), 'Revise puts the cursor in the composer');
  await box.fill('make the second poster warmer');
  await shots('composer', live);
  await live.getByRole('button', { name: 'Send' }).click();
  await waitFor(async () => new URL(page.url()).searchParams.get('task') !== posterTask, 'the next round opens', { timeoutMs: 30_000, intervalMs: 100 });
  const next = raw(new URL(page.url()).searchParams.get('task')!);
  const round = await prisma().task.findUniqueOrThrow({ where: { id: next } });
  assert.equal(round.previousRoundId, raw(posterTask), 'a next round of the finished task');
  assert.equal(await prisma().inboxItem.count({ where: { taskId: next, text: 'make the second poster warmer' } }), 1, 'the words went to it');
  await page.getByTestId('rounds').waitFor();
  assert.equal(await page.locator('[data-testid=task-composer]').count(), 1, 'the new round has a composer too');
  await waitFor(async () => (await approvePriceCards(), TERMINAL.includes((await prisma().task.findUniqueOrThrow({ where: { id: next } })).status)), 'round 2 to end', { timeoutMs: 90_000, intervalMs: 200 });
  await page.locator('[data-testid=task-panel][data-status=COMPLETED]').waitFor();
  const earlier = (await page.locator('[data-testid=round-artifact]').evaluateAll((fs) => fs.map((f) => f.getAttribute('data-label')))).filter(Boolean);
  assert.ok(earlier.includes('Poster 2'), `the earlier round's results are named: ${earlier.join(', ')}`);
  await shots('next-round', page.getByTestId('rounds'));
});
