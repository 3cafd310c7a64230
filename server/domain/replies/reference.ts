// Which task a few words name ("the video", "das Plakat", "l'affiche", "el cartel", "海报",
// "動画", "the coffee posters"), across languages: a German question finds an English task by the
// kind of thing both name (Plakat ≈ poster), and any task by the words of its title and goal. Pure.
//
// A reference must be accounted for entirely — every word is a kind word, a word of the task, an
// article or a filler — so "stop using red on the poster" does not name the poster task (./intents.ts
// leaves "using red on the poster" as the reference). Ties are reported, never broken by a guess.

export type TaskLike = { id: string; title: string; goal: string; status: string; lastActivityAt: Date };

export const LIVE_STATUSES = ['QUEUED', 'RUNNING', 'WAITING', 'PAUSED'];

/** Kinds of things people name tasks by, with their words in EN, DE, FR, ES (Latin) and ZH, JA. */
const KINDS: { kind: string; latin: RegExp; cjk: RegExp }[] = [
  { kind: 'video', latin: /^(?:videos?|vidéos?|vídeos?|clips?|films?|filme|movies?|trailers?|reels?|\p{L}+videos?)$/u, cjk: /视频|影片|短片|動画|ビデオ|ムービー/gu },
  { kind: 'poster', latin: /^(?:posters?|plakat(?:e|en|s)?|\p{L}+plakat(?:e|en|s)?|affiches?|carteles|cartel|pósters?|posteres|pósteres|afiches?)$/u, cjk: /海报|ポスター/gu },
  { kind: 'deck', latin: /^(?:ppts?|pptx|slides?|decks?|presentations?|präsentation(?:en)?|folien|présentations?|diapos?|presentaci[oó]n(?:es)?|diapositivas?)$/u, cjk: /演示文稿|演示|幻灯片|プレゼン|スライド/gu },
  { kind: 'image', latin: /^(?:images?|pictures?|photos?|illustrations?|bild(?:er)?|fotos?|illustrationen|imagen(?:es)?|ilustraci[oó]n(?:es)?|dessins?|drawings?|artworks?)$/u, cjk: /图片|插画|照片|图像|画像|イラスト|写真/gu },
  { kind: 'logo', latin: /^logos?$/u, cjk: /标志|ロゴ/gu },
  { kind: 'model3d', latin: /^(?:3d|models?|modell(?:e)?|modèles?|modelos?)$/u, cjk: /模型|モデル/gu },
  { kind: 'audio', latin: /^(?:audio|sounds?|music|songs?|jingles?|musik|musique|sons?|música|musica|canci[oó]n(?:es)?|sonido)$/u, cjk: /音乐|音频|声音|音楽|サウンド|音声/gu },
  { kind: 'storyboard', latin: /^(?:storyboards?|scénarimages?)$/u, cjk: /分镜|故事板|絵コンテ|ストーリーボード/gu },
  { kind: 'document', latin: /^(?:documents?|docs?|briefs?|briefings?|texts?|texte|dokument(?:e)?|documentos?|textos?)$/u, cjk: /文档|文案|简报|文書|ブリーフ|テキスト/gu },
  { kind: 'banner', latin: /^(?:banners?|bannières?|banderoles?|pancartas?)$/u, cjk: /横幅|バナー/gu },
  { kind: 'flyer', latin: /^(?:flyers?|leaflets?|brochures?|broschüren?|folletos?|prospectus|tracts?)$/u, cjk: /传单|宣传册|チラシ|パンフレット/gu },
  { kind: 'invitation', latin: /^(?:invitations?|einladung(?:en)?|invitaci[oó]n(?:es)?)$/u, cjk: /邀请函|请柬|招待状/gu },
];

const kindOfWord = (w: string) => KINDS.find((k) => k.latin.test(w))?.kind;

/** The kinds a text names. */
export function kindsIn(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of latinWords(text)) {
    const k = kindOfWord(w);
    if (k) out.add(k);
  }
  for (const k of KINDS) if (text.match(k.cjk)) out.add(k.kind);
  return out;
}

const ARTICLES = new Set(
  (
    'the a an my our this that these those his her its their your ' +
    'der die das den dem des ein eine einen einem mein meine meinen unser unsere unseren dein deine diese dieses diesen damit dran ' +
    "le la les l' un une mon ma mes notre nos ce cet cette ces du de des d' au aux ton ta tes " +
    'el la los las lo un una mi mis nuestro nuestra nuestros nuestras ese esa esos esas este esta estos estas del al de tu tus ' +
    'with mit avec con on for für pour para of von'
  ).split(' '),
);
/** Words that name "the one we are talking about" rather than a task. */
const DEICTIC = new Set('it that this them those everything all it all this one that one es das dies ça ce cela tout eso esto todo ello'.split(' '));
const FILLERS = new Set(
  'now please anymore any more again yet already right just thing one job task work project bitte jetzt mal erstmal doch schon aufgabe sache maintenant encore tâche truc ya ahora tarea cosa trabajo proyecto'.split(' '),
);
/** CJK particles, classifiers and fillers around a name (的, 那个, 张, を, の, もう …). */
const CJK_FILLER = /的|那个|这个|那张|这张|那些|这些|那份|这份|张|个|份|部|支|条|套|一下|了|吧|把|再|先|我们|我的|もう|その|この|あの|を|は|が|の|って|とか|とりあえず|いったん|一旦|ちょっと|全部/gu;

const fold = (w: string) => w.normalize('NFKD').replace(/\p{M}/gu, '');
/** The same word, inflection aside ("poster"/"posters", "Plakat"/"Plakate", "vidéo"/"video"). */
function sameWord(a: string, b: string): boolean {
  const [x, y] = [fold(a), fold(b)].sort((p, q) => p.length - q.length) as [string, string];
  return x === y || (x.length >= 3 && y.startsWith(x) && y.length - x.length <= 2);
}

function latinWords(text: string): string[] {
  return text
    .toLowerCase()
    .replace(/\b([ld])'/g, "$1' ")
    .split(/[^\p{Script=Latin}\p{N}']+/u)
    .filter(Boolean);
}

function cjkBigrams(text: string): Set<string> {
  const out = new Set<string>();
  for (const run of text.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+/gu) ?? []) {
    for (let i = 0; i + 1 < run.length; i++) out.add(run.slice(i, i + 2));
  }
  return out;
}

/** How well a reference names a task, and whether every part of it is accounted for. */
export function matchTask(ref: string, task: Pick<TaskLike, 'title' | 'goal'>): { score: number; covered: boolean } {
  const name = `${task.title} ${task.goal}`;
  const refKinds = kindsIn(ref);
  const taskKinds = kindsIn(name);
  const kindHit = [...refKinds].some((k) => taskKinds.has(k));
  // Latin words: each is a kind word, a word of the task, an article or a filler.
  const taskWords = latinWords(name).filter((w) => w.length > 2 && !ARTICLES.has(w));
  let shared = 0;
  let unexplained = 0;
  for (const w of latinWords(ref)) {
    if (ARTICLES.has(w) || FILLERS.has(w) || DEICTIC.has(w) || /^\d+$/.test(w)) continue;
    if (w.length > 2 && taskWords.some((t) => sameWord(w, t))) shared++;
    else if (!kindOfWord(w)) unexplained++;
  }
  // CJK: kind words, two-character runs shared with the task's name and particles are accounted
  // for; anything left over is not.
  let rest = cjkOf(ref);
  if (rest) {
    const grams = cjkBigrams(name);
    for (const k of KINDS) rest = rest.replace(k.cjk, '');
    for (const g of cjkBigrams(rest)) {
      if (grams.has(g)) {
        shared++;
        rest = rest.replaceAll(g, '');
      }
    }
    rest = rest.replace(CJK_FILLER, '');
    if (rest.length > 1) unexplained++;
  }
  return { score: (kindHit ? 2 : 0) + shared, covered: unexplained === 0 };
}

const cjkOf = (s: string) => (s.match(/[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]+/gu) ?? []).join('');

/** "it", "das", "ça", "eso", or nothing at all: the task we are talking about, not a name. */
export function isDeictic(ref: string): boolean {
  const words = latinWords(ref).filter((w) => !ARTICLES.has(w) && !FILLERS.has(w));
  const cjk = cjkOf(ref).replace(CJK_FILLER, '').replace(/它|那|这|それ|これ|あれ/gu, '');
  return cjk.length === 0 && words.every((w) => DEICTIC.has(w));
}

export type Resolution<T> = { kind: 'one'; task: T } | { kind: 'several'; tasks: T[] } | { kind: 'none' };

/**
 * The task a reference names among `tasks`, preferring those `prefer` accepts (live ones for a stop,
 * paused ones for a resume). A deictic reference ("it") names the only preferred task, if there is
 * exactly one. Several tasks named equally well are returned as such, best first.
 */
export function resolveTask<T extends TaskLike>(ref: string, tasks: readonly T[], prefer: (t: T) => boolean = (t) => LIVE_STATUSES.includes(t.status)): Resolution<T> {
  const byRecency = [...tasks].sort((a, b) => b.lastActivityAt.getTime() - a.lastActivityAt.getTime());
  if (isDeictic(ref)) {
    const preferred = byRecency.filter(prefer);
    if (preferred.length === 1) return { kind: 'one', task: preferred[0]! };
    return preferred.length ? { kind: 'several', tasks: preferred.slice(0, 5) } : { kind: 'none' };
  }
  const named = byRecency.map((t) => ({ t, ...matchTask(ref, t) })).filter((s) => s.covered && s.score > 0);
  // "Stop the video" means the live one, however well a finished video task matches.
  const preferred = named.filter((s) => prefer(s.t));
  const scored = (preferred.length ? preferred : named).sort((a, b) => b.score - a.score);
  if (!scored.length) return { kind: 'none' };
  const best = scored[0]!.score;
  const top = scored.filter((s) => s.score === best).map((s) => s.t);
  return top.length === 1 ? { kind: 'one', task: top[0]! } : { kind: 'several', tasks: top.slice(0, 5) };
}
