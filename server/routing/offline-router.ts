// The offline router: useful without any model. Deterministic rules and lexical retrieval over the
// bounded task index, reading each task's title, brief, summary, results and object names and its
// dates. It prefers CLARIFY to a guess whenever two candidates are close: routing a message into
// the wrong task is the costly error. Pure.
//
// In order: a casual signal for a task ("stop the PPT"), a status question ("where's the video
// at"), greetings and thanks, a lasting fact ("our brand colour is teal"), a quick one-off ("a
// quick icon"), next year's edition of earlier work (a new task seeded from it), a follow-up to
// archived work (likewise), questions, a clear match, close candidates, the kind of work named
// ("the posters": the one task of that kind, or which of several?), a reference to recent work
// ("make that one blue"), then continuations and new work. Scores weigh a word by how few tasks
// of the index have it, and a word no task has (what to do, not which work) counts less.
import {
  APP_QUESTION,
  CANCEL,
  COUNTED_OBJECT,
  CREATE_CJK,
  CREATE_VERB,
  CUE_WORDS,
  DEICTIC,
  EARLIER_QUESTION,
  FACT_QUESTION,
  GREETING,
  INDEFINITE_OBJECT,
  NEW_WORK,
  NEXT_EDITION,
  PAUSE,
  PROJECT,
  QUESTION_START,
  QUICK,
  REMEMBER,
  RESUME,
  SMALL_ITEM,
  ORGANISATION,
  SIMILAR,
  SMALL_TALK,
  STATUS,
  THANKS,
  WANT,
} from './cues.ts';
import { detectLanguage } from '../domain/language.ts';
import { dateSpans, inSpans, type DateSpan } from './dates.ts';
import { CJK, clientNames, conceptOfFeature, features, stem, isTypeFeature, kindQualifiers, normalize, overlap, shortFor, typoOf, wordCount } from './text.ts';
import type { Candidate, RouteDecision, RouteIntent, TaskIndexEntry } from './types.ts';

// Thresholds on the score (0..1), chosen on the development set test/eval/routing-cases.json with
// the wrong-task rate as the first objective. Never tune them, or any word list (cues.ts, text.ts),
// on the held-out sets (test/eval/routing-heldout*.json): they measure what this router does on
// words it was not fitted to.
const STRONG = 0.42;
const MARGIN = 0.15;
const WEAK = 0.25;
/** A signal or status question names its task with fewer words: a lower bar, the same care for close ones. */
const NAMED = 0.18;
/** A task whose dates fall on the day or week the message names. */
const DATE_BONUS = 0.2;
const RECENT_MS = 6 * 3600_000;

const has = (re: RegExp, s: string) => re.test(s);
/**
 * Words of size, age and quality ("a short jingle" against "a short video"): they describe any work,
 * so sharing one does not name a task. Stemmed like features.
 */
const GENERIC = new Set(
  ['short', 'long', 'quick', 'simple', 'small', 'big', 'large', 'little', 'new', 'old', 'nice', 'good', 'great', 'cool', 'final', 'kurz', 'kurze', 'lang', 'klein', 'kleine', 'gross', 'grosse', 'neu', 'neue', 'court', 'courte', 'petit', 'petite', 'grand', 'grande', 'nouveau', 'nouvelle', 'corto', 'corta', 'largo', 'larga', 'pequeno', 'pequena', 'nuevo', 'nueva'].flatMap((w) => [w, stem(w)]),
);
/** "One for their spa", "eine für", "une pour", "uno para": another of the same, for something else. */
const ONE_FOR = /\b(one|ones) for\b|\b(eine[ns]?|welche) fur\b|\b(une?|des) pour\b|\b(uno|una|unos|unas) para\b|(一个给|一套给|用の)/u;
/** "Make it orange": a pronoun for earlier work (articles such as "die", "das" are not). */
const PRONOUN = /\b(it|them|that one|this one|the same)\b|它|それ|これ|あれ/u;
/** "Go on with it" in a clause: a request to the task, whatever else the message asks. */
const GO_ON = /\b(continue|go on|weiter|weitermachen|continu\w*|sigue|seguimos)\b|继续|接着|続けて|続き/u;
const LIVE = ['QUEUED', 'RUNNING', 'WAITING', 'PAUSED'];
const isLive = (e: TaskIndexEntry) => LIVE.includes(e.status);

/** The words a task is known by: title, brief, summary, object names and results. */
function taskFeatures(e: TaskIndexEntry): Set<string> {
  return features(`${e.title} ${e.goal} ${e.summary} ${e.objects.join(' ')} ${(e.results ?? []).join(' ')}`);
}

/** The words a task is named by: its title, object names and results (not its brief or summary). */
function nameFeatures(e: TaskIndexEntry): Set<string> {
  return features(`${e.title} ${e.objects.join(' ')} ${(e.results ?? []).join(' ')}`);
}

/** `named`: the message meets the task's name (title, objects, results), not only words of its brief. */
type Scored = Candidate & { entry: TaskIndexEntry; lexical: number; dated: boolean; named: boolean; hits: number; kinds: Set<string> };

/**
 * Every entry scored against the text. `relative`: words no task of the index has count less and
 * words many tasks share tell them apart less (routing among the index); without it every word
 * counts alike (the duplicate check, which compares a request with each running task as it is).
 */
function scoreAll(text: string, spans: DateSpan[], index: TaskIndexEntry[], now: Date, relative = true): Scored[] {
  const msg = features(text);
  const tasks = index.map((e) => taskFeatures(e));
  // How many tasks of the index have each feature.
  const counts = new Map<string, number>();
  for (const f of tasks.flatMap((t) => [...t])) counts.set(f, (counts.get(f) ?? 0) + 1);
  const known = relative ? counts : undefined;
  return index
    .map((e, i) => {
      const lexical = overlap(msg, tasks[i]!, known);
      const dated = spans.length > 0 && inSpans([e.createdAt, e.lastActivityAt, e.endedAt], spans);
      // A named day counts for a task the message also speaks of, or when it says little else ("the one from tuesday").
      const date = dated && (lexical > 0 || msg.size <= 2) ? DATE_BONUS : 0;
      const recent = now.getTime() - e.lastActivityAt.getTime() < 24 * 3600_000 ? 0.03 : 0;
      const live = isLive(e) ? 0.02 : 0;
      // Embedding similarity counts from 0.3 (unrelated texts of one domain) to 0.8 (same work).
      const semantic = e.semantic !== undefined ? Math.max(0, Math.min(1, (e.semantic - 0.3) / 0.5)) * 0.8 : 0;
      const base = Math.max(0.85 * lexical + 0.15 * Math.min(1, e.retrieval), semantic);
      const names = nameFeatures(e);
      // Named: a word of the message (not only the kind of work: "poster", "video") is in the task's name.
      const named = lexical > 0 && [...msg].some((f) => !isTypeFeature(f) && !GENERIC.has(f) && (names.has(f) || typoOf(f, names) || shortFor(f, names)));
      // How many words of the message, beyond the kind of work, the task has.
      const hits = [...msg].filter((f) => !isTypeFeature(f) && tasks[i]!.has(f)).length;
      const kinds = new Set([...tasks[i]!].filter((f) => f.startsWith('§')));
      return { taskId: e.taskId, title: e.title, score: Math.min(1, base + date + recent + live), entry: e, lexical, dated, named, hits, kinds };
    })
    .sort((a, b) => b.score - a.score || a.title.localeCompare(b.title));
}

export function scoreCandidates(text: string, index: TaskIndexEntry[], now: Date, relative = true): Candidate[] {
  const { spans, rest } = dateSpans(normalize(text), now);
  return scoreAll(rest, spans, index, now, relative).map(({ taskId, title, score }) => ({ taskId, title, score }));
}

const plain = (c: Scored): Candidate => ({ taskId: c.taskId, title: c.title, score: c.score });

/** The one task a short message names, when it stands clearly ahead of the next. */
function named(scored: Scored[], min = NAMED): Scored | 'close' | null {
  const [best, second] = scored;
  if (!best || best.score < min) return null;
  if (second && second.score >= min && best.score - second.score < Math.min(MARGIN, best.score / 3)) return 'close';
  return best;
}

/** The cue a signal is given with, unless negated ("don't stop the music"). */
function signalOf(n: string): { intent: RouteIntent; cue: string } | null {
  for (const [intent, re] of [['PAUSE', PAUSE], ['CANCEL', CANCEL], ['RESUME', RESUME]] as const) {
    const m = n.match(re);
    if (!m) continue;
    const before = n.slice(0, m.index).trim().split(' ').slice(-2).join(' ');
    if (/\b(don t|dont|do not|never|nicht|kein|ne|pas|no)$/.test(before) || /(不要|别|しないで)$/.test(before)) continue;
    // "Stop using red", "arrête d'ajouter": an instruction about the work, not a signal for a task.
    const after = n.slice(m.index! + m[0].length).trim().split(' ')[0] ?? '';
    if (intent === 'CANCEL' && (/^\w{2,}ing$/.test(after) || (/^(arrete|arreter|stoppe)$/.test(m[0]) && /^(de|d)$/.test(after)))) continue;
    return { intent, cue: m[0] };
  }
  return null;
}

const YEAR = /(?<![\d])(19|20)\d\d(?![\d])/g;

/** A year the message names that comes after every year of the task ("the 2027 gala" for the 2026 one). */
function laterYear(n: string, e: TaskIndexEntry): boolean {
  const taskText = `${e.title} ${e.goal} ${e.summary} ${(e.results ?? []).join(' ')}`;
  const taskYears = (taskText.match(YEAR) ?? []).map(Number);
  const years = (n.match(YEAR) ?? []).map(Number).filter((y) => !taskYears.includes(y));
  if (!years.length) return false;
  return taskYears.length ? years.some((y) => y > Math.max(...taskYears)) : !isLive(e);
}

/** New work: a new-work cue, or a year the task does not mention (next year's edition of a report). */
function announcesNewWork(n: string, e: TaskIndexEntry): boolean {
  if (NEW_WORK.test(n) || NEXT_EDITION.test(n)) return true;
  const taskText = `${e.title} ${e.goal} ${e.summary}`;
  return (n.match(YEAR) ?? []).some((y) => !taskText.includes(y));
}

/**
 * The message and the task's name speak of the same thing with different words beside it: "a jazz
 * festival" against "a film festival", "Plakate für einen Flohmarkt" against "Plakate für den
 * Stadtlauf". Another thing of the same sort, not this task.
 */
function differs(text: string, e: TaskIndexEntry): boolean {
  const seq = (t: string) => [...features(normalize(t).replace(COUNT_WORDS, ' '))].filter((f) => !f.startsWith('§') && !f.startsWith('#') && !/^\d+$/.test(f));
  const msg = seq(text);
  const title = seq(e.title);
  const task = taskFeatures(e);
  const msgSet = new Set(msg);
  // Character pairs of Chinese or Japanese have no neighbours that mean anything here.
  if (CJK.test(text)) return false;
  const kind = (f: string) => isTypeFeature(f) || !!conceptOfFeature(f);
  const kinds = new Set(msg.map(conceptOfFeature).filter(Boolean));
  const beside = (s: string[], i: number) => [s[i - 1], s[i + 1]].filter((f): f is string => !!f);
  // What the work is for ("posters for a jazz festival" against "posters for a coffee brand"): each
  // names what it is for with a word the other does not have.
  const own = (ws: string[]) => ws.filter((w) => !COUNT_STEMS.has(w));
  const mineFor = own([...kindQualifiers(text), ...purposeOf(text)]).filter((w) => !task.has(w) && !typoOf(w, task));
  const theirsFor = own([...kindQualifiers(e.title), ...purposeOf(e.title)]).filter((w) => !msgSet.has(w) && !typoOf(w, msgSet));
  if (mineFor.length && theirsFor.length) return true;
  return msg.some((head, i) => {
    if (kind(head) || !title.includes(head)) return false;
    // Mine: a word of the message's own beside it. Theirs: a word of the name the message does not
    // have — a kind of work counts when the message names no work of that kind ("film festival").
    const mine = beside(msg, i).some((f) => !kind(f) && !task.has(f) && !typoOf(f, task));
    const theirs = beside(title, title.indexOf(head)).some((f) => !msgSet.has(f) && !typoOf(f, msgSet) && (!kind(f) || !kinds.has(conceptOfFeature(f))));
    return mine && theirs;
  });
}
/**
 * What a request is for, after "for / für / pour / para" ("trois affiches rétro pour un festival de
 * jazz" → festival, jazz): up to three words of its own, stemmed like features.
 */
function purposeOf(text: string): string[] {
  const words = normalize(text).split(' ').filter((w) => w && !CJK.test(w));
  const at = words.findIndex((w) => /^(for|fur|pour|para)$/.test(w));
  if (at < 0) return [];
  return [...features(words.slice(at + 1, at + 6).join(' '))].filter((f) => !f.startsWith('§') && !f.startsWith('#') && !isTypeFeature(f) && !conceptOfFeature(f)).slice(0, 3);
}
const COUNT_LIST = 'one two three four five six seven eight nine ten twelve eins zwei drei vier funf sechs acht zehn un une deux trois quatre cinq six huit dix uno una dos tres cuatro cinco seis ocho diez'.split(' ');
const COUNT_STEMS = new Set(COUNT_LIST.flatMap((w) => [w, stem(w)]));
const COUNT_WORDS = /\b(one|two|three|four|five|six|seven|eight|nine|ten|twelve|eins|zwei|drei|vier|funf|sechs|acht|zehn|un|une|deux|trois|quatre|cinq|six|huit|dix|uno|una|dos|tres|cuatro|cinco|seis|ocho|diez)\b/g;

export function routeOffline(text: string, index: TaskIndexEntry[], now = new Date()): RouteDecision {
  const n = normalize(text);
  // The one task of a kind is only taken without a word of its own across languages (出口目录 → the
  // export catalogue): in its own language its words would be there ("the autumn posters" is not
  // the spring ones).
  const language = detectLanguage(text).language;
  const otherLanguage = (e: TaskIndexEntry) => !!e.language && language !== 'und' && e.language !== language;
  // "The video" names the one video; "the autumn fair posters" does not name the spring posters.
  const qualifiers = kindQualifiers(text);
  const unqualified = (c: Scored) => qualifiers.every((q) => features(`${c.entry.title} ${c.entry.goal} ${c.entry.summary}`).has(q));
  const { spans, rest } = dateSpans(n, now);
  const words = wordCount(text);
  const all = scoreAll(rest, spans, index, now);
  const routable = all.filter((c) => !c.entry.archived);
  const top = routable.slice(0, 3).map(plain);
  const [best, second] = routable;
  const creative = has(CREATE_VERB, n) || has(CREATE_CJK, n);
  const decide = (outcome: RouteDecision['outcome'], reason: string, extra: Partial<RouteDecision> = {}): RouteDecision => ({
    outcome,
    method: 'RETRIEVAL',
    taskId: null,
    candidates: top,
    reason,
    ...extra,
  });
  const trimmed = text.trim();
  const question = trimmed.endsWith('?') || trimmed.endsWith('？') || has(QUESTION_START, n);
  // The clauses of the message: a cue in one clause and a request in another is a request.
  const clauses = trimmed.split(/[.!?。！？;；,，、\n]+/u).map((c) => normalize(c)).filter(Boolean);
  const requestBeside = (cue: RegExp) =>
    clauses.some((c) => !cue.test(c) && (has(CREATE_VERB, c) || has(CREATE_CJK, c) || has(GO_ON, c)) && wordCount(c) > 2);
  // What names the task once the cue's own words are out ("stop the PPT" → "the PPT").
  const nameText = rest.replace(CUE_WORDS, ' ').replace(/\s+/g, ' ').trim();
  const recentOpen = () =>
    index
      .filter((e) => !e.archived && now.getTime() - e.lastActivityAt.getTime() < RECENT_MS && e.status !== 'CANCELLED')
      .sort((a, b) => b.lastActivityAt.getTime() - a.lastActivityAt.getTime());
  const recentLive = () =>
    index
      .filter((e) => !e.archived && isLive(e) && now.getTime() - e.lastActivityAt.getTime() < RECENT_MS)
      .sort((a, b) => b.lastActivityAt.getTime() - a.lastActivityAt.getTime());

  // A casual signal for one task: "stop the PPT", "pausier das Erklärvideo", "retoma el folleto".
  const signal = words <= 16 && !has(/^(why|warum|pourquoi|por que|为什么|なぜ)\b/u, n) ? signalOf(n) : null;
  if (signal) {
    const scored = scoreAll(nameText, spans, index.filter((e) => !e.archived), now);
    // Stopping or pausing is for live work; a live task named is preferred to a finished one.
    const pool = signal.intent === 'RESUME' ? scored : scored.filter((c) => isLive(c.entry)).length ? scored.filter((c) => isLive(c.entry) || c.score >= STRONG) : scored;
    const target = named(pool);
    if (target && target !== 'close') {
      // A finished task is not resumed: the message goes to it and continues it as a next round.
      const resumeFinished = signal.intent === 'RESUME' && !isLive(target.entry);
      return decide('EXISTING_TASK', `${resumeFinished ? 'continue' : signal.intent.toLowerCase()} "${target.title}" (score ${target.score.toFixed(2)})`, {
        taskId: target.taskId,
        ...(resumeFinished ? {} : { intent: signal.intent }),
        candidates: pool.slice(0, 3).map(plain),
      });
    }
    if (target === 'close') {
      return decide('CLARIFY', `${signal.intent.toLowerCase()}: "${pool[0]!.title}" and "${pool[1]!.title}" match about equally`, {
        intent: signal.intent,
        candidates: pool.slice(0, 3).map(plain),
      });
    }
    if (words <= 6) {
      const recent = recentLive();
      if (recent.length === 1) {
        return decide('EXISTING_TASK', `${signal.intent.toLowerCase()} the only recently active task "${recent[0]!.title}"`, { taskId: recent[0]!.taskId, intent: signal.intent });
      }
      if (recent.length > 1) {
        return decide('CLARIFY', `${signal.intent.toLowerCase()}: ${recent.length} tasks are active`, {
          intent: signal.intent,
          candidates: recent.slice(0, 3).map((e) => ({ taskId: e.taskId, title: e.title, score: 0 })),
        });
      }
    }
  }

  // A status question, alone ("where's the video at", "wie weit ist das Logo", "宣传视频做到哪了"): to
  // the task it names, answered from its state without waking it; about several or none, the
  // main thread answers. With a request beside it, it is task work (below).
  const status = n.match(STATUS);
  if (status && !requestBeside(STATUS)) {
    const scored = scoreAll(nameText, spans, index.filter((e) => !e.archived), now);
    const target = named(scored);
    if (target && target !== 'close') {
      return decide('EXISTING_TASK', `status of "${target.title}" (score ${target.score.toFixed(2)})`, { taskId: target.taskId, intent: 'STATUS', candidates: scored.slice(0, 3).map(plain) });
    }
    // Several tasks fit: each is answered (the candidates); none: the work as a whole.
    if (target === 'close') return decide('ANSWER', 'a status question about several tasks', { intent: 'STATUS', candidates: scored.filter((c) => c.score >= NAMED).slice(0, 3).map(plain) });
    return decide('ANSWER', 'a status question about the work', { intent: 'STATUS', candidates: [] });
  }

  if ((has(GREETING, n) || has(THANKS, n) || has(SMALL_TALK, n)) && words <= 10 && !creative) {
    return decide('ANSWER', 'greeting or thanks', { reply: has(THANKS, n) ? 'You are welcome.' : 'Hello! What shall we make?' });
  }

  // A lasting fact or rule for the workspace, unless it clearly speaks of one task.
  if (has(REMEMBER, n) && !(best && best.score >= STRONG && (!second || best.score - second.score >= MARGIN))) {
    return decide('ANSWER', 'a lasting fact to remember', { intent: 'REMEMBER' });
  }

  // A quick one-off ("a quick icon of an anchor"), unless it refers to a task's work ("it").
  if (has(QUICK, n) && has(SMALL_ITEM, n) && !has(PROJECT, n) && !(has(PRONOUN, n) && !has(NEW_WORK, n) && best && best.score >= WEAK)) {
    return decide('LIGHTWEIGHT_TASK', 'a quick one-off', { title: trimmed.replace(/\s+/g, ' ').slice(0, 80) });
  }

  // Next year's edition of earlier work: a new task seeded from it (the old one stays as it is).
  const seedScored = scoreAll(rest.replace(YEAR, ' '), [], index, now);
  const seed = seedScored[0];
  if (seed && seed.score >= NAMED && (has(NEXT_EDITION, n) || laterYear(n, seed.entry)) && (!seedScored[1] || seed.score - seedScored[1].score >= 0.05)) {
    return decide('NEW_TASK', `a new edition of "${seed.title}"`, { title: trimmed.replace(/\s+/g, ' ').slice(0, 80), seedTaskId: seed.taskId });
  }
  // Archived work is never written to: a request that clearly resembles it starts a new task from it.
  const top1 = all[0];
  if (top1?.entry.archived && top1.score >= WEAK && (!best || (best.score < STRONG && top1.score - best.score >= MARGIN))) {
    return decide('NEW_TASK', `new work from the archived "${top1.title}"`, { title: trimmed.replace(/\s+/g, ' ').slice(0, 80), seedTaskId: top1.taskId });
  }

  // Another client's work: the message names a client no task of the index knows ("Juniper Climbing
  // Gym wants a promo video", "die Brauerei Hirschberg möchte auch Etiketten") and asks for
  // something. New work, even when it shares the kind of work, or words, with a task; modelled on
  // the task it names as the example ("like the ones from Falkenstein"), seeded from it when finished.
  // New work of the same client modelled on earlier work ("now one for their spa, same style") alike.
  const asks = creative || has(WANT, n);
  const known = (name: string) => index.some((e) => !e.archived && [...features(name)].every((f) => taskFeatures(e).has(f)));
  const otherClient = asks && clientNames(text, (w) => ORGANISATION.test(w)).some((name) => !known(name));
  const modelled = asks && has(SIMILAR, n) && (has(INDEFINITE_OBJECT, n) || has(ONE_FOR, n) || has(NEW_WORK, n));
  if (otherClient || modelled) {
    const title = trimmed.replace(/\s+/g, ' ').slice(0, 80);
    const model = has(SIMILAR, n) && best && best.score >= WEAK ? best : null;
    if (model && !isLive(model.entry)) return decide('NEW_TASK', `new work modelled on the finished "${model.title}"`, { title, seedTaskId: model.taskId });
    return decide('NEW_TASK', otherClient ? 'new work for a client no task has' : `new work modelled on "${model?.title ?? 'earlier work'}"`, { title });
  }

  // A question about facts of the work ("which typeface did we use on the posters?") or about what
  // was decided in earlier work ("was haben wir für die Poster entschieden?") is answered.
  if (question && has(FACT_QUESTION, n) && !creative && !requestBeside(FACT_QUESTION)) return decide('ANSWER', 'a question about the work');
  if (question && has(EARLIER_QUESTION, n) && !creative && !requestBeside(EARLIER_QUESTION)) return decide('ANSWER', 'a question about earlier work');
  // A question alone in one clause ("did the render finish?") is answered even when a noun of it
  // reads like a request ("render", "film").
  if (question && (has(APP_QUESTION, n) || !creative) && !(best && best.score >= STRONG && has(DEICTIC, n))) {
    if (!best || best.score < STRONG || has(APP_QUESTION, n)) return decide('ANSWER', 'a question for the main thread');
  }

  // "Make it pop more, feels flat": a reference to recent work that meets a task only in words of
  // its brief ("flat icon") is decided by recency below, not by that word.
  const kinds = [...features(rest)].filter((f) => f.startsWith('§'));
  const deicticOnly =
    has(DEICTIC, n) && words <= 12 && !!best && !best.named && best.hits <= 1 && !kinds.some((k) => best.kinds.has(k)) && recentOpen().length > 0;
  // "Build a 3D scene of our espresso machine": a request for something new that names no task
  // (it shares the kind of work, or words of a brief) is new work.
  // So is a whole request for new things ("make three retro posters for a jazz festival") that meets
  // a task by one word of its name ("festival") while each has words the other lacks (jazz, cinema).
  const newThings = creative && (has(INDEFINITE_OBJECT, n) || has(COUNTED_OBJECT, n));
  const unnamedRequest = newThings && !!best && (!best.named || differs(rest, best.entry));
  // A clear match to one task (unless it announces new work: "another menu like the Krone's").
  const newWork = (best ? announcesNewWork(n, best.entry) && has(NEW_WORK, n) : false) || deicticOnly || unnamedRequest;
  if (best && best.score >= STRONG && (!second || best.score - second.score >= MARGIN) && !newWork) {
    return decide('EXISTING_TASK', `matches "${best.title}" (score ${best.score.toFixed(2)})`, { taskId: best.taskId });
  }
  // Close candidates (the second at least 60% of the first): ask rather than guess — unless the
  // message announces new work.
  const close = (a: Scored | undefined, b: Scored | undefined) => !!a && !!b && a.score - b.score < MARGIN && b.score > 0.6 * a.score;
  if (best && second && best.score >= WEAK && close(best, second) && !has(NEW_WORK, n) && !unnamedRequest) {
    return decide('CLARIFY', `"${best.title}" and "${second.title}" match about equally`);
  }
  // "The posters", "出口目录", "le faire-part": the kind of work, named as something that exists (no
  // "a", no new-work cue). One task of that kind: it (in any language); several: ask which, unless
  // one of them is clearly ahead on words of its own.
  if (kinds.length && !has(INDEFINITE_OBJECT, n) && !has(NEW_WORK, n) && !(best && best.score >= STRONG && !deicticOnly)) {
    const ofKind = routable.filter((c) => kinds.some((k) => c.kinds.has(k)));
    const [k1, k2] = ofKind;
    // Words of its own point elsewhere (an archived task, another kind): not decided by the kind.
    const elsewhere = all[0] && all[0].named && !ofKind.slice(0, 2).includes(all[0]);
    if (elsewhere) {
      // fall through
    } else if (k1 && (k2 ? k1.hits > 0 && k1.score - k2.score >= MARGIN : k1.hits > 0 || otherLanguage(k1.entry) || unqualified(k1))) {
      return decide('EXISTING_TASK', `the ${ofKind.length === 1 ? 'only' : 'clearly nearest'} task of that kind: "${k1.title}"`, { taskId: k1.taskId });
    } else if (k1 && k2) return decide('CLARIFY', `${ofKind.length} tasks of that kind: "${k1.title}", "${k2.title}"`, { candidates: ofKind.slice(0, 3).map(plain) });
  }
  // "Make that one blue": a reference to recent work without naming it — not a whole request for a
  // new thing ("Komponiere ein kurzes Lied für den Geburtstag": "den" is an article there).
  if (has(DEICTIC, n) && words <= 12 && (!best || best.score < STRONG || deicticOnly) && !(newThings && !has(PRONOUN, n))) {
    const recent = recentOpen();
    if (recent.length === 1) {
      return decide('EXISTING_TASK', `refers to the only recently active task "${recent[0]!.title}"`, { taskId: recent[0]!.taskId });
    }
    if (recent.length > 1) {
      return decide('CLARIFY', `"${text.slice(0, 40)}" could mean ${recent.length} recent tasks`, {
        candidates: recent.slice(0, 3).map((e) => ({ taskId: e.taskId, title: e.title, score: 0 })),
      });
    }
  }
  if (best && best.score >= STRONG && !newWork) {
    return decide('EXISTING_TASK', `matches "${best.title}"`, { taskId: best.taskId });
  }
  if (creative || words > 3) {
    const title = trimmed.replace(/\s+/g, ' ').slice(0, 80);
    if (has(QUICK, n) && !has(PROJECT, n)) return decide('LIGHTWEIGHT_TASK', 'a single quick generation', { title });
    // One task resembles the request, clearly ahead of the others (close ones were asked about
    // above): the request continues it, unless it announces new work — then a finished task is
    // left alone (a new task seeded from it) and a live one asks "continue or create".
    // A project of several parts that only loosely resembles a task is new work.
    const project = has(PROJECT, n) && creative && best !== undefined && best.score < STRONG;
    if (best && best.score >= WEAK && !unnamedRequest && !project) {
      if (!announcesNewWork(n, best.entry)) return decide('EXISTING_TASK', `continues "${best.title}", the one task it resembles (score ${best.score.toFixed(2)})`, { taskId: best.taskId });
      if (!isLive(best.entry)) return decide('NEW_TASK', `new work like the finished "${best.title}"`, { title, seedTaskId: best.taskId });
      // New work like a running task: new (the duplicate check asks when it is nearly the same).
      return decide('NEW_TASK', `new work beside "${best.title}"`, { title });
    }
    return decide('NEW_TASK', 'a new piece of work', { title });
  }
  return decide(question ? 'ANSWER' : 'CLARIFY', 'too little to go on');
}

export const DUPLICATE_SCORE = 0.5;

/**
 * The duplicate check before a persistent task is created: the nearest running task when it is
 * likely the same work, else null. `running` are the most recent running tasks (not the index).
 */
export function likelyDuplicate(text: string, running: TaskIndexEntry[], now: Date): Candidate | null {
  // "Another menu like the Krone's", "eine neue Speisekarte": the person said it is new work.
  if (has(NEW_WORK, normalize(text))) return null;
  const live = running.filter((e) => !e.archived);
  const [best] = scoreCandidates(text, live, now, false);
  if (!best || best.score < DUPLICATE_SCORE) return null;
  // "Three posters for a jazz festival" is not the running "three posters for a film festival".
  const entry = live.find((e) => e.taskId === best.taskId);
  return entry && differs(text, entry) ? null : best;
}

export function asDuplicateQuestion(decision: RouteDecision, dup: Candidate): RouteDecision {
  const { seedTaskId: _seed, ...rest } = decision;
  return {
    ...rest,
    outcome: 'CLARIFY',
    candidates: [dup],
    reason: `likely a duplicate of the running task "${dup.title}" (score ${dup.score.toFixed(2)}): continue it or create a new one?`,
  };
}
