// The thread's words, pure: the message templates of each language (EN, DE, FR, ES, ZH, JA) are in
// that language; the parsers find commands and status questions in each, and the words naming a
// task find it across languages (Plakat ≈ poster) but never a task the words do not fully name; the
// delivery, status answers and the offline model's plans speak the task's language.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ChecklistItemSchema } from '../server/domain/checklist.ts';
import { deliverySummary } from '../server/domain/continuation.ts';
import { detectLanguage } from '../server/domain/language.ts';
import { conversationOf, statusQuestionOf, steeringOf } from '../server/domain/replies/intents.ts';
import { resolveTask, type TaskLike } from '../server/domain/replies/reference.ts';
import { statusText, type TaskSnapshot } from '../server/domain/replies/status.ts';
import { REPLY_LANGUAGES, textsFor } from '../server/domain/replies/texts.ts';
import { briefLanguage, isCandidateTitle, localizedPlan } from '../server/runtime/models/offline/texts.ts';
import { classify } from '../server/runtime/models/offline/classify.ts';
import { asInstruction, en } from '../server/domain/replies/en.ts';
import { statusText as protocolStatus } from '../server/http/mcp/task-view.ts';

const paid = { runningJobs: 2, heldCents: 80, approvedCents: 0 };

describe('the templates of every language are in that language', () => {
  for (const lang of REPLY_LANGUAGES) {
    test(lang, () => {
      const t = textsFor(lang);
      assert.equal(t.lang, lang);
      const samples = [
        t.help(true),
        t.cannotAnswer(true),
        t.nothingInProgress,
        t.recallUnknown,
        t.nothingToRemember,
        t.confirmCancel('Coffee posters', paid),
        t.planReasonNew,
        t.checkpointReason,
        t.offline.declined,
        t.offline.cannotReason('x'),
        t.clarifyMore,
        t.remembered([{ kind: 'brandColor', subject: 'brand.colors', value: 'teal' }]),
        t.status('Coffee posters', { kind: 'decision', title: 'Plan' }),
        t.steered('PAUSE', 'Coffee posters', 'done'),
        // The reasons on a price card, the note of a card set aside, the offline model re-planning.
        t.approvalReason({ code: 'AUTONOMY_MANUAL' }),
        t.approvalReason({ code: 'CREDENTIAL_CONFIRMS_EACH' }),
        t.approvalReason({ code: 'PLAN_BUDGET', totalCents: 260, budgetCents: 200 }),
        t.approvalReason({ code: 'PER_ACTION_LIMIT', quoteCents: 80, freeCents: 50 }),
        t.approvalReason({ code: 'DAILY_LIMIT', totalCents: 1040, freeCents: 1000 }),
        ...(['REVISE', 'ADD_CONTEXT', 'MESSAGE'] as const).map((by) => t.supersededNote(by, '5')),
        t.offline.planningAgain('5'),
        // Where a task is, for clients following it over MCP or A2A.
        t.taskState.budgetExceeded,
        t.taskState.needsPerson(t.planReasonNew),
      ];
      for (const s of samples) assert.equal(detectLanguage(s).language, lang, `${lang}: "${s}" reads as ${detectLanguage(s).language}`);
    });
  }

  test('a next round\'s revision step is titled in the task\'s language', () => {
    const poster = (lang: (typeof REPLY_LANGUAGES)[number]) => textsFor(lang).offline.step({ step: 'poster', n: 2 });
    assert.deepEqual(
      REPLY_LANGUAGES.map((l) => textsFor(l).offline.revise(poster(l))),
      ['Revise Poster 2', 'Plakat 2 überarbeiten', 'Retoucher Affiche 2', 'Revisar Cartel 2', '修改海报 2', 'ポスター 2 を修正'],
    );
    for (const lang of REPLY_LANGUAGES) {
      const t = textsFor(lang);
      const s = `${t.offline.revise(poster(lang))}. ${t.offline.planningAgain(t.offline.revise(poster(lang)))}`;
      assert.equal(detectLanguage(s).language, lang, `${lang}: "${s}" reads as ${detectLanguage(s).language}`);
    }
  });

  test('the English card texts read as before', () => {
    assert.equal(en.approvalReason({ code: 'PER_ACTION_LIMIT', quoteCents: 80, freeCents: 50 }), '$0.80 is above the confirmation-free amount of $0.50 per action.');
    assert.equal(en.supersededNote('REVISE', 'make it five posters'), 'Set aside by your revision: “make it five posters”');
    assert.equal(textsFor('de').supersededNote('MESSAGE', 'bitte in Blau'), 'Zurückgestellt durch deine Nachricht: „bitte in Blau“');
  });

  test('a language the product does not write falls back to English, never to nothing', () => {
    assert.equal(textsFor('ko').lang, 'en');
    assert.equal(textsFor(null, undefined, 'und').lang, 'en');
    assert.equal(textsFor('und', 'de').lang, 'de', 'the first supported candidate wins');
  });

  test('money and dates are written the language\'s way', () => {
    assert.equal(textsFor('en').money(120), '$1.20');
    assert.match(textsFor('de').money(120), /^1,20\s\$$/);
    assert.match(textsFor('fr').money(120), /^1,20\s\$/);
    const d = new Date('2026-12-01T10:00:00Z');
    assert.equal(textsFor('en').date(d), 'December 1, 2026');
    assert.equal(textsFor('de').date(d), '1. Dezember 2026');
    assert.equal(textsFor('ja').date(d), '2026年12月1日');
  });

  test('an English acknowledgement restates an instruction in the first person', () => {
    assert.equal(asInstruction('can you make poster 2 warmer?'), 'make poster 2 warmer');
    assert.equal(asInstruction('Please use my logo'), 'use your logo');
    assert.equal(asInstruction('the colours feel off'), null, 'not an instruction: quoted instead');
    assert.equal(en.delivered('Coffee posters', 'make poster 2 warmer'), 'Got it — I\'ll make poster 2 warmer in “Coffee posters”.');
    assert.match(en.delivered('Coffee posters', 'the colours feel off'), /“the colours feel off”/);
  });
});

describe('where a task is, for clients following it from outside (MCP, A2A)', () => {
  test('in the language of the person\'s own words; English when it is not known', () => {
    const at = (language: string | null, status: 'RUNNING' | 'COMPLETED' | 'PAUSED', statusReason: string | null = null) => protocolStatus({ language, status, statusReason }, []);
    assert.equal(at('de', 'COMPLETED'), 'Abgeschlossen');
    assert.equal(at('ja', 'RUNNING'), '作業中');
    assert.equal(at('fr', 'PAUSED', 'demandé par Léa'), 'En pause — demandé par Léa');
    assert.equal(at(null, 'COMPLETED'), 'Completed');
    assert.equal(at('pt', 'RUNNING'), 'Working');
    assert.equal(protocolStatus({ language: 'es', status: 'WAITING', statusReason: null }, [{ title: '¿Qué cartel?' }]), 'Necesita la decisión de una persona en Atelier: ¿Qué cartel?');
  });
});

describe('commands and status questions in six languages', () => {
  const steer: [string, string, string][] = [
    ['stop the PPT', 'CANCEL', 'the ppt'],
    ['please cancel the launch video', 'CANCEL', 'the launch video'],
    ['hör auf mit dem Video', 'CANCEL', 'dem video'],
    ['brich das Plakat ab', 'CANCEL', 'das plakat'],
    ["arrête l'affiche", 'CANCEL', "l'affiche"],
    ['para el vídeo', 'CANCEL', 'el vídeo'],
    ['别做海报了', 'CANCEL', '海报'],
    ['動画を止めて', 'CANCEL', '動画'],
    ['pause the posters', 'PAUSE', 'the posters'],
    ['pausiere das Video', 'PAUSE', 'das video'],
    ["mets l'affiche en pause", 'PAUSE', "l'affiche"],
    ['pausa el cartel', 'PAUSE', 'el cartel'],
    ['暂停视频', 'PAUSE', '视频'],
    ['動画を一時停止して', 'PAUSE', '動画'],
    ['resume the posters', 'RESUME', 'the posters'],
    ['mach mit dem Video weiter', 'RESUME', 'dem video'],
    ["reprends l'affiche", 'RESUME', "l'affiche"],
    ['reanuda el cartel', 'RESUME', 'el cartel'],
    ['继续做海报', 'RESUME', '海报'],
    ['動画を再開して', 'RESUME', '動画'],
  ];
  for (const [text, signal, ref] of steer) {
    test(`"${text}" → ${signal}`, () => assert.deepEqual(steeringOf(text), { signal, ref }));
  }

  const status: [string, string][] = [
    ["where's the video at?", 'the video'],
    ['how is the coffee poster series going?', 'the coffee poster series'],
    ['wie weit ist das Plakat?', 'das plakat'],
    ['où en est la vidéo ?', 'la vidéo'],
    ['¿cómo va el cartel?', 'el cartel'],
    ['海报做得怎么样了？', '海报'],
    ['動画はどうなった？', '動画'],
  ];
  for (const [text, ref] of status) {
    test(`"${text}" asks about "${ref}"`, () => assert.deepEqual(statusQuestionOf(text), { ref }));
  }

  test('requests and other talk are neither', () => {
    for (const text of ['make the video warmer', 'design a poster for the fair', 'Plakat für das Sommerfest, drei Varianten', 'our brand color is teal']) {
      assert.equal(steeringOf(text), null, text);
      assert.equal(statusQuestionOf(text), null, text);
    }
  });

  test('greetings, thanks, "what can you do?", "what are you working on?"', () => {
    assert.equal(conversationOf('Hallo!'), 'greeting');
    assert.equal(conversationOf('merci beaucoup'), 'thanks');
    assert.equal(conversationOf('¿qué puedes hacer?'), 'help');
    assert.equal(conversationOf('你在做什么？'), 'workingOn');
    assert.equal(conversationOf('what are you working on?'), 'workingOn');
    assert.equal(conversationOf('make a poster'), null);
  });
});

describe('the task a few words name', () => {
  const now = Date.now();
  const task = (id: string, title: string, status = 'RUNNING', ago = 0): TaskLike => ({ id, title, goal: title, status, lastActivityAt: new Date(now - ago) });
  const tasks = [task('p', 'Coffee posters'), task('v', 'Launch video for the app'), task('d', 'Board meeting PPT', 'PAUSED')];

  test('across languages, by the kind of thing', () => {
    for (const [ref, id] of [
      ['das plakat', 'p'],
      ["l'affiche", 'p'],
      ['el cartel', 'p'],
      ['海报', 'p'],
      ['ポスター', 'p'],
      ['the video', 'v'],
      ['la vidéo', 'v'],
      ['動画', 'v'],
      ['the ppt', 'd'],
      ['the coffee posters', 'p'],
    ] as const) {
      const r = resolveTask(ref, tasks);
      assert.equal(r.kind === 'one' && r.task.id, id, `"${ref}" → ${JSON.stringify(r)}`);
    }
  });

  test('words the task does not have name no task; two tasks named alike are both returned', () => {
    assert.equal(resolveTask('using red on the poster', tasks).kind, 'none', 'a request, not a name');
    assert.equal(resolveTask('the bakery menu', tasks).kind, 'none');
    const two = [...tasks, task('v2', 'Teaser video')];
    const r = resolveTask('the video', two);
    assert.equal(r.kind, 'several');
    assert.deepEqual(r.kind === 'several' && r.tasks.map((x) => x.id).sort(), ['v', 'v2']);
  });

  test('"it" names the one live task, and only when there is one', () => {
    const one = resolveTask('it', [task('a', 'Spring poster'), task('b', 'Old flyer', 'COMPLETED')]);
    assert.equal(one.kind === 'one' && one.task.id, 'a');
    assert.equal(resolveTask('it', tasks).kind, 'several');
  });
});

describe('a task\'s words in its language', () => {
  const items = [
    ChecklistItemSchema.parse({ id: 'poster-1', title: 'Plakat 1', kind: 'IMAGE', status: 'DONE', artifacts: ['object:a'] }),
    ChecklistItemSchema.parse({ id: 'poster-2', title: 'Plakat 2', kind: 'IMAGE', status: 'SKIPPED', evidence: 'nicht nötig' }),
  ];

  test('the delivery summary, per language: short, each result named and linked', () => {
    assert.equal(deliverySummary(items, '', 'de'), 'Geliefert: [Plakat 1](object:a)\nÜbersprungen: Plakat 2 (nicht nötig)');
    assert.match(deliverySummary(items, '', 'fr'), /^Livré : \[Plakat 1\]\(object:a\)\n/);
    assert.match(deliverySummary(items, '', 'es'), /^Entregado: \[Plakat 1\]\(object:a\)\n/);
    assert.match(deliverySummary(items, '', 'zh'), /^已交付：\[Plakat 1\]\(object:a\)\n/);
    assert.match(deliverySummary(items, '', 'ja'), /^納品：\[Plakat 1\]\(object:a\)\n/);
    assert.match(deliverySummary(items, '', null), /^Delivered: \[Plakat 1\]\(object:a\)\n/, 'English when the task has no language');
  });

  test('the delivery names what was made, not the candidates or the pick, and never repeats itself', () => {
    const ref = (n: number) => `object:00000000-0000-4000-8000-00000000000${n}`;
    const series = [
      ChecklistItemSchema.parse({ id: 'look-candidates', title: 'Look candidates', kind: 'IMAGE', count: 3, status: 'DONE', artifacts: [ref(1), ref(2), ref(3)] }),
      ChecklistItemSchema.parse({ id: 'pick-a-direction', title: 'Pick a direction', kind: 'CHECKPOINT', status: 'DONE', artifacts: [ref(2)] }),
      ChecklistItemSchema.parse({ id: 'poster-1', title: 'Poster 1', kind: 'IMAGE', status: 'DONE', artifacts: [ref(4)] }),
      ChecklistItemSchema.parse({ id: 'poster-2', title: 'Poster 2', kind: 'IMAGE', status: 'DONE', artifacts: [ref(5)] }),
      ChecklistItemSchema.parse({ id: 'poster-3', title: 'Poster 3', kind: 'IMAGE', status: 'DONE', artifacts: [ref(6)] }),
    ];
    const text = deliverySummary(series, `[offline model] Delivered: Look candidates (${ref(1)}); Poster 1 (${ref(4)})`, 'en');
    assert.equal(text, `Delivered: [Poster 1](${ref(4)}), [Poster 2](${ref(5)}), [Poster 3](${ref(6)}) — in the look of [Candidate B](${ref(2)})`);
    assert.doesNotMatch(deliverySummary(series, '', 'en'), /Delivered\. Delivered|a result/);
    // The model's own words stay when they say more than the list.
    assert.equal(deliverySummary(series.slice(2, 3), 'Printed on matte paper.', 'en'), `Delivered: [Poster 1](${ref(4)})\nPrinted on matte paper.`);
    // Candidates that were the whole work are what was delivered, numbered.
    assert.equal(deliverySummary(series.slice(0, 1), '', 'en'), `Delivered: [Look candidates 1](${ref(1)}), [Look candidates 2](${ref(2)}), [Look candidates 3](${ref(3)})`);
  });

  test('a status answer: state, progress and cost', () => {
    const s: TaskSnapshot = {
      title: 'Kaffee-Plakate',
      status: 'WAITING',
      statusReason: null,
      pendingApprovals: [],
      liveJobs: 2,
      checklist: [
        { title: 'Plakat 1', status: 'DONE' },
        { title: 'Plakat 2', status: 'IN_PROGRESS' },
      ],
      costCents: 84,
    };
    const plain = (x: string) => x.replace(/\s/g, ' ');
    assert.equal(plain(statusText(textsFor('de'), s)), '„Kaffee-Plakate“ wird gerade generiert (2 laufen). 1 von 2 Schritten erledigt; als Nächstes: Plakat 2. Bisherige Kosten: 0,84 $.');
    assert.equal(statusText(textsFor('en'), { ...s, pendingApprovals: [{ title: 'Plan: 2 steps, estimated $0.08' }] }).split('. ')[0], '“Kaffee-Plakate” is waiting for your decision: Plan: 2 steps, estimated $0.08');
  });

  test('the offline model plans in the task\'s language, with the step ids of the English titles', () => {
    const brief = 'Task: Drei Plakate für das Kaffeefest\nReply to the user in German.';
    assert.equal(briefLanguage(brief), 'de');
    assert.equal(briefLanguage('Task: x'), null);
    const plan = classify('Drei Plakate für das Kaffeefest')!;
    const de = localizedPlan(plan.items, textsFor('de'));
    assert.deepEqual(de.map((i) => i.id), ['look-candidates', 'pick-a-direction', 'poster-1', 'poster-2', 'poster-3']);
    assert.deepEqual(de.map((i) => i.title), ['Entwürfe für den Look', 'Richtung wählen', 'Plakat 1', 'Plakat 2', 'Plakat 3']);
    const ja = localizedPlan(classify('動画を作って')!.items, textsFor('ja'));
    assert.deepEqual(ja.map((i) => i.title), ['絵コンテ', '絵コンテの確認', 'キャラクター設定', '舞台', 'カット 1', 'カット 2', 'カット 3', '最終編集']);
    assert.deepEqual(localizedPlan(plan.items, textsFor('en')).map((i) => i.title), plan.items.map((i) => i.title), 'English titles as before');
    for (const lang of ['en', 'de', 'fr', 'es', 'zh', 'ja'] as const) assert.ok(isCandidateTitle(localizedPlan(plan.items, textsFor(lang))[0]!.title), lang);
    assert.ok(!isCandidateTitle('Plakat 1'));
  });
});
