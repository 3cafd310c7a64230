// Conversation continuity in a real browser: a change asked for in the thread after a series was
// delivered continues it as round 2 (the earlier round's results shown, one new step); Revise while
// the plan card waits sets the card aside and a new plan card appears; a clarification card answered
// with one click sends the original request (not the button's label) to the task chosen.
// The agent is the product's offline model; the delivered series is made through the API first.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { quote } from '../server/domain/replies/languages.ts';
import { textsFor } from '../server/domain/replies/texts.ts';
import { SimulatedProvider } from '../server/generation/simulated.ts';
import { toGlobalId } from './helpers/clients.ts';
import { fromGlobalId } from './helpers/ids.ts';
import { eventually } from './helpers/produce.ts';
import { waitFor } from './helpers/wait.ts';
import { launch, shot, signIn, startWebApp, type WebApp } from './helpers/web.ts';

let w: WebApp;
let browser: Browser;
let page: Page;
let filesDir: string;
let n = 0;

before(async () => {
  filesDir = mkdtempSync(join(tmpdir(), 'atelier-web-cont-'));
  w = await startWebApp('webcont', { provider: new SimulatedProvider({ filesDir, latencyMs: { IMAGE: 60 } }) });
  ({ browser, page } = await launch());
});
after(async () => {
  await browser?.close();
  await w?.close();
  rmSync(filesDir, { recursive: true, force: true });
});

const prisma = () => w.app.deps.prisma;
const TERMINAL = ['COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED'];

/** The API as any client calls it (documents written here, not generated). */
async function api<T = Record<string, unknown>>(query: string, variables: Record<string, unknown>): Promise<T> {
  const res = await fetch(`${w.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json, application/json', authorization: `Bearer ${w.a.ownerToken}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length) throw new Error(body.errors[0]!.message);
  return body.data!;
}

/** Approves every card of the task (picking candidate 2) until it ends. */
async function settle(taskId: string) {
  const seen = new Set<string>();
  await waitFor(
    async () => {
      const task = await prisma().task.findUniqueOrThrow({ where: { id: taskId } });
      if (TERMINAL.includes(task.status)) return true;
      for (const a of await prisma().approval.findMany({ where: { taskId, status: 'PENDING' } })) {
        if (seen.has(a.id)) continue;
        seen.add(a.id);
        const options = (a.options ?? []) as { id: string }[];
        await api(`mutation($input: ResolveApprovalInput!) { resolveApproval(input: $input) { approval { id } } }`, {
          input: { approvalId: toGlobalId('Approval', a.id), decision: 'APPROVE', idempotencyKey: `res-${++n}`, ...(a.kind === 'CHECKPOINT' && options.length ? { choice: options.find((o) => o.id === 'c2')?.id ?? options[0]!.id } : {}) },
        });
      }
      return false;
    },
    `task ${taskId} to end`,
    { timeoutMs: 120_000, intervalMs: 100 },
  );
  return (await prisma().task.findUniqueOrThrow({ where: { id: taskId } })).status;
}

async function type(text: string) {
  const box = page.getByLabel('Message');
  await box.fill(text);
  await box.press('Enter');
}
const userMessage = (text: string) => page.locator('[data-testid=message].msg-user').filter({ hasText: text }).last();
const openTaskId = () => {
  const id = new URL(page.url()).searchParams.get('task');
  return id ? fromGlobalId(id).id : null;
};

let coffee: string;

test('a delivered series, then "make the second poster warmer" in the thread: round 2 shows round 1\'s results and plans one new step', async () => {
  const sent = await api<{ sendMessage: { task: { id: string } | null } }>(`mutation($input: SendMessageInput!) { sendMessage(input: $input) { task { id } } }`, {
    input: { workspaceId: toGlobalId('Workspace', w.a.workspaceId), text: 'make three retro posters for a coffee brand', idempotencyKey: `msg-${++n}` },
  });
  coffee = fromGlobalId(sent.sendMessage.task!.id).id;
  assert.equal(await settle(coffee), 'COMPLETED', 'the series is delivered');
  const delivered = await prisma().generationJob.count({ where: { taskId: coffee, status: 'SUCCEEDED' } });
  assert.ok(delivered >= 6, `candidates and posters were made (${delivered})`);

  await signIn(page, w.url, w.a.ownerToken);
  await page.locator('[data-testid=live-state][data-state=live]').waitFor();
  await type('make the second poster warmer');
  const asked = userMessage('make the second poster warmer');
  await eventually(async () => /→/.test(await asked.getByTestId('route-chip').innerText().catch(() => '')), 'the change is routed', 30_000);
  await page.locator('[data-testid=task-panel]').waitFor();
  await eventually(async () => openTaskId() !== null && openTaskId() !== coffee, 'the next round opens', 20_000);
  const round2 = openTaskId()!;
  const row = await prisma().task.findUniqueOrThrow({ where: { id: round2 } });
  assert.deepEqual([row.round, row.previousRoundId], [2, coffee], 'a linked next round');

  // Whatever the workspace asks to confirm is confirmed with a click, as a person would.
  const panel = page.locator('[data-testid=task-panel]');
  await eventually(
    async () => {
      const pendingCard = page.locator('.pending-cards [data-status=PENDING]').first();
      if (await pendingCard.count()) await pendingCard.getByRole('button').first().click().catch(() => {});
      return (await panel.getAttribute('data-status')) === 'COMPLETED';
    },
    'round 2 to finish',
    90_000,
  );
  assert.match(await page.locator('#task-h').innerText(), /round 2/);
  assert.match(await page.getByTestId('checklist-progress').innerText(), /^1 of 1 steps$/, 'one new step');
  const earlier = page.locator('[data-testid=rounds] [data-testid=round][data-round="1"]');
  await earlier.waitFor();
  assert.match(await earlier.locator('summary').innerText(), /Round 1 · .*make three retro posters for a coffee brand/);
  await eventually(async () => (await earlier.locator('[data-testid=round-artifact] img').count()) === delivered, `round 1's ${delivered} results shown`);
  await eventually(
    async () => (await earlier.locator('[data-testid=round-artifact] img').evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length)) === delivered,
    "round 1's pictures loaded",
  );
  await eventually(async () => (await page.locator('.artifacts-section [data-testid=artifact][data-status=SUCCEEDED] img').count()) === 1, 'one new result in round 2');
  assert.equal(await prisma().generationJob.count({ where: { taskId: round2 } }), 1, 'one generation ordered for the change');
  await shot(page, 'continuity-01-round-2');
});

let tea: string;

test('Revise while the plan card waits: the card shows as set aside and a new plan card appears', async () => {
  await type('design four vintage posters for a tea house');
  const asked = userMessage('design four vintage posters for a tea house');
  await eventually(async () => /→/.test(await asked.getByTestId('route-chip').innerText().catch(() => '')), 'the request is routed', 30_000);
  await eventually(async () => {
    const id = openTaskId();
    return id !== null && (await prisma().task.findUnique({ where: { id } }))?.goal === 'design four vintage posters for a tea house';
  }, 'the tea house task opens', 20_000);
  tea = openTaskId()!;
  const plan = page.locator('[data-testid=approval-PLAN][data-status=PENDING]');
  await plan.waitFor({ timeout: 30_000 });
  const firstPlan = await plan.getAttribute('aria-label');
  await shot(page, 'continuity-02-plan-waits');

  await page.getByRole('toolbar', { name: 'Steer this task' }).getByRole('button', { name: 'Revise' }).click();
  await page.getByLabel('What should change?').fill('actually make it five posters');
  await page.locator('form.signal-form').getByRole('button', { name: 'Send' }).click();

  // The old card leaves the waiting cards; the past decisions say it was set aside, and why.
  const past = page.locator('details.decided');
  await past.waitFor({ timeout: 30_000 });
  await past.locator('summary').click();
  const setAside = past.locator('[data-testid=approval-PLAN][data-status=SUPERSEDED]');
  await setAside.waitFor({ timeout: 30_000 });
  assert.match(await setAside.getByTestId('approval-resolved').innerText(), /actually make it five posters/);
  // A new plan card, for the revised plan.
  const fresh = page.locator('.pending-cards [data-testid=approval-PLAN][data-status=PENDING]');
  await fresh.waitFor({ timeout: 60_000 });
  const plans = await prisma().approval.findMany({ where: { taskId: tea, kind: 'PLAN' }, orderBy: { createdAt: 'asc' } });
  assert.deepEqual(plans.map((p) => p.status), ['SUPERSEDED', 'PENDING'], `one new plan card (first: ${firstPlan})`);
  assert.ok(await fresh.getByRole('button', { name: 'Approve plan' }).isEnabled(), 'the new card can be approved');
  assert.match(await page.locator('section.timeline').innerText(), /Set aside the plan card/, 'the timeline says it in words');
  await shot(page, 'continuity-03-plan-set-aside');
});

test('a clarification card answered with one click: the original request, not the label, lands in the task chosen', async () => {
  const cards = page.locator('.card.clarify');
  const before = await cards.count();
  await type('make that one blue');
  await eventually(async () => (await cards.count()) > before, 'a clarification card', 30_000);
  const card = cards.last();
  const options = card.getByRole('button');
  assert.ok((await options.count()) >= 2, 'the candidates are offered');
  await shot(page, 'continuity-04-clarify');
  const labels = (await options.allInnerTexts()).map((l) => l.trim());
  // The coffee series has two rounds by now: one line of work, offered once.
  assert.equal(new Set(labels).size, labels.length, `each option once: ${labels.join(' | ')}`);
  const messagesBefore = await prisma().message.count({ where: { role: 'USER' } });
  // A person picks the task the change is for: the tea house series, when offered.
  const k = Math.max(0, labels.findIndex((l) => /tea house/i.test(l)));
  await options.nth(k).click();
  await eventually(async () => await options.nth(k).isDisabled(), 'the card is answered', 20_000);
  const asked = userMessage('make that one blue');
  await eventually(async () => /→/.test(await asked.getByTestId('route-chip').innerText()), 'the asked message shows its task', 20_000);

  assert.equal(await prisma().message.count({ where: { role: 'USER' } }), messagesBefore, 'the answer adds no message');
  assert.equal(await prisma().message.count({ where: { text: labels[k]! } }), 0, `no message "${labels[k]}"`);
  assert.equal(await prisma().task.count({ where: { OR: [{ title: labels[k]! }, { goal: labels[k]! }] } }), 0, 'no task carries the label');
  const routed = await prisma().message.findFirstOrThrow({ where: { text: 'make that one blue' }, orderBy: { createdAt: 'desc' } });
  assert.ok(routed.taskId, 'the message that raised the card went to a task');
  const target = await prisma().task.findUniqueOrThrow({ where: { id: routed.taskId! } });
  if (/tea house/i.test(labels[k]!)) assert.equal(target.id, tea, 'the task picked');
  const inInbox = await prisma().inboxItem.count({ where: { taskId: target.id, text: 'make that one blue' } });
  assert.ok(inInbox === 1 || target.goal === 'make that one blue', 'the original words reach the task');
  assert.match(await asked.getByTestId('route-chip').innerText(), new RegExp(target.title.slice(0, 20).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')));
  await shot(page, 'continuity-05-clarify-answered');
});

// ---- the thread answers, status questions, casual stops ----------------------------------------

const assistantSaying = (text: string | RegExp) => page.locator('[data-testid=message].msg-assistant').filter({ hasText: text });
/** Types a message and returns the thread's next reply, as shown. */
async function replyTo(text: string): Promise<string> {
  const replies = page.locator('[data-testid=message].msg-assistant');
  const before = await replies.count();
  await type(text);
  await eventually(async () => (await replies.count()) > before, `a reply to "${text}"`, 20_000);
  return (await replies.nth(before).innerText()).trim();
}
const footprint = async (taskId: string) => ({
  inbox: await prisma().inboxItem.count({ where: { taskId } }),
  turns: await prisma().turn.count({ where: { taskId } }),
  received: await prisma().taskEvent.count({ where: { taskId, type: 'MESSAGE_RECEIVED' } }),
});

test('the thread answers: "hello" and "what are you working on?" get replies; "our brand color is teal" is remembered without a new task', async () => {
  const en = textsFor('en');
  const tasks = await prisma().task.count({ where: { workspaceId: w.a.workspaceId } });
  await type('hello');
  await assistantSaying(en.greeting).waitFor({ timeout: 20_000 });
  await type('what are you working on?');
  const working = assistantSaying(/working on/);
  await working.waitFor({ timeout: 20_000 });
  const teaTitle = (await prisma().task.findUniqueOrThrow({ where: { id: tea } })).title;
  assert.ok((await working.innerText()).includes(teaTitle.slice(0, 30)), `the live task is named: ${await working.innerText()}`);
  await type('our brand color is teal');
  await assistantSaying(en.remembered([{ kind: 'brandColor', subject: 'brand.colors', value: 'teal' }])).waitFor({ timeout: 20_000 });
  assert.equal(await prisma().task.count({ where: { workspaceId: w.a.workspaceId } }), tasks, 'no task was started');
  await shot(page, 'continuity-06-thread-answers');
});

test('a status question about a named task is answered in the thread; the task gets no new turn', async () => {
  const teaTitle = (await prisma().task.findUniqueOrThrow({ where: { id: tea } })).title;
  await waitFor(async () => (await prisma().turn.count({ where: { taskId: tea, status: { in: ['QUEUED', 'RUNNING'] } } })) === 0, 'the tea house task at rest', { timeoutMs: 30_000 });
  const before = await footprint(tea);
  const reply = await replyTo('how are the tea house posters going?');
  assert.ok(reply.startsWith(quote('en', teaTitle)), `answered about the task: ${reply}`);
  assert.deepEqual(await footprint(tea), before, 'not delivered, not woken');
  await shot(page, 'continuity-07-status-question');
});

test('"stop the tea house posters" cancels it; «arrête les affiches du festival de jazz» asks first because paid work would be lost, and the stop button stops it', async () => {
  const teaTitle = (await prisma().task.findUniqueOrThrow({ where: { id: tea } })).title;
  const stopped = await replyTo('stop the tea house posters');
  assert.equal(stopped, textsFor('en').steered('CANCEL', teaTitle, 'done'));
  await eventually(async () => (await prisma().task.findUniqueOrThrow({ where: { id: tea } })).status === 'CANCELLED', 'the tea house task cancelled');

  // A French series with its plan approved (paid work), waiting on the pick.
  const clarify = page.locator('.card.clarify');
  const cardsBefore = await clarify.count();
  await type('Crée trois affiches rétro pour un festival de jazz');
  const asked = userMessage('Crée trois affiches rétro pour un festival de jazz');
  await eventually(async () => /→/.test(await asked.getByTestId('route-chip').innerText().catch(() => '')) || (await clarify.count()) > cardsBefore, 'the request is routed or asked about', 30_000);
  if ((await clarify.count()) > cardsBefore) {
    // Asked whether it continues the coffee posters: it is new work.
    await shot(page, 'continuity-08a-new-or-continue');
    await clarify.last().getByRole('button', { name: /new task|nouvelle/i }).click();
    await eventually(async () => /→/.test(await asked.getByTestId('route-chip').innerText().catch(() => '')), 'the request is routed', 30_000);
  }
  await eventually(async () => {
    const id = openTaskId();
    return id !== null && (await prisma().task.findUnique({ where: { id } }))?.goal === 'Crée trois affiches rétro pour un festival de jazz';
  }, 'the jazz task opens', 20_000);
  const jazz = openTaskId()!;
  const plan = page.locator('.pending-cards [data-testid=approval-PLAN][data-status=PENDING]');
  await plan.waitFor({ timeout: 30_000 });
  await plan.getByRole('button').first().click();
  const pickCard = page.locator('.pending-cards [data-testid=approval-CHECKPOINT][data-status=PENDING]');
  await pickCard.waitFor({ timeout: 60_000 });
  // The candidates are shown as their pictures.
  const thumbs = pickCard.locator('[data-testid=candidate] img');
  await eventually(async () => (await thumbs.evaluateAll((imgs) => imgs.filter((i) => (i as HTMLImageElement).naturalWidth > 0).length)) === 3, 'three candidate thumbnails', 20_000);
  const title = (await prisma().task.findUniqueOrThrow({ where: { id: jazz } })).title;

  const fr = textsFor('fr');
  const cards = page.locator('.card.clarify');
  const before = await cards.count();
  await type('arrête les affiches du festival de jazz');
  await eventually(async () => (await cards.count()) > before, 'a confirmation card', 20_000);
  const card = cards.last();
  assert.equal((await prisma().task.findUniqueOrThrow({ where: { id: jazz } })).status !== 'CANCELLED', true, 'nothing happens before the answer');
  await shot(page, 'continuity-08-confirm-stop');
  await card.getByRole('button', { name: fr.confirmYes('CANCEL') }).click();
  await assistantSaying(fr.steered('CANCEL', title, 'done')).waitFor({ timeout: 20_000 });
  await eventually(async () => (await prisma().task.findUniqueOrThrow({ where: { id: jazz } })).status === 'CANCELLED', 'the jazz task cancelled', 30_000);
  await page.locator('[data-testid=task-panel][data-status=CANCELLED]').waitFor({ timeout: 30_000 });
  await shot(page, 'continuity-09-stopped');
});
