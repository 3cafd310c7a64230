// Lexical matching that works across scripts: words for alphabetic languages, character bigrams for
// CJK (which has no spaces), shared concepts for the creative vocabulary across languages (poster,
// Plakat, affiche, cartel, 海报, ポスター all carry the concept "poster"), numbers and ordinals as one
// token ("the second poster" ~ "poster 2"), and typo tolerance (a word one or two edits away from a
// word of the task counts, a little less). Pure and deterministic.

export const CJK = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/;
const CJK_G = /[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]/gu;

const fold = (w: string) => w.normalize('NFD').replace(/[\u0300-\u036f]/g, '').replace(/ß/g, 'ss');

const STOP = new Set(
  (
    'a an the and or of to in on for with at by from is are was be it its this that these those me my you your we our us i ' +
    'can could would should will please pls make do did does again now just some more one ones also then there here what which how new version ' +
    'let lets so if as into not but all any has have had get got need needs want like use ' +
    // request verbs: a task's title is often the request that started it ("Design a poster …")
    'design create draw generate produce build draft erstelle erstell gestalte entwirf zeichne cree creer dessine disena crea haz hazme genera dibuja ' +
    'der die das den dem des ein eine einen einem einer und oder mit für von vom zu zum zur im in auf ist sind bitte mach mache noch mal jetzt auch ' +
    'wir ich du dir mir uns beim bei am an aus nach über es sie er kannst kann soll hat hab habe haben sich geht ins muss wird war weiter s ve ll re d ' +
    ' le la les un une des et ou de du au aux pour avec est ce cette tu te peux me moi je on en sur dans qui que il elle ai a avons l d qu faire fais ' +
    'el los las y o para con es por del al lo se una porfa puedes que mi me te ha he hemos ya'
  )
    .split(/\s+/)
    .map(fold),
);

/** Lower case, NFKC, Latin diacritics folded ("vidéo" = "video"; Japanese voicing marks are kept), punctuation to spaces. */
export function normalize(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFKC')
    .replace(/https?:\/\/\S+/g, ' ')
    // A video call is a meeting, not a video.
    .replace(/\bvideo[- ]?(call|calls|conference|meeting|chat)\b/g, 'videocall')
    .replace(/[a-zà-öø-ÿ]+/g, fold)
    .replace(/[^\p{L}\p{N}\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Light stemming so "posters" matches "poster" and "Plakate" matches "Plakat". */
export function stem(w: string): string {
  for (const suf of ['ungen', 'ung', 'en', 'es', 'er', 'e', 's']) {
    if (w.length > suf.length + 3 && w.endsWith(suf)) return w.slice(0, -suf.length);
  }
  return w;
}

/**
 * The creative vocabulary across languages: each concept and its words (folded, lower case) in
 * EN, DE, FR, ES, IT/PT where they coincide, and its CJK spellings (matched as substrings). A German
 * compound ending in a word of the list ("Hochzeitsvideo", "Jahresbericht") carries the concept too.
 */
const CONCEPTS: Record<string, { words: string[]; cjk: string[] }> = {
  poster: { words: ['poster', 'plakat', 'affiche', 'cartel', 'cartels', 'carteles', 'manifesto'], cjk: ['海报', '海報', 'ポスター'] },
  video: {
    words: ['video', 'film', 'clip', 'reel', 'reels', 'trailer', 'teaser', 'movie', 'filmchen', 'spot'],
    cjk: ['视频', '視頻', '短视频', '影片', '短片', '宣传片', '故事片', '纪录片', '動画', 'ビデオ', 'ムービー', '映像'],
  },
  logo: { words: ['logo', 'logos', 'logotipo', 'logotype', 'wordmark', 'signet'], cjk: ['标志', '商标', 'ロゴ'] },
  icon: { words: ['icon', 'icons', 'icone', 'icono', 'iconos', 'ikone', 'piktogramm', 'pictogramme'], cjk: ['图标', '圖標', 'アイコン'] },
  label: { words: ['label', 'labels', 'etikett', 'etiquette', 'etiqueta', 'etiquetas', 'etichetta'], cjk: ['标签', '標籤', 'ラベル'] },
  menu: { words: ['menu', 'menus', 'speisekarte', 'getrankekarte', 'carta'], cjk: ['菜单', '菜單', 'メニュー', '品書き'] },
  deck: {
    words: ['deck', 'slides', 'slide', 'presentation', 'ppt', 'pptx', 'powerpoint', 'keynote', 'prasentation', 'folien', 'diapositivas', 'presentacion', 'diapos'],
    cjk: ['演示', '幻灯片', '幻燈片', 'スライド', 'プレゼン', '資料'],
  },
  brochure: { words: ['brochure', 'broschure', 'booklet', 'plaquette', 'folleto', 'triptico', 'depliant', 'prospekt'], cjk: ['手册', '宣传册', '画册', 'パンフレット', '冊子'] },
  flyer: { words: ['flyer', 'flyers', 'leaflet', 'handzettel', 'flugblatt', 'tract', 'volante', 'octavilla'], cjk: ['传单', '單張', 'チラシ', 'フライヤー'] },
  banner: { words: ['banner', 'banners', 'banniere', 'pancarta', 'header'], cjk: ['横幅', '横幅广告', 'バナー'] },
  sticker: { words: ['sticker', 'stickers', 'aufkleber', 'autocollant', 'pegatina', 'adesivo'], cjk: ['贴纸', '貼紙', 'ステッカー', 'スタンプ'] },
  invitation: { words: ['invitation', 'invite', 'einladung', 'invitacion', 'faire part'], cjk: ['邀请函', '请柬', '招待状'] },
  calendar: { words: ['calendar', 'kalender', 'calendrier', 'calendario'], cjk: ['日历', '挂历', '月历', 'カレンダー'] },
  report: { words: ['report', 'bericht', 'rapport', 'informe', 'memoria', 'jahresbericht'], cjk: ['报告', '年报', '報告', 'レポート'] },
  newsletter: { words: ['newsletter', 'infolettre', 'boletin', 'rundbrief'], cjk: ['简报', '通讯', 'ニュースレター', 'メルマガ'] },
  catalogue: { words: ['catalogue', 'catalog', 'katalog', 'catalogo'], cjk: ['目录', '產品冊', 'カタログ'] },
  photo: { words: ['photo', 'photos', 'foto', 'fotos', 'photograph', 'bild', 'bilder', 'imagen', 'image', 'picture'], cjk: ['照片', '图片', '相片', '写真', '画像'] },
  scene3d: { words: ['3d', 'render', 'rendering', 'renders', 'rendu', 'szene', 'scene', 'escena'], cjk: ['效果图', '渲染', '三维', 'レンダリング', '3dcg'] },
  // Sound as a piece of work of its own (not the music or sound of a video: those words stay out).
  audio: {
    words: ['jingle', 'jingles', 'song', 'songs', 'tune', 'melody', 'soundtrack', 'podcast', 'lied', 'horspot', 'chanson', 'cancion', 'cuna', 'radio spot', 'radio ad'],
    cjk: ['歌曲', '铃声', '广播广告', 'ジングル', '楽曲'],
  },
  packaging: { words: ['packaging', 'package', 'verpackung', 'emballage', 'envase', 'embalaje', 'box', 'schachtel'], cjk: ['包装', '礼盒', 'パッケージ'] },
};

const WORD_CONCEPT = new Map<string, string>();
const COMPOUND_TAILS: [string, string][] = [];
/** Forms of more than one word ("faire part"), matched in the normalized text. */
const PHRASES: [RegExp, string][] = [];
for (const [concept, { words }] of Object.entries(CONCEPTS)) {
  for (const w of words) {
    if (w.includes(' ')) {
      PHRASES.push([new RegExp(`\\b${w}\\b`), concept]);
      continue;
    }
    WORD_CONCEPT.set(w, concept);
    WORD_CONCEPT.set(stem(w), concept);
    if (w.length >= 4) COMPOUND_TAILS.push([w, concept]);
  }
}

function conceptOfWord(w: string): string | undefined {
  const direct = WORD_CONCEPT.get(w) ?? WORD_CONCEPT.get(stem(w));
  if (direct) return direct;
  // A compound ("hochzeitsvideo", "wintersale-banner" written as one word, "jahresbericht").
  for (const [tail, concept] of COMPOUND_TAILS) {
    if (w.length >= tail.length + 3 && (w.endsWith(tail) || stem(w).endsWith(tail))) return concept;
  }
  return undefined;
}

/**
 * The words that qualify a kind of work in a text ("autumn fair" in "the autumn fair posters" or
 * "the posters for the autumn fair"), stemmed: the two words before a word of the creative
 * vocabulary and the two after a "for/für/pour/para/de" that follows it, function words left out.
 */
export function kindQualifiers(text: string): string[] {
  const words = normalize(text).split(' ').filter((w) => w && !CJK.test(w));
  const out: string[] = [];
  const take = (w: string | undefined) => {
    if (w && !STOP.has(w) && w.length > 1 && !/^\d+$/.test(w) && !conceptOfWord(w)) out.push(stem(w));
  };
  words.forEach((w, i) => {
    if (!conceptOfWord(w)) return;
    take(words[i - 1]);
    if (words[i - 1] && !STOP.has(words[i - 1]!)) take(words[i - 2]);
    if (/^(for|of|fur|pour|para|de|del|du|des)$/.test(words[i + 1] ?? '')) {
      const rest = words.slice(i + 2).filter((x) => !STOP.has(x));
      take(rest[0]);
      take(rest[1]);
    }
  });
  return out;
}

/** The concepts of the creative vocabulary a text mentions, in any of the languages covered. */
export function concepts(text: string): Set<string> {
  const n = normalize(text);
  const out = new Set<string>();
  for (const word of n.split(' ')) {
    if (!word || CJK.test(word)) continue;
    const c = conceptOfWord(word);
    if (c) out.add(c);
  }
  for (const [re, c] of PHRASES) if (re.test(n)) out.add(c);
  if (CJK.test(n)) {
    const squashed = n.replace(/\s+/g, '');
    for (const [concept, { cjk }] of Object.entries(CONCEPTS)) if (cjk.some((k) => squashed.includes(k.toLowerCase()))) out.add(concept);
  }
  return out;
}

const ORDINALS: [RegExp, number][] = [
  [/^(first|1st|erste[nrs]?|premier|premiere|primer|primero|primera)$/, 1],
  [/^(second|2nd|zweite[nrs]?|deuxieme|seconde?|segundo|segunda)$/, 2],
  [/^(third|3rd|dritte[nrs]?|troisieme|tercer|tercero|tercera)$/, 3],
  [/^(fourth|4th|vierte[nrs]?|quatrieme|cuarto|cuarta)$/, 4],
  [/^(fifth|5th|funfte[nrs]?|cinquieme|quinto|quinta)$/, 5],
];
const UNIT =
  /^(pages?|seiten?|paginas?|seconds?|secs?|sekunden|secondes?|segundos?|minutes?|mins?|minuten|minutos?|hours?|stunden|heures?|horas?|days?|tage[n]?|jours?|dias?|px|cm|mm|m|kb|mb|gb|percent|prozent|x|k|words?|worter|mots|palabras|秒|分|页|頁|ページ|分钟|天|日|个|張|张|枚)$/u;
const CJK_NUM: Record<string, number> = { 一: 1, 二: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };

/** Numbers and ordinals as one token each: "#2" for "2", "second", "zweite", "第二", "2枚目". */
function numberTokens(n: string): string[] {
  const out: string[] = [];
  for (const m of n.matchAll(/(?<![a-z\d])(\d{1,4})(?![a-z\d])( \p{L}+)?/gu)) {
    // A quantity ("20 page", "30 second", "1920 px") names no part of the work.
    if (m[2] && UNIT.test(m[2].trim())) continue;
    out.push(`#${Number(m[1])}`);
  }
  const words = n.split(' ');
  // "30 second" is a length, not the second of something.
  words.forEach((word, i) => {
    if (i > 0 && /^\d+$/.test(words[i - 1]!)) return;
    for (const [re, k] of ORDINALS) if (re.test(word)) out.push(`#${k}`);
  });
  for (const m of n.matchAll(/第([一二三四五六七八九十])/gu)) out.push(`#${CJK_NUM[m[1]!]}`);
  for (const m of n.matchAll(/([一二三四五六七八九十])(?:つ目|枚目|番目|张|張|个|個)/gu)) out.push(`#${CJK_NUM[m[1]!]}`);
  return out;
}

/** Function words of Chinese and Japanese, taken out before CJK text is cut into bigrams. */
const CJK_STOP =
  /(してください|ください|お願いします|お願い|します|でした|です|ます|もう少し|ちょっと|して|一下|一点|一些|一点儿|帮我|给我|请|吧|了|的|吗|呢|把|再|那个|这个|那张|这张)/gu;

/** A Japanese particle between two words of kanji or katakana ("昨日のポスター", "背景を白に") separates them. */
const JA_PARTICLE = /(?<=[\u3400-\u4dbf\u4e00-\u9fff\u30a0-\u30ff])[のをにはがでとへもや](?=[\u3400-\u4dbf\u4e00-\u9fff\u30a0-\u30ff]|$| )/gu;

export function features(text: string): Set<string> {
  const out = new Set<string>();
  const n = normalize(text);
  for (const word of n.replace(CJK_STOP, ' ').replace(JA_PARTICLE, ' ').split(' ')) {
    if (!word) continue;
    if (CJK.test(word)) {
      const chars = [...word].filter((c) => CJK.test(c) || /\p{L}|\p{N}/u.test(c));
      for (let i = 0; i + 1 < chars.length; i++) out.add(chars[i]! + chars[i + 1]!);
      if (chars.length === 1) out.add(chars[0]!);
    } else if (/^\d+$/.test(word) || ORDINALS.some(([re]) => re.test(word))) {
      // numbers and ordinals are tokens of their own (below)
    } else if (!STOP.has(word) && word.length > 1) {
      out.add(stem(word));
    }
  }
  for (const c of concepts(text)) out.add(`§${c}`);
  for (const t of numberTokens(n)) out.add(t);
  return out;
}

/** Optimal string alignment distance (edits and transpositions), stopping early past `max`. */
export function editDistance(a: string, b: string, max = 2): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2]! + 1);
      cur.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length]!;
}

/** A word of the message that is a typo of a word of the task: same first letter, one edit (two from 8 letters). */
export function typoOf(word: string, candidate: Set<string>): boolean {
  if (word.length < 4 || word.startsWith('§') || word.startsWith('#') || CJK.test(word)) return false;
  for (const c of candidate) {
    if (c[0] !== word[0] || c.length < 4 || c.startsWith('§') || c.startsWith('#') || CJK.test(c)) continue;
    const allowed = Math.min(word.length, c.length) >= 8 ? 2 : Math.max(word.length, c.length) >= 5 ? 1 : 0;
    if (allowed && editDistance(word, c, allowed) <= allowed) return true;
  }
  return false;
}

/** The weight of a feature: longer words say more; a concept or a number says less than a word. */
export function featureWeight(f: string): number {
  if (f.startsWith('§')) return 1.5;
  if (f.startsWith('#')) return 1.5;
  return Math.min(3, 1 + f.length / 6);
}

/** A shortened word of the task ("tuto" for "tutoriel", "appli" for "application"): a prefix of four letters or more. */
export function shortFor(word: string, candidate: Set<string>): boolean {
  if (word.length < 4 || word.startsWith('§') || word.startsWith('#') || CJK.test(word)) return false;
  for (const c of candidate) if (c.length >= word.length + 3 && c.startsWith(word)) return true;
  return false;
}

/** The concept a feature (a stemmed word or a CJK bigram) belongs to, if any. */
export function conceptOfFeature(f: string): string | undefined {
  if (f.startsWith('§') || f.startsWith('#')) return undefined;
  if (!CJK.test(f)) return conceptOfWord(f);
  for (const [concept, { cjk }] of Object.entries(CONCEPTS)) if (cjk.some((k) => k.includes(f))) return concept;
  return undefined;
}

/** A feature that only says what kind of work it is (poster, Plakat, 海报, §poster): no name. */
export function isTypeFeature(f: string): boolean {
  return f.startsWith('§') || conceptOfFeature(f) !== undefined;
}

const nearCache = new WeakMap<Set<string> | Map<string, number>, Map<string, boolean>>();
/** Whether a word is a typo or a shortening of a word some task has (cached per index). */
function nearKnown(f: string, known: Set<string> | Map<string, number>): boolean {
  let cache = nearCache.get(known);
  if (!cache) nearCache.set(known, (cache = new Map()));
  let v = cache.get(f);
  if (v === undefined) {
    const keys = new Set(known.keys());
    v = typoOf(f, keys) || shortFor(f, keys);
    cache.set(f, v);
  }
  return v;
}

/** Words of a message found in no task of the index ("make", "brighter", "geht's weiter") count this much. */
const UNKNOWN_WEIGHT = 0.35;
const UNKNOWN_CJK_WEIGHT = 0.2;

/**
 * Share of the message's features found in the candidate text (0..1), weighted towards rarer,
 * longer features; a typo of a candidate's word counts 0.8, a shortened one 0.7. With `known` (the
 * features of every task in the index), a message word no task has counts less: it says what to
 * do, not which work. A concept counts only where the words themselves do not meet (Plakat and
 * poster meet through it; Plakat and Plakat need no help).
 */
export function overlap(message: Set<string>, candidate: Set<string>, known?: Set<string> | Map<string, number>): number {
  if (message.size === 0) return 0;
  let hit = 0;
  let total = 0;
  for (const f of message) {
    if (f.startsWith('§')) {
      const c = f.slice(1);
      if ([...message].some((g) => !g.startsWith('§') && candidate.has(g) && conceptOfFeature(g) === c)) continue;
    }
    const unknown = known && !known.has(f) && !nearKnown(f, known);
    // CJK bigrams across word boundaries are many and say nothing: those no task has count less still.
    // A word many tasks share ("poster", "Kunde") tells them apart less than a word of one task.
    const tasks = known instanceof Map ? (known.get(f) ?? 1) : 1;
    const w = (featureWeight(f) * (unknown ? (CJK.test(f) ? UNKNOWN_CJK_WEIGHT : UNKNOWN_WEIGHT) : 1)) / (1 + Math.log(tasks));
    total += w;
    if (candidate.has(f)) hit += w;
    else if (typoOf(f, candidate)) hit += 0.8 * w;
    else if (shortFor(f, candidate)) hit += 0.7 * w;
  }
  return hit / total;
}

/** Words of the text (CJK counted two characters to a word, as it has no spaces). */
export function wordCount(text: string): number {
  const n = normalize(text);
  const cjk = (n.match(CJK_G) ?? []).length;
  return n.replace(CJK_G, ' ').split(' ').filter(Boolean).length + Math.ceil(cjk / 2);
}

const CONNECTOR = new Set(['de', 'del', 'du', 'des', 'la', 'le', 'el', 'the', '&', 'and', 'und', 'y', 'et', 'am', 'an', 'im', 'zum', 'zur', 'von', 'of']);

/**
 * The names of clients a message speaks of: a capitalised word beside a word for a shop, practice
 * or event (`isOrganisation`), in Latin script — "Brauerei Hirschberg" → hirschberg, "Juniper
 * Climbing Gym" → juniper, climbing; "escuela de baile Compás" → compas. Normalised like features.
 */
export function clientNames(text: string, isOrganisation: (word: string) => boolean): string[] {
  const names = new Set<string>();
  for (const clause of text.split(/[.!?;:,()\n—–"“”«»]+/u)) {
    const tokens = clause.split(/\s+/).filter(Boolean).map((raw) => raw.replace(/^[^\p{L}\p{N}&]+|[^\p{L}\p{N}&]+$/gu, ''));
    const norm = tokens.map((t) => normalize(t));
    const capital = (i: number) => /^\p{Lu}\p{Ll}/u.test(tokens[i] ?? '') && !isOrganisation(norm[i]!) && features(tokens[i]!).size > 0;
    for (let i = 0; i < tokens.length; i++) {
      if (!isOrganisation(norm[i]!)) continue;
      // Walk away from the organisation word over capitalised words and the small words between
      // parts of a name; before it only those, after it also one or two lower-case words before the
      // first capital ("escuela de baile Compás"). Any other word ends the name.
      for (const step of [-1, 1]) {
        let found = false;
        let gap = 0;
        for (let j = i + step; j >= 0 && j < tokens.length; j += step) {
          if (capital(j)) {
            names.add(norm[j]!);
            found = true;
            gap = 0;
          } else if ((CONNECTOR.has(norm[j]!) || (step === 1 && !found && /^\p{Ll}/u.test(tokens[j]!))) && ++gap <= 2) {
            continue;
          } else break;
        }
      }
    }
  }
  return [...names];
}
