// What a message in the main thread says besides a request for work, in EN, DE, FR, ES, ZH and
// JA: a command to stop, pause or resume a named task ("stop the PPT", "hör auf mit dem Video",
// "arrête l'affiche", "para el vídeo", "别做海报了", "動画を止めて"), a question about a task's state
// ("where's the video at?", "wie weit ist das Plakat?", "où en est la vidéo ?", "¿cómo va el
// cartel?", "海报做得怎么样了？", "動画はどうなった？"), a greeting, thanks, a question about what
// the studio can do or is doing. Each parser returns the words left for the task's name (`ref`),
// which ./reference.ts matches against the workspace's tasks. Pure and deterministic.
//
// The patterns are frames around a reference, anchored at both ends of a short message: "stop
// using red on the poster" is not a command to stop the poster, because "using red on" is not part
// of any task's name (reference.ts checks that every word of the reference is accounted for).
import type { SteerSignal } from './types.ts';

/** Lower case, NFKC, one kind of apostrophe, single spaces, no surrounding punctuation. */
export function normalizeMessage(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[’‘`´]/g, "'")
    .replace(/\s+/g, ' ')
    .replace(/^[\s¿¡"'“”„«»「」.,!?。！？、…-]+|[\s"'“”„«»「」.,!?。！？、…~〜-]+$/gu, '')
    .trim();
}

type Frame = { re: RegExp; signal?: SteerSignal; lang: string };

const r = (src: string) => new RegExp(`^(?:${src})$`, 'u');
/** Politeness and fillers around a command ("please", "bitte", "por favor", "ください"). */
const PRE = "(?:(?:ok(?:ay)?|so|hey|please|pls|bitte|s'il te plaît|s'il vous plaît|stp|por favor|also|dann|alors|vale|bueno)[ ,]+)*";
const POST = "(?:[ ,]+(?:please|now|for now|for the moment|anymore|any more|bitte|jetzt|mal|erstmal|erst mal|vorerst|maintenant|pour l'instant|por favor|ya|por ahora|de momento))*";

// Order matters: pause before cancel ("いったん止めて" is a pause, "止めて" a stop).
const STEER: Frame[] = [
  // PAUSE
  { lang: 'en', signal: 'PAUSE', re: r(`${PRE}(?:pause|hold off on|hold) (?<ref>.+?)${POST}`) },
  { lang: 'en', signal: 'PAUSE', re: r(`${PRE}put (?<ref>.+?) on hold${POST}`) },
  { lang: 'de', signal: 'PAUSE', re: r(`${PRE}(?:pausiere|pausier|pausieren) (?<ref>.+?)${POST}`) },
  { lang: 'de', signal: 'PAUSE', re: r(`${PRE}(?<ref>.+?) (?:pausieren|anhalten)${POST}`) },
  { lang: 'de', signal: 'PAUSE', re: r(`${PRE}(?:halte|halt|leg|lege) (?<ref>.+?) (?:an|auf eis)${POST}`) },
  { lang: 'fr', signal: 'PAUSE', re: r(`${PRE}(?:mets|mettez|met) (?<ref>.+?) en pause${POST}`) },
  { lang: 'fr', signal: 'PAUSE', re: r(`${PRE}(?:suspends|suspendez) (?<ref>.+?)${POST}`) },
  { lang: 'es', signal: 'PAUSE', re: r(`${PRE}(?:pausa|pausad) (?<ref>.+?)${POST}`) },
  { lang: 'es', signal: 'PAUSE', re: r(`${PRE}(?:pon|poned) (?<ref>.+?) en pausa${POST}`) },
  { lang: 'zh', signal: 'PAUSE', re: r('(?:先)?暂停(?:一下)?(?<ref>.*?)(?:吧)?') },
  { lang: 'zh', signal: 'PAUSE', re: r('(?:把)?(?<ref>.+?)(?:先)?暂停(?:一下)?(?:吧)?') },
  { lang: 'ja', signal: 'PAUSE', re: r('(?<ref>.*?)(?:を|は)?(?:一時停止|いったん止め|一旦止め|保留に)(?:して)?(?:ください|下さい|くれる|ほしい)?') },
  // RESUME
  { lang: 'en', signal: 'RESUME', re: r(`${PRE}(?:resume|unpause|restart|continue|carry on with|go on with|pick up) (?<ref>.+?)(?: again)?${POST}`) },
  { lang: 'de', signal: 'RESUME', re: r(`${PRE}(?:setze|setz) (?<ref>.+?) fort${POST}`) },
  { lang: 'de', signal: 'RESUME', re: r(`${PRE}(?:mach|mache) (?:mit )?(?<ref>.+?) weiter${POST}`) },
  { lang: 'de', signal: 'RESUME', re: r(`${PRE}weiter mit (?<ref>.+?)${POST}`) },
  { lang: 'de', signal: 'RESUME', re: r(`${PRE}(?<ref>.+?) (?:fortsetzen|weitermachen)${POST}`) },
  { lang: 'de', signal: 'RESUME', re: r(`${PRE}nimm (?<ref>.+?) wieder auf${POST}`) },
  { lang: 'fr', signal: 'RESUME', re: r(`${PRE}(?:reprends|reprenez|continue|continuez|relance|relancez) (?<ref>.+?)${POST}`) },
  { lang: 'es', signal: 'RESUME', re: r(`${PRE}(?:reanuda|reanudad|continúa|continua|continuad|sigue con|seguid con|retoma|retomad) (?<ref>.+?)${POST}`) },
  { lang: 'zh', signal: 'RESUME', re: r('(?:继续|恢复)(?:做)?(?<ref>.*?)(?:吧)?') },
  { lang: 'zh', signal: 'RESUME', re: r('(?:把)?(?<ref>.+?)(?:继续|恢复)(?:做)?(?:吧)?') },
  { lang: 'ja', signal: 'RESUME', re: r('(?<ref>.*?)(?:を|は)?(?:再開|続け)(?:して|て)?(?:ください|下さい|くれる|ほしい)?') },
  // CANCEL
  { lang: 'en', signal: 'CANCEL', re: r(`${PRE}(?:stop|cancel|kill|abort|scrap|drop|ditch|forget about|forget|quit) (?:working on |doing |with )?(?<ref>.+?)${POST}`) },
  { lang: 'en', signal: 'CANCEL', re: r(`${PRE}(?:no more|enough of|enough with) (?<ref>.+?)${POST}`) },
  { lang: 'en', signal: 'CANCEL', re: r(`${PRE}(?:don't|do not) (?:bother with|continue|make|do|finish) (?<ref>.+?)${POST}`) },
  { lang: 'de', signal: 'CANCEL', re: r(`${PRE}(?:hör|höre|hört) (?:bitte )?(?:jetzt )?auf mit (?<ref>.+?)${POST}`) },
  { lang: 'de', signal: 'CANCEL', re: r(`${PRE}(?:hör|höre|hört) (?:bitte )?(?:jetzt )?mit (?<ref>.+?) auf${POST}`) },
  { lang: 'de', signal: 'CANCEL', re: r(`${PRE}(?:stopp|stoppe|stop|beende|streich|streiche|vergiss|cancel|storniere) (?<ref>.+?)${POST}`) },
  { lang: 'de', signal: 'CANCEL', re: r(`${PRE}(?:brich|breche) (?<ref>.+?) ab${POST}`) },
  { lang: 'de', signal: 'CANCEL', re: r(`${PRE}(?<ref>.+?) (?:abbrechen|stoppen|streichen|canceln|beenden)${POST}`) },
  { lang: 'de', signal: 'CANCEL', re: r(`${PRE}lass (?<ref>.+?) (?:sein|bleiben)${POST}`) },
  { lang: 'fr', signal: 'CANCEL', re: r(`${PRE}(?:arrête|arrêtez|arrete|arretez|annule|annulez|stoppe|stoppez|laisse tomber|laissez tomber|abandonne|abandonnez) (?<ref>.+?)${POST}`) },
  { lang: 'es', signal: 'CANCEL', re: r(`${PRE}(?:para|parad|pare|detén|deten|detened|cancela|cancelad|cancele|deja|dejad|olvida|olvídate de|olvidate de|abandona) (?:de hacer |con )?(?<ref>.+?)${POST}`) },
  { lang: 'zh', signal: 'CANCEL', re: r('(?:别|不要|不用)(?:再)?(?:做|弄|搞|画)(?<ref>.*?)(?:了)?(?:吧)?') },
  { lang: 'zh', signal: 'CANCEL', re: r('(?:停止|停掉|取消|停下)(?<ref>.*?)(?:吧)?') },
  { lang: 'zh', signal: 'CANCEL', re: r('(?:把)?(?<ref>.+?)(?:不做了|不要了|停掉|停了|停下来|取消掉|取消了|取消)(?:吧)?') },
  { lang: 'ja', signal: 'CANCEL', re: r('(?<ref>.*?)(?:を|は)?(?:止め|やめ|中止し|キャンセルし|ストップし|停止し)(?:て)?(?:ください|下さい|くれる|ほしい)?') },
];

/** A command to stop, pause or resume a task, and the words naming it (possibly empty: "stop it"). */
export function steeringOf(text: string): { signal: SteerSignal; ref: string } | null {
  const n = normalizeMessage(text);
  if (!n || n.length > 80) return null;
  for (const f of STEER) {
    const m = n.match(f.re);
    if (m) return { signal: f.signal!, ref: (m.groups?.ref ?? '').trim() };
  }
  return null;
}

// Status questions: a frame around the task's name ("where's … at", "wie weit ist …", "où en est …").
const STATUS: [string, RegExp][] = [
  ['en', r("(?:so )?(?:where's|where is|where are|how's|how is|how are|what's the status of|what is the status of|what's the state of|status of|any news on|any update on|any updates on|an update on|progress on|how far along is|how far along are|how far is|how far are) (?<ref>.+?)(?: at| going| coming along| doing| getting on| now| so far)*")],
  ['en', r('(?:is|are|has|have) (?<ref>.+?) (?:done|ready|finished|complete|completed|over)(?: yet| already)?')],
  ['de', r("(?:wie weit (?:ist|sind|bist du mit|seid ihr mit)|wie steht's (?:mit|um)|wie steht es (?:mit|um)|was macht|was machen|was ist mit|wie läuft's mit|wie läuft es mit|wie läuft|wie laufen|stand (?:bei|von)) (?<ref>.+?)(?: gerade| jetzt| denn| so| inzwischen| schon)*")],
  ['de', r('(?:ist|sind) (?<ref>.+?) (?:schon |jetzt |denn )?(?:fertig|bereit|durch)')],
  ['fr', r("(?:où en (?:est|sont)|ou en (?:est|sont)|comment (?:avance|avancent|va|vont|se passe)|qu'en est-il de|qu'en est-il du|quel est l'état de|quel est l'état du|des nouvelles (?:de|du|des)|est-ce que) (?<ref>.+?)(?: (?:est|sont) (?:prête?s?|finie?s?|terminée?s?))?")],
  ['es', r('(?:cómo va|como va|cómo van|como van|cómo vamos con|qué tal va|que tal va|qué tal van|en qué punto está|en que punto esta|qué pasa con|que pasa con|cómo está|como esta|cómo están) (?<ref>.+?)(?: ya| ahora)*')],
  ['es', r('(?:está|esta|están) (?<ref>.+?) (?:ya )?(?:listo|lista|listos|listas|terminado|terminada|terminados|terminadas)')],
  ['zh', r('(?<ref>.+?)(?:的)?(?:做得|弄得|进行得|进展得|画得)?(?:怎么样了|怎么样|如何了|到哪了|到哪一步了|好了吗|好了没|完成了吗|做完了吗|进度如何|进度怎么样|进度|进展如何|进展)(?:吗|呢)?')],
  ['ja', r('(?<ref>.+?)(?:は|って|の)?(?:どうなった|どうなってる|どうなっている|どうなっていますか|どうなりましたか|どんな感じ|どこまで進んだ|どこまで進みましたか|の進捗|進捗|終わった|終わりました|できた|できました|完成した)(?:の|か|かな)?(?:は)?')],
];

/** A question about how a task is going, and the words naming it. */
export function statusQuestionOf(text: string): { ref: string } | null {
  const n = normalizeMessage(text);
  if (!n || n.length > 80) return null;
  for (const [, re] of STATUS) {
    const m = n.match(re);
    if (m) return { ref: (m.groups?.ref ?? '').trim() };
  }
  return null;
}

/** The language of the command or question frame a message fits ("brich … ab" is German), or null. */
export function frameLanguage(text: string): string | null {
  const n = normalizeMessage(text);
  if (!n || n.length > 80) return null;
  return STEER.find((f) => f.re.test(n))?.lang ?? STATUS.find(([, re]) => re.test(n))?.[0] ?? null;
}

const GREETING = /^(?:hi|hey|hello|hallo|servus|moin|guten (?:morgen|tag|abend)|bonjour|bonsoir|salut|hola|buenos días|buenas(?: tardes| noches)?|ciao|你好|您好|嗨|早上好|こんにちは|おはよう(?:ございます)?|こんばんは)(?:[ ,!]+(?:there|everyone|atelier|zusammen|à tous|a todos))?$/u;
const THANKS = /^(?:(?:thanks|thank you|thx|cheers|danke(?: schön| sehr)?|vielen dank|merci(?: beaucoup)?|gracias|muchas gracias|grazie|谢谢|多谢|感谢|ありがとう(?:ございます)?|どうも)(?:[ ,!]+(?:a lot|so much|very much|dir|euch|beaucoup|mucho|你))*)$/u;
const HELP =
  /^(?:what can you do|what can you make|what do you do|help|how does this work|what can i ask(?: you)?|was kannst du(?: alles)?(?: machen)?|hilfe|wie funktioniert das|que sais-tu faire|que peux-tu faire|qu'est-ce que tu sais faire|qu'est-ce que tu peux faire|que pouvez-vous faire|aide|qué puedes hacer|que puedes hacer|qué sabes hacer|ayuda|你能做什么|你会做什么|你可以做什么|能做什么|帮助|怎么用|何ができますか|何ができる|なにができる|ヘルプ|使い方)$/u;
const WORKING_ON =
  /^(?:what are you (?:working on|doing|up to)(?: right now| now| at the moment)?|what's (?:going on|in progress|running)|what is (?:going on|in progress|running)|anything (?:running|in progress)|status|woran arbeitest du(?: gerade)?|was machst du gerade|was läuft(?: gerade)?|was ist in arbeit|sur quoi (?:tu travailles|travailles-tu|travaillez-vous)|qu'est-ce qui est en cours|qu'est-ce que tu fais|tu fais quoi|en qué estás trabajando|en que estas trabajando|qué estás haciendo|que estas haciendo|qué hay en curso|你在做什么|你在忙什么|在忙什么|正在做什么|有哪些任务|在做哪些|何をしていますか|何してる|何に取り組んでいますか|作業中のものは|進行中のものは)$/u;

export type Conversation = 'greeting' | 'thanks' | 'help' | 'workingOn';

/** Greetings, thanks, "what can you do?", "what are you working on?" — whole messages only. */
export function conversationOf(text: string): Conversation | null {
  const n = normalizeMessage(text);
  if (HELP.test(n)) return 'help';
  if (WORKING_ON.test(n)) return 'workingOn';
  if (THANKS.test(n)) return 'thanks';
  if (GREETING.test(n)) return 'greeting';
  return null;
}

/** A question at all (a question mark, or a question word at the start). */
export function isQuestion(text: string): boolean {
  const t = text.trim();
  return /[?？]$/u.test(t) || /^(?:what|how|which|when|where|why|who|do you|does|is there|was|wie|welche|wann|wo|warum|wer|qu'|quel|quelle|comment|où|qué|cómo|cuál|dónde|什么|怎么|哪|为什么|多少|何|どう|どれ|いつ|どこ)/iu.test(t);
}

/** A question about something the user or the workspace has ("what's our brand color?", "where do I live?"). */
export function asksAboutOwn(text: string): boolean {
  return /\b(?:our|my|i|we|unser\w*|mein\w*|ich|wir|notre|nos|mon|ma|mes|nuestr\w*|mi|mis)\b|我们的|我的|咱们|私の|うちの|弊社の/iu.test(text);
}
