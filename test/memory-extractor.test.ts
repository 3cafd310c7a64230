// Memory extraction from free wording: the rule-based extractor on the classes people write in
// (moves, names, signatures, stops and starts, one-off instructions, dates in the wording, values
// bounded at the clause end) in EN, DE, FR, ES, ZH and JA; the model extractor through LangChain
// structured output, with scripted models and once with the real ChatOpenAI client against the
// local stub: its candidates are validated one by one like the rules', its dates become the
// version's validity, and a failing model degrades to the rules.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { ChatOpenAI } from '@langchain/openai';
import { createPrisma, type PrismaClient } from '../server/db/client.ts';
import { extractEvidence, extractPending, type CandidateSource } from '../server/services/memory/extract-memories.ts';
import { forgetEvidenceNow } from '../server/services/memory/forget.ts';
import { dateInWording, EXTRACTOR_VERSION, extractCandidates, validateCandidates, type SourceKind } from '../server/services/memory/extractor.ts';
import { createModelExtractor, EXTRACTION_TOOL, type ModelMemory } from '../server/services/memory/model-extractor.ts';
import { retrieveMemories } from '../server/services/memory/retrieve-memories.ts';
import { recordEvidence } from '../server/services/memory/store.ts';
import { StructuredScriptedModel } from './eval/memory.ts';
import { startTestApp } from './helpers/app.ts';
import { createTestDatabase } from './helpers/db.ts';
import { startOpenAIStub, toolCall } from './helpers/openai-stub.ts';

const JUNE = new Date('2026-06-10T10:00:00Z');
const day = (d: string) => new Date(`${d}T00:00:00.000Z`).toISOString();

/** What the rules keep of a text: [subject, value, validFrom day] per accepted candidate. */
function read(text: string, at = JUNE, source: SourceKind = 'MESSAGE') {
  const { accepted, rejected } = validateCandidates(extractCandidates(text, source, at), text, source, at);
  return { got: accepted.map((c) => [c.subjectKey, c.value, c.validFrom?.toISOString().slice(0, 10) ?? null]), rejected: rejected.map((r) => r.reason) };
}

describe('the rules read free wording', () => {
  test('values end at the clause: "with my partner", "and", "because", punctuation', () => {
    assert.deepEqual(read('I live in Berlin with my partner and two cats.').got, [['user.residence', 'Berlin', null]]);
    assert.deepEqual(read('My name is Amara and I run a bakery.').got, [['user.name', 'Amara', null]]);
    assert.deepEqual(read('I prefer serif fonts because they feel calmer.').got, [['preference.typography', 'serif fonts', null]]);
    assert.deepEqual(read('Ich wohne in Hamburg mit meiner Freundin.').got, [['user.residence', 'Hamburg', null]]);
    assert.deepEqual(read("J'habite à Lyon avec mon compagnon.").got, [['user.residence', 'Lyon', null]]);
    assert.deepEqual(read('Vivo en Sevilla con mi pareja.').got, [['user.residence', 'Sevilla', null]]);
    assert.deepEqual(read('我住在杭州，和我的猫一起。').got, [['user.residence', '杭州', null]]);
    assert.deepEqual(read('福岡に住んでいます。').got, [['user.residence', '福岡', null]]);
  });

  test('moves, of the person and of the studio, with the date in the wording', () => {
    assert.deepEqual(read('We moved the studio to Hamburg last spring.').got, [['company.location', 'Hamburg', '2026-03-01']]);
    assert.deepEqual(read("These days I'm based out of Bruges.").got, [['user.residence', 'Bruges', null]]);
    assert.deepEqual(read('I relocated to York two weeks ago.').got, [['user.residence', 'York', '2026-05-27']]);
    assert.deepEqual(read('Wir sind letzten Monat nach Lübeck gezogen.').got, [['user.residence', 'Lübeck', '2026-05-01']]);
    assert.deepEqual(read("J'ai déménagé à Rennes le mois dernier.").got, [['user.residence', 'Rennes', '2026-05-01']]);
    assert.deepEqual(read('Me mudé a Valencia hace tres semanas.').got, [['user.residence', 'Valencia', '2026-05-20']]);
    assert.deepEqual(read('我上个月搬到了上海。').got, [['user.residence', '上海', '2026-05-01']]);
    assert.deepEqual(read('先月大阪に引っ越しました。').got, [['user.residence', '大阪', '2026-05-01']]);
    assert.deepEqual(read('スタジオを去年の春に横浜へ移転しました。').got, [['company.location', '横浜', '2025-03-01']]);
  });

  test('names and signatures', () => {
    assert.deepEqual(read('Hi, I’m Dario! Need a logo.').got, [['user.name', 'Dario', null]]);
    assert.deepEqual(read('Hey, call me Noor, everyone does.').got, [['user.name', 'Noor', null]]);
    assert.deepEqual(read('Ich heiße Lotte und mache Keramik.').got, [['user.name', 'Lotte', null]]);
    assert.deepEqual(read("Je m'appelle Camille et je dessine.").got, [['user.name', 'Camille', null]]);
    assert.deepEqual(read('Me llamo Lucía y tengo una librería.').got, [['user.name', 'Lucía', null]]);
    assert.deepEqual(read('我叫小林，是一名插画师。').got, [['user.name', '小林', null]]);
    assert.deepEqual(read('佐藤と申します。').got, [['user.name', '佐藤', null]]);
    assert.deepEqual(read('From now on sign everything as Studio Nord & Co.').got, [['user.signature', 'Studio Nord & Co', null]]);
    assert.deepEqual(read('Bitte unterschreib alles mit Atelier Grün.').got, [['user.signature', 'Atelier Grün', null]]);
    assert.deepEqual(read('署名都用「Studio Nord」。').got, [['user.signature', 'Studio Nord', null]]);
  });

  test('stops and starts: a stop is the preference\'s new value, a start with "from now on" is lasting', () => {
    assert.deepEqual(read("Honestly I'm done with pastel stuff.").got, [['preference.color', 'no pastel stuff', null]]);
    assert.deepEqual(read('No more neon colours, please, they look cheap.').got, [['preference.color', 'no neon colours', null]]);
    assert.deepEqual(read('Keine Pastellfarben mehr, bitte.').got, [['preference.color', 'no Pastellfarben', null]]);
    assert.deepEqual(read("J'en ai marre des couleurs pastel.").got, [['preference.color', 'no couleurs pastel', null]]);
    assert.deepEqual(read('Se acabó el neón.').got.map((g) => g[1]), ['no neón']);
    assert.deepEqual(read('From now on I want serif fonts.').got, [['preference.typography', 'serif fonts', null]]);
    assert.deepEqual(read('Going forward, I want matte finishes on everything.').got, [['preference.finish', 'matte finishes', null]]);
    assert.deepEqual(read('I want a poster with a whale.').got, [], 'a request without "from now on" is not a preference');
  });

  test('a brand fact changed is its new value', () => {
    assert.deepEqual(read('We switched our brand colour to coral last month.').got, [['brand.colors', 'coral', '2026-05-01']]);
    assert.deepEqual(read('We changed the brand font to Inter, it reads better.').got, [['brand.font', 'Inter', null]]);
    assert.deepEqual(read('Our new brand colour is forest green.').got, [['brand.colors', 'forest green', null]]);
    assert.deepEqual(read('Wir haben unsere Markenfarbe auf Grün umgestellt.').got, [['brand.colors', 'Grün', null]]);
    assert.deepEqual(read('Nous avons changé notre couleur de marque pour le vert.').got, [['brand.colors', 'vert', null]]);
    assert.deepEqual(read('Cambiamos nuestro color de marca a verde.').got, [['brand.colors', 'verde', null]]);
    assert.deepEqual(read('我们把品牌色换成了绿色。').got, [['brand.colors', '绿色', null]]);
    assert.deepEqual(read('ブランドカラーを緑に変更しました。').got, [['brand.colors', '緑', null]]);
  });

  test('one-off instructions are refused as temporary; a lasting clause beside one is kept', () => {
    for (const text of [
      'Just for this one flyer, use red.',
      'Nur für diesen Flyer bitte Rot nehmen.',
      'Pour cette affiche seulement, je préfère le rouge.',
      'Solo para este cartel, prefiero el rojo.',
      '这张海报就用红色吧，只这一次。',
      '今回のチラシだけ赤にしてください。',
      'From now on use red, just for this one flyer.',
    ]) {
      assert.deepEqual(read(text).got, [], text);
    }
    assert.deepEqual(read('From now on use red, just for this one flyer.').rejected, ['TEMPORARY']);
    assert.deepEqual(read('Use red just for this flyer, but in general I prefer muted palettes.').got, [['preference.color', 'muted palettes', null]]);
  });

  test('what the rules cannot read, questions, hedges and other people stay evidence only', () => {
    for (const text of [
      'Do I prefer serif fonts? I cannot decide.',
      "Maybe I'll move to Cologne next year.",
      "I'm thinking about moving to Lisbon at some point.",
      'My colleague lives in Hamburg.',
      "Our client's name is Jorge Ramos.",
      'The weather in Hamburg was lovely.',
      'Ich wohne nicht mehr in Köln.',
      '東京に住んでいません。',
      // Words of the classes used otherwise: a contract signed with someone, work one is done
      // with, a limit, a date moved, a visit.
      'Please sign the contract with Adobe.',
      'Unterschreib den Vertrag mit Adobe.',
      "I'm done with the poster, send it over.",
      "I'm done with it.",
      'No more than three colours please.',
      'No more changes, it is final.',
      'I moved the office party to Friday.',
      'I have been in Paris for the conference.',
    ]) {
      assert.deepEqual(read(text).got, [], text);
    }
  });

  test('dates in the wording are resolved against the message time', () => {
    const at = (s: string) => new Date(s);
    assert.equal(dateInWording('last spring', at('2026-06-10T00:00:00Z'))?.toISOString(), day('2026-03-01'));
    assert.equal(dateInWording('last spring', at('2026-04-10T00:00:00Z'))?.toISOString(), day('2025-03-01'), 'said in spring: the spring before');
    assert.equal(dateInWording('over the winter', at('2026-02-10T00:00:00Z'))?.toISOString(), day('2025-12-01'));
    assert.equal(dateInWording('since April', at('2026-06-20T00:00:00Z'))?.toISOString(), day('2026-04-01'));
    assert.equal(dateInWording('since October', at('2026-06-20T00:00:00Z'))?.toISOString(), day('2025-10-01'), 'the most recent October');
    assert.equal(dateInWording('seit März', at('2026-06-20T00:00:00Z'))?.toISOString(), day('2026-03-01'));
    assert.equal(dateInWording("l'été dernier", at('2026-11-02T00:00:00Z'))?.toISOString(), day('2026-06-01'));
    assert.equal(dateInWording('la primavera pasada', at('2026-07-01T00:00:00Z'))?.toISOString(), day('2026-03-01'));
    assert.equal(dateInWording('two weeks ago', at('2026-06-20T15:00:00Z'))?.toISOString(), day('2026-06-06'));
    assert.equal(dateInWording('vor drei Tagen', at('2026-06-20T15:00:00Z'))?.toISOString(), day('2026-06-17'));
    assert.equal(dateInWording('两周前', at('2026-06-20T15:00:00Z'))?.toISOString(), day('2026-06-06'));
    assert.equal(dateInWording('4月から', at('2026-06-20T15:00:00Z'))?.toISOString(), day('2026-04-01'));
    assert.equal(dateInWording('去年の春', at('2026-06-20T15:00:00Z'))?.toISOString(), day('2025-03-01'));
    assert.equal(dateInWording('I live in Bonn', at('2026-06-20T15:00:00Z')), undefined);
  });
});

/** A memory the model answers, with defaults. */
const mem = (m: Partial<ModelMemory>): ModelMemory => ({
  subject: 'user.residence',
  kind: 'FACT',
  scope: 'USER',
  value: 'Hamburg',
  origin: 'stated',
  duration: 'lasting',
  validFrom: null,
  evidence: 'We moved the studio to Hamburg last spring',
  confidence: null,
  ...m,
});
const answering = (memories: ModelMemory[]) => new StructuredScriptedModel(() => ({ toolCalls: [{ name: EXTRACTION_TOOL, args: { memories } }] }));

describe('the model extractor', () => {
  let db: Awaited<ReturnType<typeof createTestDatabase>>;
  let prisma: PrismaClient;
  let n = 0;
  before(async () => {
    db = await createTestDatabase('memextract');
    prisma = createPrisma(db.url);
  });
  after(async () => {
    await prisma.$disconnect();
    await db.drop();
  });

  async function user() {
    n++;
    const ws = await prisma.workspace.create({ data: { name: `mx${n}`, slug: `mx-${n}` } });
    const u = await prisma.user.create({ data: { email: `mx${n}@test.local`, name: `mx${n}` } });
    return { ws: ws.id, user: u.id };
  }
  async function say(who: { ws: string; user: string }, text: string, at: string, extractor?: CandidateSource, kind: SourceKind = 'MESSAGE') {
    const ev = await prisma.$transaction((tx) => recordEvidence(tx, { workspaceId: who.ws, userId: who.user, kind, text, occurredAt: new Date(at) }));
    return { ev, r: await extractEvidence({ prisma, extractor }, ev.id) };
  }

  test('it asks through structured output with the message time, and its dates become the validity', async () => {
    const model = answering([mem({ subject: 'company.location', scope: 'WORKSPACE', validFrom: '2026-03-01' })]);
    const extractor = createModelExtractor({ model, modelName: 'scripted-x' });
    assert.equal(extractor.version, 'model-1:scripted-x');
    const who = await user();
    await say(who, 'Our studio is in Bremen.', '2026-01-05T10:00:00Z');
    const { ev, r } = await say(who, 'We moved the studio to Hamburg last spring.', '2026-06-10T10:00:00Z', extractor);
    assert.equal(r.status, 'APPLIED');
    assert.deepEqual(model.receivedTools[0], [EXTRACTION_TOOL]);
    assert.match(String(model.received[0]![0]!.content), /Message time: 2026-06-10T10:00:00\.000Z/);
    const rec = await prisma.memoryExtraction.findMany({ where: { evidenceId: ev.id } });
    assert.deepEqual(rec.map((x) => x.extractorVersion), ['model-1:scripted-x']);
    const q = (asOf?: string) => retrieveMemories(prisma, { workspaceId: who.ws, userId: who.user, text: 'where is our studio?', asOf: asOf ? new Date(asOf) : undefined });
    assert.equal((await q())[0]?.value, 'Hamburg');
    assert.equal((await q('2026-04-15T00:00:00Z'))[0]?.value, 'Hamburg', 'in effect from last spring, not from the message');
    assert.equal((await q('2026-02-15T00:00:00Z'))[0]?.value, 'Bremen');
  });

  test('its candidates are validated one by one: unsupported, temporary, hedged, future and stated-from-observation answers are refused, the good one kept', async () => {
    const text = 'We moved the studio to Hamburg last spring. Just for this one flyer, use red. Maybe I will move to Kiel.';
    const model = answering([
      mem({ subject: 'company.location', scope: 'WORKSPACE' }),
      mem({ value: 'Atlantis', evidence: 'I live in Atlantis' }),
      mem({ subject: 'preference.color', kind: 'PREFERENCE', value: 'red', evidence: 'use red', duration: 'temporary' }),
      mem({ subject: 'brand.colors', kind: 'BRAND_RULE', scope: 'WORKSPACE', value: 'red', evidence: 'Just for this one flyer, use red' }),
      mem({ value: 'Kiel', evidence: 'Maybe I will move to Kiel' }),
      mem({ subject: 'user.name', value: 'Hamburg', validFrom: '2027-01-01' }),
    ]);
    const who = await user();
    const { r } = await say(who, text, '2026-06-10T10:00:00Z', createModelExtractor({ model, modelName: 'scripted-v' }));
    assert.equal(r.applied.length, 1);
    assert.deepEqual(r.rejected.map((x) => x.reason), ['UNSUPPORTED', 'TEMPORARY', 'TEMPORARY', 'UNSUPPORTED', 'UNSUPPORTED']);
    // A subject in another case and a date that is no day are read, not refused.
    const loose = await createModelExtractor({ model: answering([mem({ subject: ' User.Residence', validFrom: 'last spring' })]), modelName: 'scripted-l' }).extract('We moved the studio to Hamburg last spring.', 'MESSAGE', JUNE);
    const looseRead = validateCandidates(Array.isArray(loose) ? loose : loose.candidates, 'We moved the studio to Hamburg last spring.', 'MESSAGE', JUNE);
    assert.deepEqual(looseRead.accepted.map((c) => [c.subjectKey, c.value, c.validFrom]), [['user.residence', 'Hamburg', undefined]]);
    const obs = answering([mem({ value: 'Hamburg', evidence: 'The user set Hamburg as the shipping city' })]);
    const o = await say(who, 'The user set Hamburg as the shipping city', '2026-06-11T10:00:00Z', createModelExtractor({ model: obs, modelName: 'scripted-o' }), 'OBSERVATION');
    assert.deepEqual(o.r.rejected.map((x) => x.reason), ['ORIGIN_MISMATCH'], 'an inference never poses as a statement');
    assert.match(String(obs.received[0]![0]!.content), /observation/);
  });

  test('a failing model degrades to the rules, recorded under the rules\' version so the model is tried again', async () => {
    let fail = true;
    const model = new StructuredScriptedModel(() => {
      if (fail) throw new Error('model unavailable');
      return { toolCalls: [{ name: EXTRACTION_TOOL, args: { memories: [mem({ value: 'Leipzig', evidence: 'Ich bin nach Leipzig gezogen' })] } }] };
    });
    const extractor = createModelExtractor({ model, modelName: 'scripted-f' });
    const who = await user();
    const { ev, r } = await say(who, 'Ich bin nach Leipzig gezogen.', '2026-03-10T10:00:00Z', extractor);
    assert.equal(r.status, 'APPLIED');
    assert.equal(r.applied.length, 1, 'the rules read it');
    assert.deepEqual((await prisma.memoryExtraction.findMany({ where: { evidenceId: ev.id } })).map((x) => x.extractorVersion), [EXTRACTOR_VERSION]);
    // An answer outside the schema (no tool call) degrades the same way.
    const prose = new StructuredScriptedModel(() => ({ content: 'I found a residence: Leipzig.' }));
    const p = await createModelExtractor({ model: prose, modelName: 'scripted-p' }).extract('Ich bin nach Leipzig gezogen.', 'MESSAGE', new Date());
    assert.equal(Array.isArray(p) ? 'rules' : p.version, EXTRACTOR_VERSION);
    // Once the model answers again, the evidence it missed is extracted by it (a confirmation here).
    fail = false;
    const again = await extractPending({ prisma, extractor }, who.ws, who.user);
    assert.deepEqual(again.map((x) => [x.evidenceId, x.status, x.applied.map((a) => a.effect)]), [[ev.id, 'APPLIED', ['CONFIRMED']]]);
  });

  test('what the model extracted is forgotten with its source, and the same words are not learnt again', async () => {
    // Wording no rule reads: only the model's reading puts it in memory.
    const text = 'Put me down as Hamburg-based these days.';
    const extractor = createModelExtractor({ model: answering([mem({ value: 'Hamburg', evidence: 'Put me down as Hamburg-based these days' })]), modelName: 'scripted-e' });
    const who = await user();
    assert.deepEqual(extractCandidates(text, 'MESSAGE', JUNE), []);
    const { ev, r } = await say(who, text, '2026-06-10T10:00:00Z', extractor);
    assert.deepEqual(r.applied.map((a) => a.effect), ['CREATED']);
    const q = () => retrieveMemories(prisma, { workspaceId: who.ws, userId: who.user, text: 'where do I live?' });
    assert.equal((await q())[0]?.value, 'Hamburg');
    await prisma.$transaction((tx) => forgetEvidenceNow(tx, { workspaceId: who.ws, evidenceId: ev.id }));
    assert.deepEqual(await q(), []);
    assert.equal(await prisma.memoryVersion.count({ where: { memory: { workspaceId: who.ws }, value: { contains: 'Hamburg' } } }), 0, 'no version keeps the value');
    const again = await say(who, text, '2026-06-12T10:00:00Z', extractor);
    assert.equal(again.r.status, 'SUPPRESSED');
    assert.deepEqual(await q(), []);
  });

  test('the real ChatOpenAI client against the local stub: the record_memories tool out, its call back in', async () => {
    const stub = await startOpenAIStub((body) => ({
      role: 'assistant',
      content: null,
      tool_calls: [
        toolCall('c1', body.tools![0]!.function.name, {
          memories: [mem({ value: 'Berlin', evidence: 'I live in Berlin with my partner', validFrom: null, confidence: 0.8 }), mem({ subject: 'user.name', value: 'Amara', evidence: 'My name is Amara' })],
        }),
      ],
    }));
    try {
      const model = new ChatOpenAI({ model: 'stub-router', apiKey: 'sk-test', configuration: { baseURL: stub.baseUrl }, maxRetries: 0 });
      const extractor = createModelExtractor({ model, modelName: 'stub-router' });
      const who = await user();
      const { ev, r } = await say(who, 'My name is Amara and I live in Berlin with my partner.', '2026-06-10T10:00:00Z', extractor);
      assert.equal(stub.requests.length, 1);
      const req = stub.requests[0]!;
      assert.equal(req.model, 'stub-router');
      assert.deepEqual(req.tools?.map((t) => t.function.name), [EXTRACTION_TOOL]);
      assert.match(JSON.stringify(req.tools![0]!.function.parameters), /"validFrom"/);
      assert.match(String(req.messages[0]!.content), /Message time: 2026-06-10/);
      assert.equal(req.messages.at(-1)!.content, 'My name is Amara and I live in Berlin with my partner.');
      assert.deepEqual(
        r.applied.map((a) => a.effect),
        ['CREATED', 'CREATED'],
      );
      assert.deepEqual((await prisma.memoryExtraction.findMany({ where: { evidenceId: ev.id } })).map((x) => x.extractorVersion), ['model-1:stub-router']);
      const found = await retrieveMemories(prisma, { workspaceId: who.ws, userId: who.user, text: 'where do I live?' });
      assert.equal(found[0]?.value, 'Berlin');
    } finally {
      await stub.close();
    }
  });
});

describe('the app', () => {
  test('with a model configured, its extraction goes through the model (the router model), offline through the rules', async () => {
    const stub = await startOpenAIStub((body) =>
      body.tools?.[0]?.function.name === EXTRACTION_TOOL
        ? { role: 'assistant', content: null, tool_calls: [toolCall('m1', EXTRACTION_TOOL, { memories: [mem({ subject: 'company.location', scope: 'WORKSPACE' })] })] }
        : { role: 'assistant', content: 'ok' },
    );
    const t = await startTestApp('memmodelapp', { openai: { apiKey: 'sk-test', baseUrl: stub.baseUrl, routerModel: 'stub-router', workerModel: 'stub-worker' } });
    try {
      const deps = t.app.deps.memory;
      assert.equal(deps.extractor?.version, 'model-1:stub-router');
      const text = 'We moved the studio to Hamburg last spring.';
      const ev = await t.app.deps.prisma.$transaction((tx) => recordEvidence(tx, { workspaceId: t.a.workspaceId, userId: t.a.ownerId, kind: 'MESSAGE', text, occurredAt: JUNE }));
      const r = await extractEvidence(deps, ev.id);
      assert.deepEqual(r.applied.map((a) => a.effect), ['CREATED']);
      const req = stub.requests.find((b) => b.tools?.[0]?.function.name === EXTRACTION_TOOL);
      assert.equal(req?.model, 'stub-router');
      assert.deepEqual((await t.app.deps.prisma.memoryExtraction.findMany({ where: { evidenceId: ev.id } })).map((x) => x.extractorVersion), ['model-1:stub-router']);
    } finally {
      await t.close();
      await stub.close();
    }
    const offline = await startTestApp('memrulesapp');
    try {
      assert.equal(offline.app.deps.memory.extractor, undefined, 'the rules');
    } finally {
      await offline.close();
    }
  });
});

test('a question states nothing, in any wording or language: nothing is extracted from it', () => {
  for (const q of ['wie unterschreibst du?', 'I live in Berlin?', 'comment est-ce que tu signes ?', '¿cómo firmas?', '你用什么签名', '署名は何にしている', 'our brand colour is teal?', 'ab jetzt unterschreibst du alles mit Studio Nord?']) {
    assert.deepEqual(extractCandidates(q), [], q);
  }
  // The statements themselves are read.
  assert.equal(extractCandidates('ab jetzt unterschreibst du alles mit Studio Nord').length, 1);
});
