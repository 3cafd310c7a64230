// The offline model's creative flows: explicit rules, no reasoning, no randomness. With no model
// configured a new user can still explore the whole product: the offline model recognises the class
// of a request (classify: vocabularies per class and language, en/de/fr/es/zh/ja, and a count
// parser) and plans a checklist for it — a poster or image series of any count, a single image, a
// video (storyboard, confirmation, shots), an image turned into a video, a document (storyboard,
// brief, text), a 3D model or a sound; calls the generation tools; stops at checkpoints with cards;
// follows a change of direction by re-opening the steps it touches (its document is read, then
// edited, never copied); and delivers. Every text it writes says it is the offline model. It reads
// only what the runtime gives every model: the task brief, the conversation and the "[task state]"
// block (runtime/checklist.ts renderChecklist).
import type { BaseMessage } from '@langchain/core/messages';
import { detectLanguage } from '../../domain/language.ts';
import { messageText } from './types.ts';

export type FlowCall = { name: string; args: Record<string, unknown> };
export type FlowReply = { content: string; calls: FlowCall[] };

const TAG = '[offline model]';
const GENERATION = new Set(['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D']);
const TOOL_FOR: Record<string, string> = { IMAGE: 'generate_image', VIDEO: 'generate_video', AUDIO: 'generate_audio', MODEL_3D: 'generate_3d_model' };

type Item = { n: number; status: string; title: string; id: string; kind: string; count: number; needsUser: boolean; ordered: number; results: string[] };

/** Parses the checklist lines of the "[task state]" block. */
export function parseChecklist(text: string): Item[] | null {
  if (!text.includes('[checklist v')) return null;
  const items: Item[] = [];
  const re = /^(\d+)\. \[(\w+)\] (.*?) \(id ([^,]+), ([A-Z_0-9]+)(?: ×(\d+))?(, needs the user)?(?:, ordered (\d+))?\)(?: results: ([^—\n]*))?/gm;
  for (const m of text.matchAll(re)) {
    items.push({
      n: Number(m[1]),
      status: m[2]!,
      title: m[3]!,
      id: m[4]!,
      kind: m[5]!,
      count: Number(m[6] ?? 1),
      needsUser: !!m[7],
      ordered: Number(m[8] ?? 0),
      results: (m[9] ?? '').split(',').map((r) => r.trim()).filter(Boolean),
    });
  }
  return items;
}

export type Plan = { kind: string; items: { title: string; kind: string; count?: number }[]; subject: string };

// ---------------------------------------------------------------------------------------------------
// Request classes. The offline model recognises what is asked for from vocabularies per class and
// language (en, de, fr, es, zh, ja) and a count parser — never from whole phrases:
//   1. find every cue in the text (a noun of a class, a verb of a class, a 3D marker, a series word);
//   2. an image turned into a video (animate + this image; image → into/zu/en → video; from a
//      photo … a video; 把照片做成视频; 写真を動画に) is its own class;
//   3. otherwise the head of the request decides: in Latin-script text the first cue outside a topic
//      phrase ("for a film festival", "über die Bäckerei", "pour le concert"), with English and
//      German compounds read head-last ("music video", "Filmplakat"); in Chinese and Japanese,
//      head-final, the last cue; verbs (paint, zeichne, 画, 書いて) only when no noun is there;
//   4. the count bound to the head noun ("three posters", "drei Plakate", "四张海报", "ポスターを3枚"),
//      or a vague quantity ("a few", "ein paar", "quelques", "varios", "几张", "何枚か") → 3.

type Cls = 'image' | 'audio' | 'model3d' | 'video' | 'document';
type Role = 'noun' | 'verb' | 'series' | 'storyboard' | 'none';
type Cue = { cls: Cls | null; role: Role; start: number; end: number; plural: boolean };

/**
 * Vocabulary entries. Latin script: `word` exact; `word~` with an inflection of up to three letters;
 * `word*` any ending; a leading `-` also as the head of a compound (Titelbild, Werbeclip); `_`
 * between words matches a space or a hyphen; `!` marks a plural form; `@fr,es` limits a word that
 * means something else elsewhere to those languages (French "son" is a sound, English "son" is not).
 * Chinese and Japanese entries are plain strings. Where matches overlap the longest wins (動画 is not
 * 画, 絵コンテ is not 絵, "texture" is not "text").
 */
type Vocab = { cls: Cls | null; role: Role; words: string };
const VOCAB: Vocab[] = [
  // --- image
  {
    cls: 'image',
    role: 'noun',
    words: `image~ picture~ photo~ photograph~ illustration~ drawing~ painting~ sketch~ poster~ print~ logo~ icon icons! banner~ flyer~
      artwork~ wallpaper~ portrait~ sticker~ postcard~ graphic~ cover~ thumbnail~ visual~ mascot~ emblem~ clipart texture~
      -bild~ -foto~ zeichnung~ gemälde~ -plakat~ -poster~ -grafik~ skizze~ porträt~ -logo~ titelbild~
      dessin~ affiche~ peinture~ visuel~ croquis portrait~ vignette~
      imagen imágenes! fotografía~ ilustración ilustraciones! dibujo~ cartel~ póster~ afiche~ pintura~ cuadro~ retrato~ logotipo~
      图片 图像 照片 相片 插画 插图 海报 画作 绘画 壁纸 图标 标志 封面 漫画 头像 图
      画像 写真 イラスト ポスター 絵 ロゴ アイコン 壁紙 表紙 バナー チラシ`,
  },
  { cls: 'image', role: 'verb', words: `paint draw sketch illustrate photograph zeichne* male@de malen@de skizziere* illustriere* dessine* peins peindre illustre* dibuja* pinta* píntame ilustra 画 描いて 描く 描き` },
  // --- audio
  {
    cls: 'audio',
    role: 'noun',
    words: `audio sound~ soundtrack~ tune~ jingle~ song~ music~ melody melodies! ringtone~ lullaby lullabies! chime~ anthem~ sfx bgm
      -musik~ -melodie~ lied~ -lieder! -song~ -jingle~ klang~ klänge! -sound~ hörspiel~
      musique~ mélodie~ chanson~ son@fr sons@fr bruitage~ berceuse~ sonnerie~
      música~ musica~ melodía~ canción canciones! sonido~ cancioncita nana@es
      音乐 歌曲 乐曲 曲子 旋律 音效 配乐 铃声 声音 音频 主题曲 曲 歌
      音楽 メロディー メロディ ジングル 効果音 サウンド 着信音 通知音 音声 音`,
  },
  // --- 3D
  {
    cls: 'model3d',
    role: 'noun',
    words: `3d 3_d gltf glb mesh~ low_poly lowpoly three_dimensions three_dimensional model~ sculpture~
      -modell~ dreidimensional~ modelliere* drei_dimensionen
      modèle~ modélise* trois_dimensions tridimensionnel~
      modelo~ modela modelar modelado tres_dimensiones tridimensional~
      模型 三维 立体 三次元 3次元 モデル モデリング スカルプト`,
  },
  // --- video
  {
    cls: 'video',
    role: 'noun',
    words: `video~ clip~ film~ movie~ animation~ trailer~ teaser~ reel~ footage timelapse time_lapse
      -video~ -clip~ -film~ -spot~@de zeichentrick*
      vidéo~ court_métrage bande_annonce spot~@fr,es
      vídeo~ película~ cortometraje~ animación animaciones tráiler~
      视频 短片 影片 动画 宣传片 电影 片子 微电影 广告片 录像
      動画 ビデオ 映像 アニメーション アニメ ムービー 映画 クリップ`,
  },
  // --- documents (a storyboard is a document with a confirmation after it)
  {
    cls: 'document',
    role: 'noun',
    words: `brief~ briefing~ script~ text~ copywriting tagline~ slogan~ description~ screenplay~ outline~ poem~ lyrics article~ essay~ caption~ headline~ document~ treatment~
      -text~ drehbuch~ skript~ gedicht~ beschreibung~ artikel~ konzept~
      texte~ scénario~ poème~ rédaction
      texto~ guion~ guión descripción eslogan~ artículo~ poema~
      文案 简报 脚本 剧本 文章 大纲 说明 文本 文字
      文章 テキスト コピー キャッチコピー 台本 企画書 ブリーフ 説明文 記事 コピー文`,
  },
  { cls: 'document', role: 'storyboard', words: `storyboard~ scénarimage~ guion_gráfico guiones_gráficos 分镜 故事板 絵コンテ ストーリーボード` },
  { cls: 'document', role: 'verb', words: `write draft schreib* verfasse* formuliere* rédige* écris écrire escribe* redacta* 写 撰写 書いて 書く` },
  // --- series words (their own count: 3 unless a number says otherwise)
  {
    cls: null,
    role: 'series',
    words: `-serie~ set_of collection_of range_of -reihe
      série~ ensemble_de ensemble_d collection_de
      conjunto_de juego_de colección_de
      系列 一套 一组 シリーズ セット`,
  },
  // --- words that contain a cue but are none (画面 = screen, 动画 is listed as video)
  { cls: null, role: 'none', words: `画面 计划 企画 映画館 bildschirm~ sound_design` },
];

/** Digits, number words, vague quantities (→ 3). */
const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, twelve: 12,
  ein: 1, eine: 1, einen: 1, eins: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10, zwölf: 12,
  un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, sept: 7, huit: 8, dix: 10, douze: 12,
  uno: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, doce: 12,
  a: 1, an: 1, single: 1, einzelnes: 1, seul: 1, seule: 1, solo: 1,
};
/** Several words in a row that are a count (a couple of → 2, ein paar → 3). */
const COUNT_PHRASES: [string, number][] = [
  ['half a dozen', 6], ['a dozen', 12], ['dozen', 12], ['a couple of', 2], ['couple of', 2], ['a pair of', 2], ['pair of', 2],
  ['a few', 3], ['few', 3], ['several', 3], ['multiple', 3], ['some', 3], ['various', 3], ['a number of', 3], ['a bunch of', 3], ['a handful of', 3],
  ['ein dutzend', 12], ['ein paar', 3], ['einige', 3], ['mehrere', 3], ['verschiedene', 3], ['paar', 3],
  ['une douzaine', 12], ['une paire de', 2], ['quelques', 3], ['plusieurs', 3], ['différentes', 3], ['différents', 3], ['divers', 3], ['diverses', 3],
  ['una docena', 12], ['un par de', 2], ['unos cuantos', 3], ['unas cuantas', 3], ['varios', 3], ['varias', 3], ['algunos', 3], ['algunas', 3], ['unos', 3], ['unas', 3],
];
/** Units: a number before them is a size, a length or a resolution, not a count. */
const UNITS = new Set('s sec secs second seconds minute minutes min mins hour hours px k p x percent sekunden sekunde minuten stunden secondes seconde heures segundos segundo minutos horas mm cm m'.split(' '));
const CJK_DIGITS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10, 十二: 12, 十一: 11 };
const CJK_CLASSIFIER = '张幅个套款份枚点つ本首段部支条组';
const CJK_VAGUE = /(几[张幅个款份首段部]|一些|若干|多[张幅个款]|何枚か|数枚|何点か|数点|いくつか|複数)/u;
/** "for …", "about …": a cue here is what the work is for or about, not the work itself. */
const TOPIC = new Set('for about für über zum zur pour sur para sobre acerca'.split(' '));
const DETERMINER = new Set(
  "this that the my our a an these those your his her its dieses diese dieser diesem das den dem der die mein meine meinen meinem meiner unser unsere unseren unserem ein eine einen einem einer cette ce cet la le l les ma mon mes notre nos une un esta este estas estos la el las los mi mis nuestra nuestro una un".split(' '),
);
const ANIMATE = /^(animate|animiere|animieren|anime|animez|animer|anima|animar|anímala|anímalo)$/;
const TRANSFORM = /^(turn|transform|convert|make|change|verwandle|verwandeln|wandle|mach|mache|transforme|transformer|convertis|change|fais|convierte|convertir|transforma|haz|pasa)$/;
const INTO = new Set(['into', 'zu', 'zum', 'zur']);
const INTO_WEAK = new Set(['in', 'en']);
const FROM = /^(from|aus|desde|of)$/;
const CJK_ANIMATE = /(动起来|動かして|動かす|動く|アニメ化|活起来)/u;
const CJK_INTO = /(做成|变成|转成|转换成|转为|生成|制作成|改成|に)/u;
const CJK_FROM = /^(从|用|根据|基于)/u;

const LATIN_LETTER = 'a-zà-öø-ÿœæß';
const CJK_RE = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff]/u;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type Matcher = { re: RegExp; cls: Cls | null; role: Role; plural: boolean; cjk: boolean; stem: string; langs: string[] | null };
const MATCHERS: Matcher[] = VOCAB.flatMap((v) =>
  v.words
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => matcherFor(w, v)),
);

function matcherFor(entry: string, v: Vocab): Matcher {
  const [word, langList] = entry.split('@') as [string, string | undefined];
  const langs = langList ? langList.split(',') : null;
  const plural = word.includes('!');
  let w = word.replace('!', '');
  if (CJK_RE.test(w) && !/[a-z]/.test(w)) return { re: new RegExp(escape(w), 'gu'), cls: v.cls, role: v.role, plural, cjk: true, stem: w, langs };
  const compound = w.startsWith('-') && w.length > 1;
  if (compound) w = w.slice(1);
  let tail = `(?![${LATIN_LETTER}])`;
  if (w.endsWith('~')) {
    w = w.slice(0, -1);
    tail = `[${LATIN_LETTER}]{0,3}(?![${LATIN_LETTER}])`;
  } else if (w.endsWith('*')) {
    w = w.slice(0, -1);
    tail = `[${LATIN_LETTER}]*`;
  }
  const body = w.split('_').map(escape).join('[\\s-]+');
  const head = compound ? '' : `(?<![${LATIN_LETTER}0-9])`;
  return { re: new RegExp(`${head}${body}${tail}`, 'gu'), cls: v.cls, role: v.role, plural, cjk: false, stem: w.replace(/_/g, ' '), langs };
}

/** Endings that make a Latin-script noun plural (posters, Plakate, Bilder, affiches, carteles). */
const PLURAL_ENDINGS = new Set(['s', 'es']);
/** German plurals (Plakate, Bilder, Grafiken); elsewhere these endings are not plurals (dessine). */
const PLURAL_ENDINGS_DE = new Set(['e', 'er', 'en', 'ern', 'n']);

export function normalizeRequest(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/[’'`´]/g, ' ').replace(/\s+/g, ' ').trim();
}

/** Every cue in the text; where cues overlap, the longest wins (動画 over 画, 絵コンテ over 絵). */
function findCues(t: string, lang: string): Cue[] {
  const all: Cue[] = [];
  for (const m of MATCHERS) {
    if (m.langs && !m.langs.includes(lang)) continue;
    for (const x of t.matchAll(m.re)) {
      if (!x[0]) continue;
      const word = x[0];
      // A plural: an explicit plural entry, or a Latin noun inflected like a plural.
      const ending = word.startsWith(m.stem) ? word.slice(m.stem.length) : null;
      const plural = m.plural || (!m.cjk && m.role === 'noun' && ending !== null && (PLURAL_ENDINGS.has(ending) || (lang === 'de' && PLURAL_ENDINGS_DE.has(ending))));
      all.push({ cls: m.cls, role: m.role, start: x.index!, end: x.index! + word.length, plural });
    }
  }
  all.sort((a, b) => a.start - b.start || b.end - b.start - (a.end - a.start));
  const kept: Cue[] = [];
  for (const c of all) {
    const clash = kept.find((k) => c.start < k.end && k.start < c.end);
    if (!clash) kept.push(c);
    else if (c.end - c.start > clash.end - clash.start) kept.splice(kept.indexOf(clash), 1, c);
  }
  return kept.filter((c) => c.role !== 'none').sort((a, b) => a.start - b.start);
}

type Token = { w: string; start: number; end: number };
function tokens(t: string): Token[] {
  return [...t.matchAll(new RegExp(`[${LATIN_LETTER}0-9]+`, 'gu'))].map((m) => ({ w: m[0], start: m.index!, end: m.index! + m[0].length }));
}

const tokenAt = (toks: Token[], pos: number) => toks.findIndex((k) => pos >= k.start && pos < k.end);

/** A number at token i (a digit string or a number word), or null. */
function numberAt(toks: Token[], i: number): number | null {
  const w = toks[i]?.w;
  if (!w) return null;
  if (/^\d{1,3}$/.test(w)) return Number(w);
  return NUMBER_WORDS[w] ?? null;
}

/** The count bound to the head noun at token `h` (Latin script), or null when none is given. */
function latinCount(toks: Token[], h: number, t: string): number | null {
  // "a couple of", "ein paar", "quelques" … up to four tokens before the head.
  for (let i = Math.max(0, h - 5); i < h; i++) {
    for (const [phrase, n] of COUNT_PHRASES) {
      const words = phrase.split(' ');
      if (i + words.length <= h && words.every((w, k) => toks[i + k]!.w === w)) {
        // Only when nothing but adjectives lies between the phrase and the head.
        if (h - (i + words.length) <= 3 && !toks.slice(i + words.length, h).some((x) => TOPIC.has(x.w))) return n;
      }
    }
  }
  // A number up to three tokens before the head, not followed by a unit (a 30-second clip).
  for (let i = h - 1; i >= Math.max(0, h - 4); i--) {
    const n = numberAt(toks, i);
    if (n === null) {
      if (TOPIC.has(toks[i]!.w) || /^\d/.test(toks[i]!.w)) break;
      continue;
    }
    const next = toks[i + 1]?.w ?? '';
    if (UNITS.has(next) || /^\d+(k|p|px|s)$/.test(next)) continue;
    return n; // an article counts one (a poster); classify drops it before a series or a plural
  }
  // "posters x3", "Plakate, 4 Stück".
  const after = t.slice(toks[h]!.end, toks[h]!.end + 16);
  const m = after.match(/^\W{0,3}(?:x|×)\s?(\d{1,2})\b|^\W{0,3}(\d{1,2})\s?(?:stück|pieces|unidades|exemplaires)/u);
  if (m) return Number(m[1] ?? m[2]);
  return null;
}

/** The count bound to a head noun in Chinese or Japanese text (四张海报, 海报三张, ポスターを3枚), or null. */
function cjkCount(t: string, head: Cue): number | null {
  const num = `(\\d{1,2}|十[一二]?|[一二两三四五六七八九十])`;
  const before = t.slice(Math.max(0, head.start - 12), head.start);
  const after = t.slice(head.end, head.end + 8);
  const vague = CJK_VAGUE.test(before) || CJK_VAGUE.test(after);
  const b = before.match(new RegExp(`${num}\\s?[${CJK_CLASSIFIER}](?:の)?[^${CJK_CLASSIFIER}]{0,10}$`, 'u'));
  const a = after.match(new RegExp(`^[をがはも]?\\s?${num}\\s?[${CJK_CLASSIFIER}]`, 'u'));
  const raw = (a ?? b)?.[1];
  if (raw) return /^\d+$/.test(raw) ? Number(raw) : (CJK_DIGITS[raw] ?? null);
  return vague ? 3 : null;
}

function headOf(cues: Cue[], toks: Token[], cjk: boolean, headFirst: boolean): Cue | null {
  const nouns = cues.filter((c) => c.role === 'noun' || c.role === 'storyboard');
  const pool = nouns.length ? nouns : cues.filter((c) => c.role === 'verb');
  if (!pool.length) return null;
  if (cjk) return pool.at(-1)!;
  const inTopic = (c: Cue) => {
    const i = tokenAt(toks, c.start);
    for (let k = i - 1; k >= Math.max(0, i - 3); k--) if (TOPIC.has(toks[k]!.w)) return true;
    return false;
  };
  const free = pool.filter((c) => !inTopic(c));
  const list = free.length ? free : pool;
  // Several cues in one word: the compound's last part is its head (Filmplakat, Musikvideo).
  let head = list[0]!;
  const ti = tokenAt(toks, head.start);
  for (const c of list) if (tokenAt(toks, c.start) === ti && c.start > head.start) head = c;
  if (!headFirst) {
    // English and German noun compounds written apart: the last noun leads ("music video").
    for (;;) {
      const i = tokenAt(toks, head.end - 1);
      const next = list.find((c) => tokenAt(toks, c.start) === i + 1 && c.role !== 'verb');
      if (!next || head.role === 'verb') break;
      head = next;
    }
  }
  return head;
}

/** "Animate this image", "turn the picture into a clip", "把照片做成视频", "写真を動画に". */
function imageToVideo(t: string, cues: Cue[], toks: Token[], cjk: boolean): boolean {
  const images = cues.filter((c) => c.cls === 'image' && (c.role !== 'verb' || cjk));
  const videos = cues.filter((c) => c.cls === 'video' && c.role === 'noun');
  if (!images.length) return false;
  if (cjk) {
    const img = images[0]!;
    if (CJK_ANIMATE.test(t.slice(img.end))) return true;
    const vid = videos.find((v) => v.start > img.start);
    if (vid && (CJK_INTO.test(t.slice(img.end, vid.start)) || /^に/.test(t.slice(vid.end)) || /[把将]/.test(t.slice(0, img.start)))) return true;
    if (vid && /から/.test(t.slice(img.end, vid.start))) return true;
    if (videos.length && CJK_FROM.test(t.slice(Math.max(0, img.start - 4), img.start).replace(/这张|这幅|那张|我的/g, ''))) return true;
    return false;
  }
  const idx = images.map((c) => tokenAt(toks, c.start));
  // animate + this/the/my … + image
  for (let i = 0; i < toks.length - 1; i++) {
    if (!ANIMATE.test(toks[i]!.w) || !DETERMINER.has(toks[i + 1]!.w)) continue;
    if (idx.some((j) => j > i && j - i <= 4)) return true;
  }
  if (!videos.length) return false;
  const vidx = videos.map((c) => tokenAt(toks, c.start));
  const verb = toks.some((k) => TRANSFORM.test(k.w));
  for (const j of idx) {
    // from a photo … a video / ein Video aus dem Foto
    for (let k = j - 1; k >= Math.max(0, j - 3); k--) {
      if (FROM.test(toks[k]!.w) && (toks[k]!.w !== 'of' || toks[k - 1]?.w === 'out') && vidx.length) return true;
      // à partir de / a partir de
      if (/^(de|d)$/.test(toks[k]!.w) && toks[k - 1]?.w === 'partir' && /^(à|a)$/.test(toks[k - 2]?.w ?? '')) return true;
      if (!DETERMINER.has(toks[k]!.w) && !FROM.test(toks[k]!.w)) break;
    }
    // the photo … into … a video
    for (const v of vidx) {
      if (v <= j || v - j > 10) continue;
      const mid = toks.slice(j + 1, v).map((k) => k.w);
      if (mid.some((w) => INTO.has(w))) return true;
      if (verb && mid.some((w) => INTO_WEAK.has(w))) return true;
    }
  }
  return false;
}

const clampN = (n: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, n));

/** What the user asked for: a plan by class (see the vocabularies above), or null. Pure. */
export function classify(request: string): Plan | null {
  const subject = request.replace(/\s+/g, ' ').trim().slice(0, 160);
  const t = normalizeRequest(request);
  if (!t) return null;
  const lang = detectLanguage(request).language;
  const cues = findCues(t, lang);
  if (!cues.some((c) => c.cls)) return null;
  const toks = tokens(t);
  const cjk = CJK_RE.test(t);
  const headFirst = ['fr', 'es', 'it', 'pt'].includes(lang);

  if (imageToVideo(t, cues, toks, cjk)) {
    return { kind: 'image-to-video', subject, items: [{ title: 'Reference image', kind: 'IMAGE' }, { title: 'Video from the image', kind: 'VIDEO' }] };
  }
  const head = headOf(cues.filter((c) => c.cls), toks, cjk, headFirst);
  if (!head) return null;
  const hi = cjk ? -1 : tokenAt(toks, head.start);
  const series = cues.some((c) => c.role === 'series');
  let explicit = head.role === 'verb' ? null : cjk ? cjkCount(t, head) : latinCount(toks, hi, t);
  // "a series of posters", "una serie de pósteres", "一套插画", "a couple posters": the article is no count.
  if (explicit === 1 && (series || head.plural)) explicit = null;
  const count = explicit ?? (series || head.plural ? 3 : 1);

  switch (head.cls) {
    case 'image': {
      if (count < 2) return { kind: 'image', subject, items: [{ title: 'Image', kind: 'IMAGE' }] };
      const n = clampN(count, 2, 12);
      const noun = /poster|plakat|affiche|cartel|póster|afiche|海报|ポスター/u.test(t.slice(head.start, head.end)) ? 'Poster' : 'Image';
      return {
        kind: noun === 'Poster' ? 'poster-series' : 'image-series',
        subject,
        items: [
          { title: 'Look candidates', kind: 'IMAGE', count: 3 },
          { title: 'Pick a direction', kind: 'CHECKPOINT' },
          ...Array.from({ length: n }, (_, i) => ({ title: `${noun} ${i + 1}`, kind: 'IMAGE' })),
        ],
      };
    }
    case 'audio': {
      const n = clampN(count, 1, 12);
      return { kind: 'audio', subject, items: [{ title: 'Audio clip', kind: 'AUDIO', ...(n > 1 ? { count: n } : {}) }] };
    }
    case 'model3d': {
      const n = clampN(count, 1, 12);
      return { kind: '3d', subject, items: [{ title: '3D model', kind: 'MODEL_3D', ...(n > 1 ? { count: n } : {}) }] };
    }
    case 'video': {
      const shots = explicit !== null && explicit >= 2 ? clampN(explicit, 2, 8) : 3;
      return {
        kind: 'video',
        subject,
        items: [
          { title: 'Storyboard', kind: 'DOCUMENT' },
          { title: 'Confirm the storyboard', kind: 'CHECKPOINT' },
          ...Array.from({ length: shots }, (_, i) => ({ title: `Shot ${i + 1}`, kind: 'VIDEO' })),
        ],
      };
    }
    case 'document': {
      if (head.role === 'storyboard' || cues.some((c) => c.role === 'storyboard')) {
        return { kind: 'storyboard', subject, items: [{ title: 'Storyboard', kind: 'DOCUMENT' }, { title: 'Confirm the storyboard', kind: 'CHECKPOINT' }] };
      }
      const brief = /brief|简报|ブリーフ|企画書/u.test(t);
      return { kind: 'document', subject, items: [{ title: brief ? 'Brief' : 'Text', kind: 'DOCUMENT' }] };
    }
    default:
      return null;
  }
}

/** A plan's steps as "KIND×count …" (what the tests compare). */
export function planSteps(plan: Plan): string {
  return plan.items.map((i) => `${i.kind}${(i.count ?? 1) > 1 ? `×${i.count}` : ''}`).join(' ');
}

const isUserText = (s: string) => /^\[(message|revise|add context) from the user\]/.test(s);
const CHANGE = /\b(instead|rather|change|make it|actually|switch to|stattdessen|doch lieber|ändere|lieber|plutôt)\b/i;

/** The document a step writes, from a fixed template by its title (storyboard, brief, text). */
function documentText(title: string, subject: string, direction: string | null): string {
  const line = `Direction: ${direction ?? 'as briefed'}`;
  if (/storyboard/i.test(title)) {
    const shots = [
      ['Establishing shot', 'wide, slow push-in; sets the place and the mood', '4 s'],
      ['The subject', 'medium shot; the main action', '4 s'],
      ['Closing image', 'close-up, hold; the line or logo', '3 s'],
    ];
    return [`# Storyboard — ${subject}`, line, ...shots.map(([h, what, d], i) => `## Shot ${i + 1}: ${h}\n${what} (${d})`), `(${TAG} written from a fixed template)`].join('\n\n');
  }
  if (/brief/i.test(title)) {
    return [`# Brief — ${subject}`, line, '## Goal\nWhat the work must achieve.', '## Audience\nWho it is for.', '## Tone\nHow it should feel.', '## Deliverables\nWhat is delivered, in which formats.', `(${TAG} written from a fixed template)`].join('\n\n');
  }
  return [`# ${title} — ${subject}`, line, `A first draft for: ${subject}.`, `(${TAG} written from a fixed template)`].join('\n\n');
}

type DocResult = { ok?: boolean; objectId?: string; kind?: string; version?: number; content?: { markdown?: string }; error?: { code?: string } };

/** The id of a document this task wrote (create_document's result in the conversation), or null. */
function writtenDocument(texts: { type: string; text: string }[]): string | null {
  for (const m of texts) {
    if (m.type !== 'tool') continue;
    const r = safeJson(m.text)?.result as DocResult | undefined;
    if (r?.ok && r.kind === 'DOCUMENT' && r.objectId && r.content === undefined) return r.objectId;
  }
  return null;
}

/**
 * The next step of a flow, or null when the rules have nothing to say (the caller falls back to
 * its plain offline answer).
 */
export function offlineFlowReply(messages: readonly BaseMessage[], toolNames: readonly string[]): FlowReply | null {
  if (!toolNames.includes('plan_checklist')) return null;
  const texts = messages.map((m) => ({ type: m.type, text: messageText(m) }));
  const brief = texts.find((m) => m.type === 'human' && m.text.startsWith('Task:'))?.text ?? '';
  const stateText = [...texts].reverse().find((m) => m.type === 'human' && m.text.startsWith('[task state]'))?.text ?? '';
  const items = parseChecklist(stateText);
  const lastAi = texts.map((m) => m.type).lastIndexOf('ai');
  const since = texts.slice(lastAi + 1);
  const userWords = texts.filter((m) => m.type === 'human' && isUserText(m.text)).map((m) => m.text.replace(/^\[[^\]]+\]\s*/, ''));
  const freshUser = since.filter((m) => m.type === 'human' && isUserText(m.text)).map((m) => m.text);
  const toolResults = since.filter((m) => m.type === 'tool').map((m) => safeJson(m.text));
  const subject = (brief.match(/^Task: (.*)$/m)?.[1] ?? '').trim();
  const goal = (brief.match(/^Goal: (.*)$/m)?.[1] ?? '').trim();
  const revisions = texts.filter((m) => m.type === 'human' && (/^\[revise from the user\]/.test(m.text) || (isUserText(m.text) && CHANGE.test(m.text))));
  const direction = revisions.length ? revisions.at(-1)!.text.replace(/^\[[^\]]+\]\s*/, '') : null;

  // 1. No plan yet: plan one from the request, if the rules recognise it.
  if (!items || items.length === 0) {
    if (toolResults.some((r) => r?.status === 'FAILED')) return null; // the plan was refused: answer plainly
    // The user's first message (the goal) says what is asked; the title and later words if it does not.
    const plan = classify(goal) ?? classify(subject) ?? classify(userWords.join(' '));
    if (!plan) return null;
    return {
      content: `${TAG} Planning: ${plan.kind.replace(/-/g, ' ')}, from fixed rules.`,
      calls: [{ name: 'plan_checklist', args: { items: plan.items, reason: `offline plan (${plan.kind})` } }],
    };
  }

  // 2. A declined plan: ask what to change instead of guessing.
  const declined = toolResults.find((r) => r?.status === 'DONE' && (r.result as { status?: string })?.status === 'REJECTED');
  if (declined) {
    return { content: TAG, calls: [{ name: 'ask_user', args: { kind: 'ADJUST', question: `${TAG} The plan was declined. What should I change?` } }] };
  }

  // 3. A change of direction just arrived: re-open the generated steps it touches.
  if (freshUser.some((t) => /^\[revise from the user\]/.test(t) || CHANGE.test(t))) {
    // Generated steps, and a document this task wrote (the storyboard follows the new direction too).
    const touched = items.filter(
      (i) => (GENERATION.has(i.kind) && (i.status === 'DONE' || i.status === 'IN_PROGRESS' || i.ordered > 0) && !/candidate/i.test(i.title)) || (i.kind === 'DOCUMENT' && i.status === 'DONE'),
    );
    if (touched.length) {
      const ids = new Set(touched.map((i) => i.id));
      return {
        content: `${TAG} Change of direction: re-opening ${touched.map((i) => i.title).join(', ')}.`,
        calls: [
          {
            name: 'plan_checklist',
            args: {
              items: items.map((i) => ({ id: i.id, title: i.title, kind: i.kind, count: i.count, ...(ids.has(i.id) ? { reopen: true } : {}) })),
              reason: `change of direction: ${direction ?? 'revised'}`.slice(0, 500),
            },
          },
        ],
      };
    }
  }

  const open = items.filter((i) => i.status === 'TODO' || i.status === 'IN_PROGRESS');
  if (open.length === 0) {
    const done = items.filter((i) => i.status === 'DONE');
    return {
      content: `${TAG} All steps are done.`,
      calls: [{ name: 'complete_task', args: { summary: `${TAG} Delivered: ${done.map((i) => `${i.title}${i.results.length ? ` (${i.results.join(', ')})` : ''}`).join('; ')}` } }],
    };
  }
  const first = open[0]!;
  const chosen = texts
    .filter((m) => m.type === 'tool')
    .map((m) => safeJson(m.text)?.result as { decision?: string; choice?: string | null; choiceLabel?: string | null } | undefined)
    .filter((r) => r?.decision === 'APPROVED' && r.choice)
    .map((r) => r!.choiceLabel ?? r!.choice)
    .at(-1);
  const style = chosen ? ` — in the look of ${chosen}` : '';
  const dir = direction ? ` — ${direction}` : '';

  if (GENERATION.has(first.kind)) {
    // This step and the open generation steps right after it (no checkpoint between) go together.
    const batch: Item[] = [];
    for (const i of open.slice(open.indexOf(first))) {
      // Same kind only: a step of another kind may build on this one (a video from the image).
      if (!GENERATION.has(i.kind) || i.needsUser || (batch.length && i.kind !== batch[0]!.kind)) break;
      if (batch.length && i.n !== batch.at(-1)!.n + 1) break;
      batch.push(i);
    }
    const calls: FlowCall[] = [];
    for (const i of batch) {
      // Results already ordered (still generating) count: never order the same result twice.
      const missing = Math.max(0, i.count - Math.max(i.results.length, i.ordered));
      for (let k = 0; k < missing; k++) {
        const variant = i.count > 1 ? ` (variant ${i.results.length + k + 1} of ${i.count})` : '';
        // Consistency: a later generation starts from the pick of the latest earlier checkpoint (the
        // chosen candidate), else from the latest earlier result (e.g. the cat photo).
        const earlier = [...items].reverse().filter((p) => p.n < i.n && p.results.length);
        const ref = (earlier.find((p) => p.kind === 'CHECKPOINT') ?? earlier.find((p) => GENERATION.has(p.kind)))?.results[0];
        calls.push({
          name: TOOL_FOR[i.kind]!,
          args: { prompt: `${subject}: ${i.title}${variant}${style}${dir}`.slice(0, 4000), checklistItemId: i.id, ...(ref ? { referenceId: ref } : {}) },
        });
      }
    }
    if (calls.length) return { content: `${TAG} Generating ${batch.map((i) => i.title).join(', ')}.`, calls };
  }
  if (first.kind === 'CHECKPOINT') {
    const candidates = [...items].reverse().find((i) => i.n < first.n && GENERATION.has(i.kind) && i.results.length >= 2);
    if (candidates) {
      return {
        content: TAG,
        calls: [
          {
            name: 'ask_user',
            args: {
              kind: 'CHOOSE',
              question: `${TAG} ${first.title}: which one should the rest follow?`,
              itemId: first.id,
              options: candidates.results.map((r, k) => ({ id: `c${k + 1}`, label: `Candidate ${k + 1}`, objectId: r.startsWith('object:') ? r.slice(7) : null })),
            },
          },
        ],
      };
    }
    return { content: TAG, calls: [{ name: 'ask_user', args: { kind: 'CONFIRM', question: `${TAG} ${first.title} — shall I go on?`, itemId: first.id } }] };
  }
  if (first.kind === 'DOCUMENT') {
    const done: FlowCall = { name: 'update_checklist', args: { itemId: first.id, status: 'DONE', evidence: `${TAG} written from a template` } };
    const docId = writtenDocument(texts);
    if (!docId || !toolNames.includes('read_object') || !toolNames.includes('edit_document')) {
      const text = documentText(first.title, subject, direction);
      const write: FlowCall = toolNames.includes('create_document')
        ? { name: 'create_document', args: { name: `${first.title} — ${subject}`.slice(0, 200), markdown: text } }
        : { name: 'add_note', args: { text: text.slice(0, 2000) } };
      return { content: `${TAG} Writing the ${first.title.toLowerCase()} from a template.`, calls: [write, done] };
    }
    // The step was re-opened (a change of direction) and its document exists: one document, read
    // before it is written, and only the direction line changed (others' edits are kept).
    const last = toolResults.at(-1)?.result as DocResult | undefined;
    if (last?.ok && last.objectId === docId && last.content === undefined) {
      return { content: `${TAG} The ${first.title.toLowerCase()} follows the new direction.`, calls: [{ ...done, args: { ...done.args, evidence: `${TAG} updated for the new direction` } }] };
    }
    if (last?.ok && last.objectId === docId && typeof last.content?.markdown === 'string') {
      const markdown = last.content.markdown;
      const lines = markdown.split('\n').filter((l) => l.startsWith('Direction:'));
      const next = `Direction: ${direction ?? 'as briefed'}`;
      const call: FlowCall =
        lines.length === 1 && markdown.split(lines[0]!).length === 2
          ? { name: 'edit_document', args: { objectId: docId, baseVersion: last.version, edits: [{ find: lines[0]!, replace: next }] } }
          : { name: 'write_object', args: { objectId: docId, baseVersion: last.version, content: { markdown: `${markdown.trimEnd()}\n\n${next}\n` } } };
      return { content: `${TAG} Updating the ${first.title.toLowerCase()} for the new direction.`, calls: [call] };
    }
    return { content: `${TAG} Reading the ${first.title.toLowerCase()} before changing it.`, calls: [{ name: 'read_object', args: { objectId: docId } }] };
  }
  return { content: TAG, calls: [{ name: 'update_checklist', args: { itemId: first.id, status: 'DONE', evidence: `${TAG} nothing to generate for this step` } }] };
}

function safeJson(s: string): { status?: string; result?: unknown; error?: string } | null {
  try {
    return JSON.parse(s) as { status?: string; result?: unknown };
  } catch {
    return null;
  }
}
