// Request classes, and the plan for each. The offline model recognises what is asked for from
// vocabularies per class and language (en, de, fr, es, zh, ja) and a count parser — never from
// whole phrases:
//   1. find every cue in the text (a noun of a class, a verb of a class, a 3D marker, a series word);
//   2. an image turned into a video (animate + this image; image → into/zu/en → video; from a
//      photo … a video; 把照片做成视频; 写真を動画に) is its own class;
//   3. otherwise the head of the request decides: in Latin-script text the first cue outside a topic
//      phrase ("for a film festival", "über die Bäckerei", "pour le concert"), with English and
//      German compounds read head-last ("music video", "Filmplakat"); in Chinese and Japanese,
//      head-final, the last cue; verbs (paint, zeichne, 画, 書いて) only when no noun is there;
//   4. the count bound to the head noun ("three posters", "drei Plakate", "四张海报", "ポスターを3枚"),
//      or a vague quantity ("a few", "ein paar", "quelques", "varios", "几张", "何枚か") → 3.
import { detectLanguage } from '../../../domain/language.ts';
import { cjkCount, latinCount } from './counts.ts';
import { CJK_RE, findCues, normalizeRequest, tokenAt, tokens, type Cue, type Token } from './cues.ts';
import { ANIMATE, CJK_ANIMATE, CJK_FROM, CJK_INTO, DETERMINER, FROM, INTO, INTO_WEAK, TOPIC, TRANSFORM } from './vocabulary.ts';

/** A plan's steps; `after` names (by English title) the steps whose results a step uses: the plan is a graph. */
export type Plan = { kind: string; items: { title: string; kind: string; count?: number; after?: string[] }[]; subject: string };

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

/** What the user asked for: a plan by class (see ./vocabulary.ts), or null. Pure. */
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
    return { kind: 'image-to-video', subject, items: [{ title: 'Reference image', kind: 'IMAGE' }, { title: 'Video from the image', kind: 'VIDEO', after: ['Reference image'] }] };
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
          { title: 'Pick a direction', kind: 'CHECKPOINT', after: ['Look candidates'] },
          // The series in the picked look: every poster needs the pick only, so they are made side by side.
          ...Array.from({ length: n }, (_, i) => ({ title: `${noun} ${i + 1}`, kind: 'IMAGE', after: ['Pick a direction'] })),
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
        // storyboard → character + setting → shots → final cut. The opening and the closing shot show
        // the setting only; the shots between show the character in it — so a change of the character
        // re-makes the shots it appears in and nothing else.
        items: [
          { title: 'Storyboard', kind: 'DOCUMENT' },
          { title: 'Confirm the storyboard', kind: 'CHECKPOINT', after: ['Storyboard'] },
          { title: 'Character sheet', kind: 'DOCUMENT', after: ['Confirm the storyboard'] },
          { title: 'Setting', kind: 'IMAGE', after: ['Confirm the storyboard'] },
          ...Array.from({ length: shots }, (_, i) => ({
            title: `Shot ${i + 1}`,
            kind: 'VIDEO',
            after: shots > 2 && (i === 0 || i === shots - 1) ? ['Setting'] : ['Character sheet', 'Setting'],
          })),
          { title: 'Final cut', kind: 'OTHER', after: Array.from({ length: shots }, (_, i) => `Shot ${i + 1}`) },
        ],
      };
    }
    case 'document': {
      if (head.role === 'storyboard' || cues.some((c) => c.role === 'storyboard')) {
        return { kind: 'storyboard', subject, items: [{ title: 'Storyboard', kind: 'DOCUMENT' }, { title: 'Confirm the storyboard', kind: 'CHECKPOINT', after: ['Storyboard'] }] };
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
