// The router's language layer, pure: named days in six languages become spans of days, the creative
// vocabulary meets across languages, typos and shortened words still meet, ordinals are numbers,
// and the offline router turns casual commands, status questions, greetings, lasting facts, quick
// one-offs and next editions into routes with intents and seeds (a few sentences per language;
// the evaluation sets measure the rest).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { dateSpans } from '../server/routing/dates.ts';
import { likelyDuplicate, routeOffline } from '../server/routing/offline-router.ts';
import { clientNames, concepts, editDistance, features, normalize, overlap } from '../server/routing/text.ts';
import { ORGANISATION } from '../server/routing/cues.ts';
import type { TaskIndexEntry } from '../server/routing/types.ts';

const NOW = new Date('2026-12-02T15:00:00Z'); // a Wednesday
const H = 3600_000;
const day = (d: Date) => d.toISOString().slice(0, 10);

test('named days in six languages are spans of days before now', () => {
  const span = (text: string) => dateSpans(normalize(text), NOW).spans.map((s) => [day(s.from), day(s.to)]);
  for (const t of ['the one from yesterday', 'das von gestern', "l'affiche d'hier", 'el de ayer', '昨天那个', '昨日のもの']) {
    assert.deepEqual(span(t), [['2026-12-01', '2026-12-02']], t);
  }
  for (const t of ['the video from monday', 'das Video vom Montag', 'la vidéo de lundi', 'el vídeo del lunes', '周一的视频', '月曜の動画']) {
    assert.deepEqual(span(t), [['2026-11-30', '2026-12-01']], t);
  }
  for (const t of ['last week', 'letzte Woche', 'la semaine dernière', 'la semana pasada', '上周', '先週']) {
    assert.deepEqual(span(t), [['2026-11-23', '2026-11-30']], t);
  }
  assert.deepEqual(span('on wednesday'), [['2026-11-25', '2026-11-26']], 'the same weekday as today: a week ago');
  assert.deepEqual(span('hier noch die Rückwand'), [], 'German "hier" (here) is no day');
  assert.equal(dateSpans(normalize('the video from tuesday: captions'), NOW).rest, 'the video from captions');
});

test('the creative vocabulary meets across languages, and typos, shortenings and ordinals still meet', () => {
  for (const t of ['poster', 'Plakat', 'affiche', 'cartel', '海报', 'ポスター', 'Sommerfest-Plakate', 'Radrennplakat']) assert.ok(concepts(t).has('poster'), t);
  for (const t of ['video', 'Video', 'vidéo', 'vídeo', '视频', '動画', 'Hochzeitsvideo']) assert.ok(concepts(t).has('video'), t);
  for (const t of ['icon', 'Icon', 'icône', 'icono', '图标', 'アイコン']) assert.ok(concepts(t).has('icon'), t);
  assert.ok(!concepts('a video call at ten').has('video'), 'a video call is a meeting');
  assert.equal(editDistance('kestral', 'kestrel'), 1);
  assert.equal(editDistance('vidoe', 'video'), 1, 'a transposition is one edit');
  assert.ok(overlap(features('kestral lables'), features('Kestrel Brewing labels')) > 0.6);
  assert.ok(overlap(features('la vidéo tuto'), features('Vidéo tutoriel application')) > 0.6, 'a shortened word');
  assert.ok(features('the second poster').has('#2') && features('poster 2 — croissant').has('#2'));
  assert.ok(features('第二张海报').has('#2') && features('2枚目のポスター').has('#2'));
  assert.ok(!features('a 30-second teaser').has('#2') && !features('a 20-page report').has('#20'), 'lengths are not positions');
});

function entry(taskId: string, title: string, o: Partial<TaskIndexEntry> & { hoursAgo?: number } = {}): TaskIndexEntry {
  const last = new Date(NOW.getTime() - (o.hoursAgo ?? 30) * H);
  return { taskId, title, goal: title, summary: '', status: 'RUNNING', kind: 'PERSISTENT', language: 'en', lastActivityAt: last, createdAt: last, objects: [], results: [], retrieval: 0, ...o };
}

test('casual commands, status questions, greetings, facts, one-offs and next editions become routes with intents and seeds', () => {
  const index = [
    entry('deck', 'Board presentation slides', { hoursAgo: 3 }),
    entry('clip', 'Greenhouse tour video', { hoursAgo: 40 }),
    entry('logo', 'Bakery logo', { status: 'PAUSED', hoursAgo: 200 }),
    entry('fair', 'Book fair poster 2026', { status: 'COMPLETED', hoursAgo: 500, endedAt: new Date(NOW.getTime() - 500 * H), results: ['book fair poster A2 (final)'] }),
  ];
  const route = (text: string) => routeOffline(text, index, NOW);
  const expect = (text: string, outcome: string, taskId: string | null, intent?: string, seed?: string) => {
    const d = route(text);
    assert.deepEqual([d.outcome, d.taskId, d.intent, d.seedTaskId], [outcome, taskId, intent, seed], `${text}: ${d.reason}`);
  };
  for (const t of ['cancel the presentation', 'brich die Präsentation ab', 'annule la présentation', 'cancela la presentación', '演示文稿取消吧', 'スライドは中止で']) expect(t, 'EXISTING_TASK', 'deck', 'CANCEL');
  for (const t of ['pause the greenhouse video', 'das Video bitte pausieren', 'mets la vidéo en pause', 'pon el vídeo en pausa', '视频先暂停', '動画を一時停止して']) expect(t, 'EXISTING_TASK', 'clip', 'PAUSE');
  for (const t of ['resume the bakery logo', 'beim Bäckerei-Logo weitermachen', 'reprends le logo de la boulangerie', 'reanuda el logo de la panadería']) expect(t, 'EXISTING_TASK', 'logo', 'RESUME');
  for (const t of ["how's the greenhouse video going", 'wie weit ist das Video', 'où en est la vidéo', 'cómo va el vídeo', '视频做到哪了', '動画の進捗は？']) expect(t, 'EXISTING_TASK', 'clip', 'STATUS');
  expect("don't stop the music in the video, just lower it", 'EXISTING_TASK', 'clip');
  expect('stop using red in the greenhouse video', 'EXISTING_TASK', 'clip');
  for (const t of ['hey', 'Moin!', 'Salut !', '¡Buenas!', '你好', 'おはようございます']) expect(t, 'ANSWER', null);
  for (const t of ['remember that our brand colour is teal', 'Merk dir: unsere Hausschrift ist Futura', 'Recuerda que nuestra tipografía es Inter', '记住，我们的品牌色是蓝色']) {
    expect(t, 'ANSWER', null, 'REMEMBER');
  }
  for (const t of ['can you make me a quick icon of a kite', 'mach mir schnell ein Icon mit einem Drachen', '¿me haces un icono rápido de una cometa?', '快速做个风筝图标', 'ちょっと凧のアイコン作って']) {
    assert.equal(route(t).outcome, 'LIGHTWEIGHT_TASK', t);
  }
  for (const t of ["let's do the 2027 book fair poster", "next year's book fair poster, same look"]) expect(t, 'NEW_TASK', null, undefined, 'fair');
});

test("another client's request is new work, even of a kind a task has; new work modelled on a finished task is seeded from it", () => {
  const index = [
    entry('boards', 'Harbour Bakery menu boards', { status: 'COMPLETED', hoursAgo: 150, endedAt: new Date(NOW.getTime() - 150 * H), results: ['board 1 — breads'] }),
    entry('promo', 'Northwind Yoga promo video', { hoursAgo: 5 }),
    entry('plakat', 'Plakat Bäckerei Sonnenschein', { status: 'COMPLETED', hoursAgo: 90, endedAt: new Date(NOW.getTime() - 90 * H) }),
  ];
  const route = (text: string) => routeOffline(text, index, NOW);
  const expect = (text: string, outcome: string, taskId: string | null, seed?: string) => {
    const d = route(text);
    assert.deepEqual([d.outcome, d.taskId, d.seedTaskId], [outcome, taskId, seed], `${text}: ${d.reason}`);
  };
  // A client no task knows, in four languages: new work, not the task of the same kind.
  for (const t of [
    'Juniper Climbing Gym wants a promo video for their reopening',
    'Die Metzgerei Huber braucht ein Plakat zum Jubiläum',
    'La boulangerie Dufour voudrait aussi une vidéo promo',
    'La panadería Sol necesita una vídeo promocional corto',
  ]) expect(t, 'NEW_TASK', null);
  // Modelled on the finished boards: seeded from them.
  expect('Saltmarsh Coffee wants menu boards in the same style as the Harbour Bakery ones', 'NEW_TASK', null, 'boards');
  // The client a task already has, with a change: that task.
  expect('Northwind Yoga wants the intro of the promo video shorter', 'EXISTING_TASK', 'promo');
  // Capitalised words that are no client: languages, and verbs that end like a place ("hochgeladen").
  expect('add captions in English and Welsh to the Northwind promo video', 'EXISTING_TASK', 'promo');
  assert.deepEqual(clientNames('Für den Film hab ich neue Aufnahmen hochgeladen, bau die bitte ein.', (w) => ORGANISATION.test(w)), []);
  assert.deepEqual(clientNames('Die Brauerei Hirschberg und die escuela de baile Compás', (w) => ORGANISATION.test(w)).sort(), ['compas', 'hirschberg']);
});

test('a whole request for new things of the same sort as a running task is new work, and is not taken for a duplicate of it', () => {
  const index = [
    entry('cinema', 'Trois affiches pour un festival de cinéma', { language: 'fr', hoursAgo: 2 }),
    entry('film', 'Three posters for the film festival', { hoursAgo: 3 }),
  ];
  for (const t of ['Crée trois affiches rétro pour un festival de jazz', 'Design two posters for a poetry festival']) {
    const d = routeOffline(t, index, NOW);
    assert.deepEqual([d.outcome, d.taskId], ['NEW_TASK', null], `${t}: ${d.reason}`);
    assert.equal(likelyDuplicate(t, index, NOW), null, t);
  }
  // What the work is for differs ("pour un festival de jazz" against "for a coffee brand"): new work.
  const coffee = [entry('coffee', 'make three retro posters for a coffee brand', { status: 'WAITING', hoursAgo: 0.1 })];
  assert.deepEqual([routeOffline('Crée trois affiches rétro pour un festival de jazz', coffee, NOW).outcome, likelyDuplicate('Crée trois affiches rétro pour un festival de jazz', coffee, NOW)], ['NEW_TASK', null]);
  assert.equal(routeOffline('make the second coffee poster warmer', coffee, NOW).taskId, 'coffee');
  assert.equal(routeOffline('make a poster for the coffee brand with a cup', coffee, NOW).taskId, 'coffee');
  // More of the same festival's posters, or a change to one: the running task.
  assert.equal(routeOffline('Make two more posters for the film festival', index, NOW).taskId, 'film');
  assert.equal(likelyDuplicate('Three posters for the film festival, please', index, NOW)?.taskId, 'film');
});

test('a request for another kind of work that shares only a word of size or quality with a finished task is new work', () => {
  const index = [entry('waves', 'make a short video of ocean waves at sunset', { status: 'COMPLETED', hoursAgo: 1, endedAt: new Date(NOW.getTime() - H) })];
  for (const t of ['compose a short jingle for a radio spot', 'Komponiere ein kurzes Lied für den Geburtstag meiner Tochter.', 'make a short logo animation']) {
    const d = routeOffline(t, index, NOW);
    assert.deepEqual([d.outcome, d.taskId], ['NEW_TASK', null], `${t}: ${d.reason}`);
  }
  assert.equal(routeOffline('make the ocean waves video shorter', index, NOW).taskId, 'waves');
});
