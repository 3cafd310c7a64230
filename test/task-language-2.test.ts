// Everything a person reads from a task, or from a card they asked for, is in their language (EN,
// DE, FR, ES, ZH, JA): the budget cap's refusal, the offline model's progress lines, prompt wording
// and documents, the cards to delete an object or forget a memory (no task there: the language of
// the person's latest message), and the thread's acknowledgement of a lasting workspace fact.
import { HumanMessage } from '@langchain/core/messages';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Viewer } from '../server/auth/viewer.ts';
import { decidePaidAction } from '../server/domain/approval-policy.ts';
import { LANGUAGE_NAMES } from '../server/domain/language.ts';
import { mergePlan } from '../server/domain/checklist.ts';
import { REPLY_LANGUAGES, textsFor, type ReplyLanguage } from '../server/domain/replies/texts.ts';
import { offlineFlowReply } from '../server/runtime/models/offline-flows.ts';
import { statedFacts } from '../server/services/messages/replies/remember.ts';
import { sendMessage } from '../server/services/messages/send-message.ts';
import { requestForgetEvidence, requestForgetMemory } from '../server/services/memory/request-forget.ts';
import { requestDeleteObject } from '../server/services/objects/delete-object.ts';
import { createObject } from '../server/services/objects/write-object.ts';
import { startTestApp, type TestApp } from './helpers/app.ts';

const OTHERS = REPLY_LANGUAGES.filter((l) => l !== 'en');
const en = textsFor('en');
/** English words that must not appear in a text of another language. */
const ENGLISH = /\b(the|this|would|over|its|from|fixed|rules|Planning|Generating|Writing|variant|Shot|Establishing|Goal|Audience|Deliverables|Delete|Forget|cannot|restored|undone)\b/;

const brief = (l: ReplyLanguage, goal: string) => new HumanMessage(`Task: Coffee festival\nGoal: ${goal}\nReply to the user in ${LANGUAGE_NAMES[l]}.`);
const state = (lines: string) => new HumanMessage(`[task state]\n[checklist v1]\n${lines}`);

describe('a task refused at its budget cap says why in its language', () => {
  for (const l of REPLY_LANGUAGES) {
    test(l, () => {
      const d = decidePaidAction({
        quoteCents: 400,
        autonomy: 'AUTONOMOUS',
        perActionFreeCents: 1000,
        dailyFreeCents: 10_000,
        budgetCapCents: 1000,
        approvedBudgetCents: null,
        confirmEach: false,
        spentTodayCents: 0,
        taskCommittedCents: 800,
        existing: null,
        language: l,
      });
      assert.equal(d.kind, 'budget-exceeded');
      const t = textsFor(l);
      assert.equal(d.kind === 'budget-exceeded' && d.reason, t.budgetCapReason(400, 1200, 1000));
      assert.ok(d.kind === 'budget-exceeded' && d.reason.includes(t.money(1200)) && d.reason.includes(t.money(1000)), String(d.kind === 'budget-exceeded' && d.reason));
      if (l !== 'en') assert.doesNotMatch(d.kind === 'budget-exceeded' ? d.reason : '', ENGLISH);
    });
  }
});

describe("the offline model's progress lines, prompts and documents are in the task's language", () => {
  for (const l of OTHERS) {
    test(l, () => {
      const t = textsFor(l);
      const o = t.offline;
      // Planning.
      const planned = offlineFlowReply([brief(l, 'three posters for the coffee festival')], ['plan_checklist'])!;
      assert.equal(planned.content, `${o.tag} ${o.planned('poster-series')}`);
      assert.doesNotMatch(planned.content, ENGLISH);
      assert.notEqual(o.planned('poster-series'), en.offline.planned('poster-series'));
      assert.doesNotMatch(String(planned.calls[0]!.args.reason), /offline plan/);
      // Generating three look candidates: the line and the prompt's wording.
      const title = o.step({ step: 'lookCandidates' });
      const gen = offlineFlowReply([brief(l, 'three posters'), state(`1. [TODO] ${title} (id look-candidates, IMAGE ×3)`)], ['plan_checklist', 'generate_image'])!;
      assert.equal(gen.content, `${o.tag} ${o.generating(title)}`);
      assert.doesNotMatch(gen.content, ENGLISH);
      assert.equal(gen.calls.length, 3);
      assert.ok(String(gen.calls[0]!.args.prompt).includes(o.variant(1, 3)), String(gen.calls[0]!.args.prompt));
      assert.doesNotMatch(String(gen.calls[0]!.args.prompt), /\bvariant\b/);
      // A storyboard written from the template: headings and fixed phrases in the language.
      const sb = o.step({ step: 'storyboard' });
      const doc = offlineFlowReply([brief(l, 'a storyboard for the launch video'), state(`1. [TODO] ${sb} (id storyboard, DOCUMENT)`)], ['plan_checklist', 'create_document', 'update_checklist'])!;
      assert.equal(doc.content, `${o.tag} ${o.writing(sb)}`);
      assert.doesNotMatch(doc.content, ENGLISH);
      const markdown = String(doc.calls[0]!.args.markdown);
      assert.ok(markdown.startsWith(`# ${o.document.storyboard} — `), markdown);
      assert.ok(markdown.includes(`## ${o.document.shot(1, o.document.shots[0]![0])}`), markdown);
      assert.ok(markdown.includes(`${o.document.directionPrefix}${o.document.asBriefed}`), markdown);
      assert.doesNotMatch(markdown.replace('Coffee festival', ''), ENGLISH);
      assert.ok(!markdown.includes('Direction: as briefed'), markdown);
      assert.match(String(doc.calls[1]!.args.evidence), new RegExp(o.writtenEvidence));
      // A brief.
      const br = o.step({ step: 'brief' });
      const brDoc = offlineFlowReply([brief(l, 'a brief for the campaign'), state(`1. [TODO] ${br} (id brief, DOCUMENT)`)], ['plan_checklist', 'create_document', 'update_checklist'])!;
      const brMarkdown = String(brDoc.calls[0]!.args.markdown);
      assert.ok(brMarkdown.startsWith(`# ${o.document.brief} — `), brMarkdown);
      for (const [h] of o.document.briefSections) assert.ok(brMarkdown.includes(`## ${h}`), brMarkdown);
      assert.doesNotMatch(brMarkdown.replace('Coffee festival', ''), ENGLISH);
    });
  }
});

// A lasting fact of the workspace, said the language's way, and the value the thread names.
const FACTS: Record<Exclude<ReplyLanguage, 'en' | 'de'>, { text: string; value: string }[]> = {
  fr: [
    { text: 'Notre couleur de marque est le bleu canard.', value: 'bleu canard' },
    { text: 'Notre police est Garamond.', value: 'Garamond' },
    { text: 'Notre logo est un renard roux.', value: 'un renard roux' },
    { text: 'Notre slogan est « Toujours frais ».', value: 'Toujours frais' },
    { text: "Notre entreprise s'appelle Lumière.", value: 'Lumière' },
  ],
  es: [
    { text: 'Nuestro color de marca es el verde azulado.', value: 'verde azulado' },
    { text: 'Nuestra tipografía es Helvetica.', value: 'Helvetica' },
    { text: 'Nuestro logotipo es un zorro rojo.', value: 'un zorro rojo' },
    { text: 'Nuestro eslogan es «Siempre fresco».', value: 'Siempre fresco' },
    { text: 'Nuestra empresa se llama Luz Clara.', value: 'Luz Clara' },
  ],
  zh: [
    { text: '我们的品牌色是青色。', value: '青色' },
    { text: '我们的字体是思源黑体。', value: '思源黑体' },
    { text: '我们的标志是一只红狐狸。', value: '一只红狐狸' },
    { text: '我们的口号是“永远新鲜”。', value: '永远新鲜' },
    { text: '我们公司叫光明巷。', value: '光明巷' },
  ],
  ja: [
    { text: '私たちのブランドカラーはティールです。', value: 'ティール' },
    { text: 'うちのフォントは游ゴシックです。', value: '游ゴシック' },
    { text: '弊社のロゴは赤いキツネです。', value: '赤いキツネ' },
    { text: 'キャッチコピーは「いつも新鮮」です。', value: 'いつも新鮮' },
    { text: '会社名は光の小道です。', value: '光の小道' },
  ],
};

describe('a lasting workspace fact is recognised in FR, ES, ZH and JA, and the acknowledgement names it', () => {
  for (const [l, cases] of Object.entries(FACTS) as [Exclude<ReplyLanguage, 'en' | 'de'>, { text: string; value: string }[]][]) {
    test(l, () => {
      for (const c of cases) {
        const s = statedFacts(c.text);
        assert.ok(s.pure, c.text);
        assert.deepEqual(
          s.facts.map((f) => f.value),
          [c.value],
          c.text,
        );
        assert.notEqual(s.facts[0]!.kind, 'other', c.text);
        const reply = textsFor(l).remembered(s.facts);
        assert.ok(reply.includes(c.value), reply);
      }
    });
  }
  test('a logo, a tagline and a company name in English and German too', () => {
    for (const [text, value] of [
      ['Our logo is a red fox.', 'a red fox'],
      ['Our tagline is "Always fresh".', 'Always fresh'],
      ['Our company is called Bright Lane.', 'Bright Lane'],
      ['Unser Logo ist ein roter Fuchs.', 'ein roter Fuchs'],
      ['Unser Slogan lautet „Immer frisch“.', 'Immer frisch'],
      ['Unsere Firma heißt Lichtweg.', 'Lichtweg'],
    ] as const) {
      assert.deepEqual(statedFacts(text).facts.map((f) => f.value), [value], text);
    }
  });
});

describe('the thread remembers, and cards a person asks for outside a task speak their language', () => {
  let t: TestApp;
  let viewer: Viewer;
  let n = 0;
  before(async () => {
    t = await startTestApp('tasklang2');
    viewer = { userId: t.a.ownerId, credentialId: 'x', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.a.workspaceId, 'OWNER']]) };
  });
  after(async () => {
    await t.close();
  });

  for (const l of OTHERS) {
    test(l, async () => {
      const prisma = t.app.deps.prisma;
      const tx = textsFor(l);
      // A lasting fact said in the language: remembered, in the language (and it sets the person's language).
      const said = l === 'de' ? { text: 'Unsere Markenfarbe ist Petrol.', value: 'Petrol' } : FACTS[l].at(0)!;
      const sent = await sendMessage(t.app.deps, viewer, { workspaceId: t.a.workspaceId, text: said.text, idempotencyKey: `tl2-${++n}` });
      const message = await prisma.message.findFirstOrThrow({ where: { workspaceId: t.a.workspaceId, authorUserId: viewer.userId, text: said.text }, orderBy: { createdAt: 'desc' } });
      assert.equal(message.language, l);
      const reply = await prisma.message.findFirstOrThrow({ where: { idempotencyKey: `reply:${message.id}` } });
      assert.equal(reply.text, tx.remembered(statedFacts(said.text).facts), JSON.stringify(sent));
      assert.ok(reply.text.includes(said.value), reply.text);

      // Deleting an object.
      const obj = await createObject(t.app.deps, viewer, { workspaceId: t.a.workspaceId, kind: 'DOCUMENT', name: `Plakat ${l}`, content: { markdown: '# x\n' } });
      const del = await requestDeleteObject(t.app.deps, viewer, obj.object.id);
      assert.equal(del.approval.title, tx.deleteObjectTitle('DOCUMENT', `Plakat ${l}`));
      assert.deepEqual((del.approval.reasons as { message: string }[]).map((r) => r.message), [tx.deleteObjectReason]);
      assert.doesNotMatch(`${del.approval.title} ${tx.deleteObjectReason}`, ENGLISH);

      // Forgetting the message's evidence, and a memory.
      const ev = await prisma.memoryEvidence.findFirstOrThrow({ where: { messageId: message.id } });
      const forgetEv = await requestForgetEvidence(t.app.deps, viewer, { evidenceId: ev.id });
      assert.equal(forgetEv.title, tx.forgetSourceTitle('MESSAGE', ev.occurredAt));
      assert.deepEqual((forgetEv.reasons as { message: string }[]).map((r) => r.message), [tx.forgetSourceReason]);
      assert.doesNotMatch(`${forgetEv.title} ${tx.forgetSourceReason}`, ENGLISH);
      const memory = await prisma.memory.create({
        data: { workspaceId: t.a.workspaceId, userId: viewer.userId, scope: 'WORKSPACE', scopeKey: `tl2-${l}`, kind: 'BRAND_RULE', subjectKey: 'brand.logo', origin: 'USER_STATED' },
      });
      const forgetMem = await requestForgetMemory(t.app.deps, viewer, { memoryId: memory.id });
      assert.equal(forgetMem.title, tx.forgetMemoryTitle('brandLogo', 'brand.logo'));
      assert.deepEqual((forgetMem.reasons as { message: string }[]).map((r) => r.message), [tx.forgetMemoryReason]);
      assert.doesNotMatch(`${forgetMem.title.replace('brand.logo', '')} ${tx.forgetMemoryReason}`, ENGLISH);
    });
  }

  test('a person who has not written yet gets English cards', async () => {
    const other: Viewer = { userId: t.b.ownerId, credentialId: 'y', scopes: new Set(['READ', 'WRITE', 'APPROVE']), memberships: new Map([[t.b.workspaceId, 'OWNER']]) };
    const obj = await createObject(t.app.deps, other, { workspaceId: t.b.workspaceId, kind: 'DOCUMENT', name: 'Poster', content: { markdown: '# x\n' } });
    const del = await requestDeleteObject(t.app.deps, other, obj.object.id);
    assert.equal(del.approval.title, en.deleteObjectTitle('DOCUMENT', 'Poster'));
  });
});

describe("a step re-opened or dropped by a change of direction says so in the task's language", () => {
  for (const l of REPLY_LANGUAGES) {
    test(l, () => {
      const t = textsFor(l);
      const price = () => 4;
      const v1 = mergePlan([], [{ id: 'look', title: 'Look', kind: 'IMAGE', count: 2 }, { id: 'extra', title: 'Extra', kind: 'IMAGE' }], price, 'plan', t);
      const done = v1.map((i) => ({ ...i, status: 'DONE' as const, artifacts: ['obj-1'] }));
      const v2 = mergePlan(done, [{ id: 'look', title: 'Look', kind: 'IMAGE', count: 2, reopen: true }], price, 'nachts', t);
      assert.equal(v2.find((i) => i.id === 'look')!.evidence, `${t.stepReopened('nachts')}; ${t.earlierResults('obj-1')}`);
      assert.equal(v2.find((i) => i.id === 'extra')!.evidence, t.stepDropped('nachts'));
      if (l !== 'en') assert.doesNotMatch(`${t.stepReopened('x')} ${t.stepDropped('x')} ${t.earlierResults('x')} ${t.personChose('A', 'n')} ${t.personChose(null, null)}`, /re-opened|dropped|earlier|the user|chose|confirmed/);
    });
  }
});
