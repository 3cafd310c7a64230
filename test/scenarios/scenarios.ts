// The scenario set: each plays a creative flow end to end with a scripted user and returns what it
// checks besides the shared metrics. Each draws its request from a pool of paraphrases (six
// languages, seeded per run), and checks outcomes in the database — task states, numbers of
// results, which object the delivery cites, which round the results belong to — never the words the
// offline model's rules write. A scenario throws when the product misbehaves; the metrics say how
// it felt.
import assert from 'node:assert/strict';
import { readChecklist } from '../../server/store/checklist/write-checklist.ts';
import { assetIdForJob } from '../../server/store/objects/create-asset.ts';
import { editDocument } from '../../server/services/objects/write-object.ts';
import { resolveApproval } from '../../server/services/approvals/resolve-approval.ts';
import type { Viewer } from '../../server/auth/viewer.ts';
import { person, type CardPolicy, type Scenario, type ScenarioContext } from './harness.ts';
import { waitFor } from '../helpers/wait.ts';
import { CONTINUITY_SCENARIOS } from './continuity.ts';
import { FORK_SCENARIOS } from './forks.ts';

async function checklistDone(ctx: ScenarioContext, taskId: string) {
  const c = await readChecklist(ctx.t.app.deps.prisma, taskId);
  assert.ok(c && c.items.length > 0, 'the task has a checklist');
  assert.ok(c.items.every((i) => i.status === 'DONE' || i.status === 'SKIPPED'), `every step finished: ${c.items.map((i) => `${i.title}=${i.status}`).join(', ')}`);
  return c;
}

const owner = (ctx: ScenarioContext): Viewer => ({
  userId: ctx.t.a.ownerId,
  credentialId: 'scenario',
  scopes: new Set(['READ', 'WRITE']),
  memberships: new Map([[ctx.t.a.workspaceId, 'OWNER']]),
});
/** The owner deciding a card in the studio: a person with the approve scope. */
const deciding = (ctx: ScenarioContext): Viewer => ({ ...owner(ctx), scopes: new Set(['READ', 'WRITE', 'APPROVE']), principal: 'HUMAN' });

// ---- paraphrase pools (none of them is used by test/offline-classes.test.ts) ----

/** Poster series: the request and the number of posters it asks for. */
export const POSTER_SERIES: readonly { text: string; posters: number }[] = [
  { text: 'design five retro posters for a roastery', posters: 5 },
  { text: 'a few vintage posters for a coffee roaster', posters: 3 },
  { text: 'Gestalte drei Retro-Plakate für eine Kaffeerösterei', posters: 3 },
  { text: 'Crée quatre affiches rétro pour une marque de café', posters: 4 },
  { text: 'Diseña dos carteles retro para una marca de café', posters: 2 },
  { text: '为一个咖啡品牌设计四张复古海报', posters: 4 },
  { text: 'コーヒーブランドのレトロなポスターを3枚作って', posters: 3 },
];

/** A short film with a character, and the change the person makes to the character sheet. */
export const FILM_WITH_CHARACTER: readonly { text: string; change: string }[] = [
  { text: 'a four-shot film about a lighthouse keeper', change: 'The keeper is an old woman in a red raincoat.' },
  { text: 'make a four-shot film about a beekeeper at dawn', change: 'The beekeeper now wears a yellow hat and a blue jacket.' },
  { text: 'a four-shot short film about a night-shift baker', change: 'The baker is a tall young man with flour on his glasses.' },
];

/** A short video, and the change of direction the user sends mid-run (same language). */
export const VIDEO_WITH_CHANGE: readonly { text: string; change: string; note: string }[] = [
  { text: "produce a short film about a lighthouse keeper's night shift", change: 'set it at dawn in thick fog instead', note: 'Keep the red lantern in every shot.' },
  { text: 'Dreh ein kurzes Video über einen Leuchtturmwärter', change: 'lieber nachts und im Regen', note: 'Die rote Laterne bleibt in jedem Bild.' },
  { text: 'Fais une courte vidéo sur un gardien de phare', change: 'plutôt de nuit, sous la pluie', note: 'Garder la lanterne rouge dans chaque plan.' },
  { text: 'Haz un vídeo corto sobre un farero', change: 'mejor de noche y con lluvia', note: 'La linterna roja sale en cada plano.' },
  { text: '做一个关于灯塔看守人的短视频', change: '改成夜晚下雨的场景', note: '每个镜头都保留红色的灯笼。' },
  { text: '灯台守についての短い動画を作って', change: '夜の雨のシーンに変えて', note: '赤いランタンを全カットに入れる。' },
];

export const SINGLE_IMAGE: readonly string[] = [
  'paint a red fox in the snow',
  'Zeichne einen Fuchs im Schnee',
  'dessine un renard roux dans la neige',
  'Pinta un zorro rojo en la nieve',
  '画一只雪地里的红狐狸',
  '雪の中の赤いキツネのイラストを描いて',
];

export const AUDIO: readonly string[] = [
  'write a bakery theme tune',
  'Komponiere einen kurzen Jingle für eine Bäckerei',
  'compose une mélodie pour une boulangerie',
  'Compón una melodía corta para una panadería',
  '为面包店创作一段简短的音乐',
  'パン屋さんのための短い曲を作って',
];

/** A poster series paused last week, and the sentence that takes it up again. */
export const RESUMED_SERIES: readonly { text: string; posters: number; resume: string }[] = [
  { text: 'design four vintage posters for a tea house', posters: 4, resume: "let's finish the tea house posters" },
  { text: 'Gestalte vier Plakate für einen Teeladen', posters: 4, resume: 'Lass uns die Plakate für den Teeladen fertig machen' },
  { text: 'Crée trois affiches pour un salon de thé', posters: 3, resume: 'Terminons les affiches du salon de thé' },
  { text: 'Diseña cuatro carteles para una tienda de té', posters: 4, resume: 'Terminemos los carteles de la tienda de té' },
  { text: '给茶馆设计三张复古海报', posters: 3, resume: '把茶馆复古海报做完' },
  { text: 'お茶屋さんのポスターを4枚作って', posters: 4, resume: 'お茶屋さんのポスターの続きをお願い' },
];

export const IMAGE_TO_VIDEO: readonly string[] = [
  'animate this photo of my cat',
  'Mach aus einem Foto meiner Katze ein kurzes Video',
  'Transforme une photo de mon chat en courte vidéo',
  'Convierte una foto de mi gato en un vídeo corto',
  '把我家猫的照片做成一段短视频',
  'うちの猫の写真を動画にして',
];

export const MODEL_3D: readonly string[] = [
  'model a vintage radio in three dimensions',
  'Erstelle ein 3D-Modell eines alten Radios',
  "Fais un modèle 3D d'une radio ancienne",
  'Crea un modelo 3D de una radio antigua',
  '做一个复古收音机的三维模型',
  'レトロなラジオの3Dモデルを作って',
];

export /**
 * A finished poster series: `posters` posters with one picture each, the person's pick recorded on
 * the checkpoint and cited by the delivery, and every poster generated from the picked candidate.
 */
async function checkSeries(ctx: ScenarioContext, taskId: string, posters: number, pick: string) {
  const prisma = ctx.t.app.deps.prisma;
  const c = await checklistDone(ctx, taskId);
  const checkpoint = c.items.find((i) => i.kind === 'CHECKPOINT');
  assert.ok(checkpoint, 'the plan has a checkpoint for the pick');
  const at = c.items.indexOf(checkpoint);
  const candidates = c.items.slice(0, at).find((i) => i.kind === 'IMAGE' && i.count >= 2);
  assert.ok(candidates, 'candidates come before the pick');
  assert.equal(candidates.artifacts.length, candidates.count, 'every candidate was made');
  const made = c.items.slice(at + 1).filter((i) => i.kind === 'IMAGE');
  assert.equal(made.length, posters, `the series has the ${posters} posters asked for`);
  assert.ok(made.every((p) => p.artifacts.length === 1), 'each poster has its picture');
  // The pick: the option the person chose names a candidate's object; the checkpoint records it.
  const card = await prisma.approval.findFirstOrThrow({ where: { taskId, kind: 'CHECKPOINT', status: 'APPROVED' } });
  const option = ((card.options ?? []) as { id: string; objectId?: string | null }[]).find((o) => o.id === card.choice);
  assert.equal(card.choice, pick, 'the person picked the candidate they wanted');
  assert.ok(option?.objectId, 'the picked option names an object');
  const chosen = `object:${option.objectId}`;
  assert.equal(candidates.artifacts[Number(pick.slice(1)) - 1], chosen, 'the picked option is that candidate');
  assert.deepEqual(checkpoint.artifacts, [chosen], 'the checkpoint records the pick');
  const summary = (await prisma.task.findUniqueOrThrow({ where: { id: taskId } })).summary ?? '';
  for (const ref of [chosen, ...made.flatMap((p) => p.artifacts)]) assert.ok(summary.includes(ref), `the delivery cites ${ref}`);
  // Every poster was generated from the picked candidate.
  const jobs = await prisma.generationJob.findMany({ where: { taskId, kind: 'IMAGE' } });
  const posterJobs = jobs.filter((j) => made.some((p) => p.id === (j.params as { checklistItemId?: string }).checklistItemId));
  assert.ok(posterJobs.length >= posters);
  for (const j of posterJobs) assert.equal((j.params as { referenceId?: string }).referenceId, chosen, 'each poster starts from the pick');
  return { steps: c.items.length, images: jobs.filter((j) => j.status === 'SUCCEEDED').length, imageOrders: jobs.length };
}

export const SCENARIOS: Scenario[] = [
  {
    name: 'poster series: plan approval, pick among candidates, delivery',
    async run(ctx) {
      const req = ctx.pick(POSTER_SERIES);
      const pick = ctx.pick(['c1', 'c2', 'c3']);
      const task = await ctx.say(req.text, 'new');
      assert.ok(task, 'a task was created');
      const status = await ctx.settle(task, person(pick), { expectCards: { PLAN: 1, CHECKPOINT: 1 } });
      assert.equal(status, 'COMPLETED');
      const r = await checkSeries(ctx, task, req.posters, pick);
      return { prompt: req.text, pick, ...r };
    },
  },
  {
    name: 'short video: storyboard, shots, a change of direction mid-run',
    async run(ctx) {
      const req = ctx.pick(VIDEO_WITH_CHANGE);
      const task = await ctx.say(req.text, 'new');
      assert.ok(task);
      const prisma = ctx.t.app.deps.prisma;
      // Let it run until the shots are being generated.
      await ctx.settle(task, person(), { expectCards: { PLAN: 1, CHECKPOINT: 1 }, until: async () => (await prisma.generationJob.count({ where: { taskId: task, kind: 'VIDEO' } })) >= 3 });
      // A second writer: the person adds a note to the storyboard the task wrote (the result of its step).
      const docs = await prisma.workspaceObject.findMany({ where: { workspaceId: ctx.t.a.workspaceId, kind: 'DOCUMENT', deletedAt: null } });
      assert.equal(docs.length, 2, 'the task wrote its storyboard and its character sheet');
      const planned = (await readChecklist(prisma, task))!;
      const storyboardId = planned.items.find((i) => i.id === 'storyboard')!.artifacts[0]!.slice('object:'.length);
      const current = await prisma.objectVersion.findFirstOrThrow({ where: { objectId: storyboardId }, orderBy: { version: 'desc' } });
      const markdown = (current.content as { markdown: string }).markdown;
      const firstLine = markdown.split('\n')[0]!;
      await editDocument(ctx.t.app.deps, owner(ctx), { objectId: storyboardId, edits: [{ find: firstLine, replace: `${firstLine}\n\n${req.note}` }] });
      // Everything was made from the storyboard: a card asks before anything is made again. A note
      // changes no shot, so the person keeps them; nothing is re-made by the note.
      const impact = await prisma.approval.findFirstOrThrow({ where: { taskId: task, status: 'PENDING', kind: 'CHECKPOINT' } });
      assert.equal((impact.action as { type?: string }).type, 'PLAN_IMPACT');
      await resolveApproval(ctx.t.app.deps, deciding(ctx), { approvalId: impact.id, decision: 'REJECT', idempotencyKey: `keep-${impact.id}` });
      assert.ok((await readChecklist(prisma, task))!.items.every((i) => i.status !== 'STALE'), 'kept: nothing stays stale');
      // Then a change of direction while the shots are generating.
      const changedAt = new Date();
      await ctx.signal(task, 'REVISE', req.change);
      const status = await ctx.settle(task, person(), { expectCards: { PLAN: 2, CHECKPOINT: 1 } });
      assert.equal(status, 'COMPLETED');
      const c = await checklistDone(ctx, task);
      const shots = c.items.filter((i) => i.kind === 'VIDEO');
      assert.equal(shots.length, 3, 'the plan has its three shots');
      assert.ok(shots.every((s) => s.round >= 1 && s.artifacts.length === 1), `every shot was re-opened and made again: ${JSON.stringify(shots.map((s) => [s.title, s.round, s.artifacts.length]))}`);
      // Only results of the new round are linked: each comes from a job ordered after the change,
      // for that step's current round.
      const jobs = await prisma.generationJob.findMany({ where: { taskId: task, kind: 'VIDEO' } });
      for (const s of shots) {
        const ref = s.artifacts[0]!;
        const job = jobs.find((j) => ref === `job:${j.id}` || ref === `object:${assetIdForJob(j.id)}`);
        assert.ok(job, `the result ${ref} of ${s.title} is one of the task's videos`);
        assert.equal((job.params as { checklistRound?: number }).checklistRound, s.round, `${s.title}'s result belongs to its new round`);
        assert.ok(job.createdAt >= changedAt, `${s.title}'s result was ordered after the change of direction`);
      }
      // One storyboard, read before it was written: it follows the new direction and keeps the
      // person's note (no fork, no lost edit).
      const after = await prisma.workspaceObject.findMany({ where: { workspaceId: ctx.t.a.workspaceId, kind: 'DOCUMENT', deletedAt: null } });
      assert.equal(after.length, 2, 'still one storyboard and one character sheet');
      assert.deepEqual(c.items.find((i) => i.id === 'storyboard')!.artifacts, [`object:${storyboardId}`], 'the storyboard is its step\'s result again');
      const latest = await prisma.objectVersion.findFirstOrThrow({ where: { objectId: storyboardId }, orderBy: { version: 'desc' } });
      const text = (latest.content as { markdown: string }).markdown;
      assert.ok(text.includes(req.change), 'the storyboard follows the new direction');
      assert.ok(text.includes(req.note), "the person's note is kept");
      return { prompt: req.text, shots: shots.length, videoOrders: jobs.length, storyboardVersions: latest.version };
    },
  },
  {
    name: 'two tasks interleaved in the main thread',
    async run(ctx) {
      const prisma = ctx.t.app.deps.prisma;
      const imageText = ctx.pick(SINGLE_IMAGE);
      const audioText = ctx.pick(AUDIO);
      const image = await ctx.say(imageText, 'new');
      const audio = await ctx.say(audioText, 'new');
      assert.ok(image && audio && image !== audio, 'two tasks');
      const [a, b] = await Promise.all([ctx.settle(image, person(), { expectCards: {} }), ctx.settle(audio, person(), { expectCards: {} })]);
      assert.equal(a, 'COMPLETED');
      assert.equal(b, 'COMPLETED');
      for (const [taskId, kind] of [[image, 'IMAGE'], [audio, 'AUDIO']] as const) {
        const c = await checklistDone(ctx, taskId);
        assert.deepEqual(c.items.map((i) => [i.kind, i.artifacts.length]), [[kind, 1]], `one ${kind} step with its result`);
        const kinds = new Set((await prisma.generationJob.findMany({ where: { taskId } })).map((j) => j.kind));
        assert.deepEqual([...kinds], [kind], `only ${kind} was generated for this task`);
      }
      return { image: imageText, audio: audioText };
    },
  },
  {
    name: 'resuming a task from last week',
    async run(ctx) {
      const prisma = ctx.t.app.deps.prisma;
      const req = ctx.pick(RESUMED_SERIES);
      const task = await ctx.say(req.text, 'new');
      assert.ok(task);
      // Last week: the plan was approved, then the user paused the work and left.
      await ctx.settle(task, person(), { expectCards: { PLAN: 1 }, until: async () => (await prisma.approval.count({ where: { taskId: task, kind: 'PLAN', status: 'APPROVED' } })) > 0 });
      await ctx.signal(task, 'PAUSE');
      await waitFor(
        async () =>
          (await prisma.turn.count({ where: { taskId: task, status: { in: ['QUEUED', 'RUNNING'] } } })) === 0 &&
          (await prisma.generationJob.count({ where: { taskId: task, status: { in: ['SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN'] } } })) === 0,
        'the paused task to be at rest',
        { timeoutMs: 120_000, intervalMs: 100 },
      );
      assert.equal(await ctx.status(task), 'PAUSED');
      const weekAgo = new Date(Date.now() - 8 * 24 * 3600_000);
      await prisma.task.update({ where: { id: task }, data: { lastActivityAt: weekAgo, createdAt: weekAgo } });
      // This week: one sentence, and the work goes on where it stopped.
      const again = await ctx.say(req.resume, { taskId: task });
      assert.equal(again, task, 'routed to the paused task');
      const status = await ctx.settle(task, person('c1'), { expectCards: { PLAN: 1, CHECKPOINT: 1 } });
      assert.equal(status, 'COMPLETED');
      const r = await checkSeries(ctx, task, req.posters, 'c1');
      return { prompt: req.text, resume: req.resume, pausedDays: 8, ...r };
    },
  },
  {
    name: 'four-shot film: the person changes the character after two shots',
    async run(ctx) {
      const prisma = ctx.t.app.deps.prisma;
      const text = ctx.pick(FILM_WITH_CHARACTER);
      const task = await ctx.say(text.text, 'new');
      assert.ok(task);
      // Until two shots are done (the shots are ordered side by side once the setting is made).
      const shotsDone = async () => (await prisma.generationJob.count({ where: { taskId: task, kind: 'VIDEO', status: 'SUCCEEDED' } })) >= 2;
      await ctx.settle(task, person(), { expectCards: { PLAN: 1, CHECKPOINT: 1 }, until: shotsDone });
      const before = (await readChecklist(prisma, task))!;
      const graphBefore = before.items.map((i) => `${i.id}[${i.status}]${i.after?.length ? `←${i.after.join('+')}` : ''}`).join(' ');
      const sheetStep = before.items.find((i) => i.id === 'character-sheet');
      assert.ok(sheetStep && sheetStep.artifacts[0]?.startsWith('object:'), `the character sheet is a document linked to its step: ${JSON.stringify(sheetStep)}`);
      const sheetId = sheetStep.artifacts[0]!.slice('object:'.length);
      // The same moment as a list: every step after the character sheet that has a result or an
      // order is made again (what a linear plan does with the change), at the same prices.
      const at = before.items.indexOf(sheetStep);
      const made = (i: (typeof before.items)[number]) => i.artifacts.length > 0 || i.ordered > 0;
      const linear = before.items.slice(at + 1).filter(made);
      const linearCents = linear.reduce((n, i) => n + i.estimateCents, 0);
      // The person edits the character sheet.
      const changedAt = new Date();
      const current = await prisma.objectVersion.findFirstOrThrow({ where: { objectId: sheetId }, orderBy: { version: 'desc' } });
      const first = (current.content as { markdown: string }).markdown.split('\n')[0]!;
      await editDocument(ctx.t.app.deps, owner(ctx), { objectId: sheetId, edits: [{ find: first, replace: `${first}\n\n${text.change}` }] });
      const card = await prisma.approval.findFirstOrThrow({ where: { taskId: task, status: 'PENDING', kind: 'CHECKPOINT' }, orderBy: { createdAt: 'desc' } });
      const staleIds = (card.action as { itemIds: string[] }).itemIds;
      const usesCharacter = before.items.filter((i) => i.after?.includes('character-sheet') && made(i)).map((i) => i.id);
      assert.deepEqual([...staleIds].sort(), [...usesCharacter].sort(), 'exactly the made steps that use the character are stale');
      const status = await ctx.settle(task, person(), { expectCards: { PLAN: 1, CHECKPOINT: 2 } });
      assert.equal(status, 'COMPLETED');
      const after = await checklistDone(ctx, task);
      const graphAfter = after.items.map((i) => `${i.id}[${i.status}${i.round ? ` r${i.round}` : ''}]`).join(' ');
      const jobs = await prisma.generationJob.findMany({ where: { taskId: task } });
      // A re-make is an order in a later round of its step than the round it was in at the change
      // (a retry of a failed order, or a step's first order, stays in its round: not the change's cost).
      const roundAt = new Map(before.items.map((i) => [i.id, i.round]));
      const p = (j: (typeof jobs)[number]) => j.params as { checklistItemId?: string; checklistRound?: number };
      const late = jobs.filter((j) => j.createdAt >= changedAt && (p(j).checklistRound ?? 0) > (roundAt.get(p(j).checklistItemId ?? '') ?? 0));
      const remadeSteps = [...new Set(late.map((j) => p(j).checklistItemId))];
      assert.deepEqual(remadeSteps.sort(), [...staleIds].sort(), 'after the change, only the stale steps were made again');
      for (const id of staleIds) {
        const orders = late.filter((j) => p(j).checklistItemId === id);
        assert.equal(orders.filter((j) => j.status !== 'FAILED').length, 1, `${id} was made again once`);
      }
      // What the change was charged: a failed order holds money only until it fails (the ledger releases it).
      const graphCents = late.filter((j) => j.status !== 'FAILED').reduce((n, j) => n + j.quoteCents, 0);
      const shots = after.items.filter((i) => i.kind === 'VIDEO');
      const reused = shots.filter((i) => !staleIds.includes(i.id) && made(before.items.find((b) => b.id === i.id)!)).length;
      const ratio = linearCents ? graphCents / linearCents : 0;
      assert.ok(ratio <= 0.6, `the change cost ${graphCents} cents against the linear plan's ${linearCents}: ${ratio.toFixed(2)} (target ≤ 0.60)`);
      return { prompt: text.text, graphBefore, graphAfter, shotsRemade: staleIds.filter((id) => id.startsWith('shot-')).length, shotsKept: reused, changeCents: graphCents, linearCents, ratio: Number(ratio.toFixed(2)) };
    },
  },
  {
    name: 'an image turned into a video',
    async run(ctx) {
      const text = ctx.pick(IMAGE_TO_VIDEO);
      const task = await ctx.say(text, 'new');
      assert.ok(task);
      const status = await ctx.settle(task, person(), { expectCards: { PLAN: 1 } });
      assert.equal(status, 'COMPLETED');
      const c = await checklistDone(ctx, task);
      assert.deepEqual(c.items.map((i) => [i.kind, i.artifacts.length]), [['IMAGE', 1], ['VIDEO', 1]], 'an image, then a video, each with its result');
      const image = c.items[0]!;
      const videos = await ctx.t.app.deps.prisma.generationJob.findMany({ where: { taskId: task, kind: 'VIDEO' } });
      assert.ok(videos.length >= 1);
      for (const v of videos) assert.equal((v.params as { referenceId?: string }).referenceId, image.artifacts[0], 'the video starts from the image');
      return { prompt: text, steps: c.items.length };
    },
  },
  {
    name: 'a stop while a generation is running',
    async run(ctx) {
      const prisma = ctx.t.app.deps.prisma;
      const text = ctx.pick(MODEL_3D);
      const task = await ctx.say(text, 'new');
      assert.ok(task);
      await ctx.settle(task, person(), { expectCards: {}, until: async () => (await prisma.generationJob.count({ where: { taskId: task, status: { in: ['QUEUED', 'RUNNING', 'UNKNOWN'] } } })) > 0 });
      await ctx.signal(task, 'CANCEL');
      const stoppedAt = new Date();
      // The order ends (at the provider, or by reconciliation when its submission's outcome was
      // unknown): recorded and settled, and the task is not revived.
      await waitFor(async () => (await prisma.generationJob.count({ where: { taskId: task, status: { in: ['SUBMITTING', 'QUEUED', 'RUNNING', 'UNKNOWN'] } } })) === 0, 'the order to end', { timeoutMs: 120_000, intervalMs: 100 });
      assert.equal(await ctx.status(task), 'CANCELLED');
      assert.equal(await prisma.turn.count({ where: { taskId: task, status: { in: ['QUEUED', 'RUNNING'] } } }), 0, 'no turn after the stop');
      assert.equal(await prisma.turn.count({ where: { taskId: task, createdAt: { gt: stoppedAt } } }), 0, 'no turn was started after the stop');
      const jobs = await prisma.generationJob.findMany({ where: { taskId: task } });
      assert.ok(jobs.every((j) => j.kind === 'MODEL_3D'));
      const ledger = await prisma.ledgerEntry.findMany({ where: { taskId: task } });
      return { prompt: text, jobs: jobs.map((j) => j.status).join('+'), settled: ledger.map((l) => l.kind).sort().join('+') };
    },
  },
  ...CONTINUITY_SCENARIOS,
  ...FORK_SCENARIOS,
];
