// The offline router: useful without any model. Deterministic rules and lexical retrieval over the
// bounded task index. It prefers CLARIFY to a guess whenever two candidates are close: routing a
// message into the wrong task is the costly error. Pure.
import { features, normalize, overlap } from './text.ts';
import type { Candidate, RouteDecision, TaskIndexEntry } from './types.ts';

// Thresholds on the lexical score (0..1), chosen on the development set test/eval/routing-cases.json
// with the wrong-task rate as the first objective. Never tune them, or any word list here, on the
// held-out set (test/eval/routing-heldout.json): it measures what this router does on words it was
// not fitted to.
const STRONG = 0.42;
const MARGIN = 0.15;
const WEAK = 0.25;
const RECENT_MS = 6 * 3600_000;

const has = (re: RegExp, s: string) => re.test(s);

const GREETING = /^(hi|hey|hello|hallo|servus|moin|guten (morgen|tag|abend)|bonjour|hola|ciao)\b|^(你好|您好|嗨|早上好|こんにちは|おはよう|안녕)/u;
const THANKS = /^(thanks|thank you|thx|cheers|danke|vielen dank|merci|gracias|grazie)\b|(谢谢|多谢|感谢|ありがとう|감사)/u;
const QUESTION_START =
  /^(?:what|how|which|when|where|why|who|is there|are there|do you|can you tell|could you tell|was|wie|welche|wann|wo|warum|wer|gibt es|kannst du mir sagen|qu'est|quoi|comment|quel|combien|qué|cómo|cuál|什么|怎么|哪|为什么|有没有|多少|是不是|なに|何|どう|どれ|いつ)/u;
const APP_QUESTION =
  /\b(what can you do|what can you make|how many|status|progress|which tasks|what tasks|was kannst du|wie viele|welche aufgaben|stand)\b|(你能做什么|能做什么|多少个|进度|状态|哪些任务|何ができ|進捗)/u;
/** "Did the render finish?": a question about a task's state, answered by the main thread. */
const STATUS_QUESTION =
  /^(did|has|have|is|are|was|were)\b.*\b(finish|finished|done|ready|complete|completed|over)\b|\b(fertig|abgeschlossen)\b.*\?|(好了吗|完成了吗|做完了吗|終わりました)/u;
const CREATE_VERB =
  /\b(make|create|design|draw|generate|render|produce|build|write|draft|animate|film|edit|change|turn|give me|i need|i want|let'?s|erstell|gestalt|mach|zeichne|entwirf|generier|schreib|änder|ändere|brauche|möchte|crée|fais|dessine|crea|haz|diseña|genera)\w*/u;
const CREATE_CJK = /(做|画|设计|生成|制作|创建|写|改|来一张|来个|帮我|给我|作って|描いて|作成|デザイン|変えて)/u;
const LIGHT = /\b(quick|quickly|just a|a single|one quick|simple|tiny|funny|small icon|icon|sticker|emoji|avatar|favicon|meme|placeholder|schnell|kurz|nur ein|ein kleines|einfaches|icône|rapide|rápido|sencillo)\b|(快速|简单|随便|一个小|小图标|图标|头像|表情|ちょっと|アイコン)/u;
const PROJECT =
  /\b(series|campaign|project|storyboard|video|film|trailer|brand|branding|identity|multiple|several|set of|collection|launch|3d scene|scene|serie|reihe|kampagne|projekt|mehrere|marke|série|campagne|projet|serie|campaña|proyecto)\b|(系列|项目|活动|品牌|多张|一套|视频|分镜|シリーズ|プロジェクト|動画)/u;
/**
 * Words announcing a further piece of work rather than more of an existing one ("another", "a new",
 * "next year's"), in the languages the other cues cover.
 */
const NEW_WORK =
  /\b(another|a new|new one|next year'?s?|kick off|start (a|on|the)|as well|neue[nrs]?|nächste[nrs]?|nouveau|nouvelle|un autre|une autre|nuevo|nueva|otro|otra)\b|(新的|新开|另外|另一|新しい|別の|新規)/u;
const LIVE = ['QUEUED', 'RUNNING', 'WAITING', 'PAUSED'];

/** New work: a new-work cue, or a year the task does not mention (next year's edition of a report). */
function announcesNewWork(n: string, e: TaskIndexEntry): boolean {
  if (NEW_WORK.test(n)) return true;
  const taskText = `${e.title} ${e.goal} ${e.summary}`;
  return (n.match(/\b(19|20)\d\d\b/g) ?? []).some((y) => !taskText.includes(y));
}

const DEICTIC =
  /\b(that one|this one|that|this|it|them|those|the last one|the other one|das|dies|diese[ns]?|den|die|dem|es|sie|letzte[ns]?|celui|celle|ça|ese|esa|eso)\b|(那个|这个|那张|这张|它|刚才|上一个|それ|これ|あれ|さっき)/u;

function taskFeatures(e: TaskIndexEntry): Set<string> {
  return features(`${e.title} ${e.goal} ${e.summary} ${e.objects.join(' ')}`);
}

export function scoreCandidates(text: string, index: TaskIndexEntry[], now: Date): Candidate[] {
  const msg = features(text);
  return index
    .map((e) => {
      const lexical = overlap(msg, taskFeatures(e));
      const recent = now.getTime() - e.lastActivityAt.getTime() < 24 * 3600_000 ? 0.03 : 0;
      const live = LIVE.includes(e.status) ? 0.02 : 0;
      // Embedding similarity counts from 0.3 (unrelated texts of one domain) to 0.8 (same work).
      const semantic = e.semantic !== undefined ? Math.max(0, Math.min(1, (e.semantic - 0.3) / 0.5)) * 0.8 : 0;
      const base = Math.max(0.85 * lexical + 0.15 * Math.min(1, e.retrieval), semantic);
      return { taskId: e.taskId, title: e.title, score: Math.min(1, base + recent + live) };
    })
    .sort((a, b) => b.score - a.score || a.title.localeCompare(b.title));
}

export function routeOffline(text: string, index: TaskIndexEntry[], now = new Date()): RouteDecision {
  const n = normalize(text);
  // CJK has no spaces: count two characters as a word.
  const cjk = (n.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/gu) ?? []).length;
  const words = [...n.replace(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/gu, ' ').split(' ').filter(Boolean), ...Array(Math.ceil(cjk / 2)).fill('')];
  const candidates = scoreCandidates(text, index, now);
  const top = candidates.slice(0, 3);
  const [best, second] = candidates;
  const creative = has(CREATE_VERB, n) || has(CREATE_CJK, n);
  const decide = (outcome: RouteDecision['outcome'], reason: string, extra: Partial<RouteDecision> = {}): RouteDecision => ({
    outcome,
    method: 'RETRIEVAL',
    taskId: null,
    candidates: top,
    reason,
    ...extra,
  });

  if ((has(GREETING, n) || has(THANKS, n)) && words.length <= 10 && !creative) {
    return decide('ANSWER', 'greeting or thanks', { reply: has(THANKS, n) ? 'You are welcome.' : 'Hello! What shall we make?' });
  }
  const question = text.trim().endsWith('?') || text.trim().endsWith('？') || has(QUESTION_START, n);
  // A status question alone, in one clause ("did the render finish?"), is answered even when a noun
  // of it reads like a request ("render", "film"); with a request beside it ("…? If not, make it
  // larger", "continue the posters, are the fixes done?") it is task work.
  const questionOnly = /^[^.!?。！？,，;；]+[?？]$/u.test(text.trim());
  if (has(STATUS_QUESTION, n) && (!creative || questionOnly)) return decide('ANSWER', 'a question about the state of work');
  if (question && (has(APP_QUESTION, n) || !creative) && !(best && best.score >= STRONG && has(DEICTIC, n))) {
    if (!best || best.score < STRONG || has(APP_QUESTION, n)) return decide('ANSWER', 'a question for the main thread');
  }

  // A clear match to one task.
  if (best && best.score >= STRONG && (!second || best.score - second.score >= MARGIN)) {
    return decide('EXISTING_TASK', `matches "${best.title}" (score ${best.score.toFixed(2)})`, { taskId: best.taskId });
  }
  // Close candidates: ask rather than guess.
  if (best && second && best.score >= WEAK && best.score - second.score < MARGIN) {
    return decide('CLARIFY', `"${best.title}" and "${second.title}" match about equally`);
  }
  // "Make that one blue": a reference to recent work without naming it.
  if (has(DEICTIC, n) && words.length <= 12 && (!best || best.score < STRONG)) {
    const recent = index
      .filter((e) => now.getTime() - e.lastActivityAt.getTime() < RECENT_MS && e.status !== 'CANCELLED')
      .sort((a, b) => b.lastActivityAt.getTime() - a.lastActivityAt.getTime());
    if (recent.length === 1) {
      return decide('EXISTING_TASK', `refers to the only recently active task "${recent[0]!.title}"`, { taskId: recent[0]!.taskId });
    }
    if (recent.length > 1) {
      return decide('CLARIFY', `"${text.slice(0, 40)}" could mean ${recent.length} recent tasks`, {
        candidates: recent.slice(0, 3).map((e) => ({ taskId: e.taskId, title: e.title, score: 0 })),
      });
    }
  }
  if (best && best.score >= STRONG) {
    return decide('EXISTING_TASK', `matches "${best.title}"`, { taskId: best.taskId });
  }
  if (creative || words.length > 3) {
    const title = text.trim().replace(/\s+/g, ' ').slice(0, 80);
    if (has(LIGHT, n) && !has(PROJECT, n)) return decide('LIGHTWEIGHT_TASK', 'a single quick generation', { title });
    // One task resembles the request, clearly ahead of the others (close ones were asked about
    // above): the request continues it, unless it announces new work — then a finished task is
    // left alone (new task) and a live one asks "continue or create".
    if (best && best.score >= WEAK) {
      const e = index.find((x) => x.taskId === best.taskId)!;
      if (!announcesNewWork(n, e)) return decide('EXISTING_TASK', `continues "${best.title}", the one task it resembles (score ${best.score.toFixed(2)})`, { taskId: best.taskId });
      if (!LIVE.includes(e.status)) return decide('NEW_TASK', `new work like the finished "${best.title}"`, { title });
      return decide('CLARIFY', `new request resembles "${best.title}"`);
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
  const [best] = scoreCandidates(text, running, now);
  return best && best.score >= DUPLICATE_SCORE ? best : null;
}

export function asDuplicateQuestion(decision: RouteDecision, dup: Candidate): RouteDecision {
  return {
    ...decision,
    outcome: 'CLARIFY',
    candidates: [dup],
    reason: `likely a duplicate of the running task "${dup.title}" (score ${dup.score.toFixed(2)}): continue it or create a new one?`,
  };
}
