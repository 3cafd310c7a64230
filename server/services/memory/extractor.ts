// Memory candidates from a source text, and their validation one by one. Pure: no I/O.
//
// The offline extractor is rule based (patterns such as "I live in X", "I prefer …", "our brand
// color is …", "always …"; the workspace's lasting facts — brand colour, typeface, tone, logo,
// tagline, company name — in EN, DE, FR, ES, ZH and JA); with a model, `model-extractor.ts` asks for the same Candidate shape
// through LangChain structured output. Either way every candidate goes through `validateCandidate`,
// so a malformed, unsupported, temporary or mis-attributed candidate is dropped alone and never
// takes the good ones with it.
import { createHash } from 'node:crypto';
import { z } from 'zod';

export const EXTRACTOR_VERSION = 'rules-3';

export const MemoryKindZ = z.enum(['PREFERENCE', 'FACT', 'BRAND_RULE', 'WORKFLOW_HABIT']);
export const MemoryScopeZ = z.enum(['USER', 'WORKSPACE', 'TASK']);
export const MemoryOriginZ = z.enum(['USER_STATED', 'INFERRED']);

export const CandidateZ = z.object({
  kind: MemoryKindZ,
  scope: MemoryScopeZ,
  /** Stable key of what the memory is about, e.g. `user.residence`, `brand.colors`. */
  subjectKey: z.string().regex(/^[a-z][a-z0-9_.-]{1,80}$/),
  /** The value, in the source's words (e.g. "Berlin", "navy"). */
  value: z.string().trim().min(1).max(200),
  origin: MemoryOriginZ,
  confidence: z.number().min(0).max(1),
  /** `set` replaces the subject's value; `add` refines it by adding to it (REFINE). */
  mode: z.enum(['set', 'add']).default('set'),
  /** The exact span of the source this rests on. */
  quote: z.string().min(1).max(1000),
});
export type Candidate = z.infer<typeof CandidateZ>;

export type SourceKind = 'MESSAGE' | 'NOTE' | 'OBSERVATION';
export type Rejection = { reason: 'MALFORMED' | 'UNSUPPORTED' | 'TEMPORARY' | 'ORIGIN_MISMATCH' | 'CONFLICT'; detail: string; candidate: unknown };

/** Lower case, accents kept, punctuation and extra spaces removed. */
export function normalize(s: string): string {
  return s
    .toLowerCase()
    .replace(/[’']/g, "'")
    .replace(/[^\p{L}\p{N}' ]+/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function normalizeValue(v: string): string {
  return normalize(v).replace(/^(the|a|an|my|our) /, '');
}

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** The tombstone of a source text (what re-extraction of identical content is checked against). */
export const textHash = (text: string) => sha256(`text:${normalize(text)}`);
/** The tombstone of a forgotten memory value. */
export const valueHash = (subjectKey: string, value: string) => sha256(`value:${subjectKey}:${normalizeValue(value)}`);

// A sentence marked as temporary is an instruction for the current work, not a lasting preference.
const TEMPORARY =
  /\b(this time|for now|just this once|for this one|for this (poster|image|video|task|project|version)|only this time|today only|diesmal|dieses mal|für jetzt|nur heute|cette fois|pour l'instant|pour le moment|esta vez|por ahora|solo hoy)\b|这次|这一次|暂时|今回|今だけ/i;

const TOPICS: [RegExp, string][] = [
  [/\b(colou?rs?|palettes?|saturat\w*|hues?|tones?|farb\w*)\b/i, 'color'],
  [/\b(fonts?|typefaces?|typograph\w*|serif|sans)\b/i, 'typography'],
  [/\b(formats?|aspect|landscape|portrait|square)\b/i, 'format'],
  [/\b(styles?|aesthetics?|look)\b/i, 'style'],
  [/\b(paper|prints?|printing)\b/i, 'print'],
  [/\b(music|soundtracks?|audio)\b/i, 'audio'],
  [/\b(drafts?|sketch\w*|iterations?)\b/i, 'drafting'],
  [/\b(files?|exports?|deliver\w*)\b/i, 'delivery'],
];
const STOP = new Set(['the', 'a', 'an', 'my', 'our', 'to', 'with', 'and', 'or', 'of', 'in', 'on', 'for', 'it', 'them', 'very', 'really', 'usually', 'generally']);

/** Whether a word belongs to one of the named topics preferences and habits are filed under. */
export function topicMentioned(topic: string, word: string): boolean {
  const entry = TOPICS.find(([, t]) => t === topic);
  return entry !== undefined && entry[0].test(word);
}

export function topicOf(phrase: string): string {
  for (const [re, t] of TOPICS) if (re.test(phrase)) return t;
  const words = normalize(phrase)
    .split(' ')
    .filter((w) => w.length > 2 && !STOP.has(w));
  return (words.at(-1) ?? 'general').replace(/[^a-z0-9]/g, '').slice(0, 30) || 'general';
}

const clean = (v: string) => v.replace(/\s+/g, ' ').replace(/^[\s,:;-]+|[\s,:;.!?-]+$/g, '').trim();

const LABELS: [string, string][] = [
  ['user.residence', 'Lives in'],
  ['user.name', 'Is called'],
  ['user.work', 'Works'],
  ['brand.colors', 'Brand colors:'],
  ['brand.font', 'Brand font:'],
  ['brand.tone', 'Brand tone:'],
  ['brand.logo', 'Logo:'],
  ['brand.tagline', 'Tagline:'],
  ['company.name', 'Company name:'],
  ['preference.', 'Prefers'],
  ['avoid.', 'Avoids'],
  ['habit.', 'Always'],
];

/** The sentence stored for a value of a subject. */
export function contentFor(subjectKey: string, value: string): string {
  const label = LABELS.find(([k]) => subjectKey === k || (k.endsWith('.') && subjectKey.startsWith(k)))?.[1] ?? `${subjectKey}:`;
  return `${label} ${value}`;
}

/** Splits a message into sentences (each rule sees one sentence, which becomes the quote). */
export function sentences(text: string): string[] {
  return text
    .split(/(?<=[.!?;])\s+|\n+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

type Rule = { re: RegExp; make: (m: RegExpMatchArray, sentence: string) => Omit<Candidate, 'quote' | 'origin' | 'confidence' | 'mode'> & Partial<Candidate> };

// A proper name: capitalised words only. The keywords before it are matched in any case through
// `anyCase`, never with the `i` flag: under `i`, `\p{Lu}` matches lower case too, and "I live in
// Berlin but work in Potsdam" would store "Berlin but work in Potsdam".
const CITY = "(\\p{Lu}[\\p{L}'-]+(?: \\p{Lu}[\\p{L}'-]+)*)";
const PHRASE = '([^.!?;]{2,80}?)';
const END = '(?=\\s*(?:[.!?;,]|$|\\band\\b|\\bbut\\b|\\bnow\\b|\\bsince\\b|\\bthese days\\b))';

/** A pattern source matching the letters of `src` in either case (escapes such as `\b` are kept). */
export function anyCase(src: string): string {
  return src.replace(/\\.|\p{L}/gu, (c) => (c.length > 1 || c.toLowerCase() === c.toUpperCase() ? c : `[${c.toLowerCase()}${c.toUpperCase()}]`));
}
/** Keywords in any case, then a proper name (case-sensitive). */
const named = (keywords: string) => new RegExp(`${anyCase(keywords)}${CITY}`, 'u');

// Where a value ends in French and Spanish ("et", "mais"; "y", "pero"), and in Chinese and Japanese,
// which have no spaces: at punctuation, after the copula the sentence closes with (です, だ).
const END_FR = "(?=\\s*(?:[.!?;,]|$|\\bet\\b|\\bmais\\b|\\bdésormais\\b))";
const END_ES = '(?=\\s*(?:[.!?;,]|$|\\by\\b|\\bpero\\b|\\bdesde\\b))';
// A value, never an instruction ("…にしてください", "…してほしい").
const CJK = '((?:(?!して|ください|ほしい|一下)[^。！？!?，,；;\\n]){1,40}?)';
const CJK_END = '(?:です|だ|になります|となります|でございます)?(?:ね|よ)?(?=\\s*(?:[。！？!?，,；;.]|$))';
/** A name or a line given in quotation marks is stored without them. */
const unquote = (v: string) => v.trim().replace(/^[«“"„「『‹'‘]\s*|\s*[»”"“」』›'’]$/gu, '');
/** A workspace fact (brand rule) from a pattern whose first filled group is the value. */
const brand = (re: RegExp, subjectKey: string): Rule => ({
  re,
  make: (m) => ({ kind: 'BRAND_RULE', scope: 'WORKSPACE', subjectKey, value: unquote(m.slice(1).find((g) => g !== undefined)!) }),
});
const JA_OUR = '(?:私たちの|わたしたちの|うちの|弊社の|当社の|我が社の|わが社の)';
const ZH_OUR = '(?:我们|我司|咱们|本公司)的?';

/** Lasting facts of the workspace: brand colour, typeface, tone, logo, tagline, company name. */
const WORKSPACE_FACTS: Rule[] = [
  // English and German (the colour and the German colour are above; tone and font too in English).
  brand(new RegExp(`\\bour (?:brand(?:'s)? |company(?:'s)? )?logo is ${PHRASE}${END}`, 'iu'), 'brand.logo'),
  brand(new RegExp(`\\bour (?:brand(?:'s)? |company(?:'s)? )?(?:tagline|slogan|claim) is ${PHRASE}${END}`, 'iu'), 'brand.tagline'),
  brand(new RegExp(`\\bour company(?:'s)? name is ${PHRASE}${END}|\\bour company is called ${PHRASE}${END}`, 'iu'), 'company.name'),
  brand(new RegExp(`\\bunsere (?:marken|haus)?schrift(?:art)? ist ${PHRASE}${END}|\\bunser (?:marken)?font ist ${PHRASE}${END}`, 'iu'), 'brand.font'),
  brand(new RegExp(`\\bunser (?:marken|firmen)?logo ist ${PHRASE}${END}`, 'iu'), 'brand.logo'),
  brand(new RegExp(`\\bunser (?:marken|firmen)?(?:slogan|claim) (?:ist|lautet) ${PHRASE}${END}`, 'iu'), 'brand.tagline'),
  brand(new RegExp(`\\bunsere (?:firma|agentur) heißt ${PHRASE}${END}|\\bunser (?:unternehmen|studio) heißt ${PHRASE}${END}|\\bunser firmenname (?:ist|lautet) ${PHRASE}${END}`, 'iu'), 'company.name'),
  // French.
  brand(new RegExp(`\\b(?:notre couleur(?: de marque| de la marque| principale| signature)?|la couleur de notre marque) est (?:le |la |l['’])?${PHRASE}${END_FR}`, 'iu'), 'brand.colors'),
  brand(new RegExp(`\\b(?:notre (?:police|typo(?:graphie)?|fonte)(?: de marque| de la marque)?|la (?:police|typo(?:graphie)?) de notre marque) est (?:la |le )?${PHRASE}${END_FR}`, 'iu'), 'brand.font'),
  brand(new RegExp(`\\b(?:le ton de notre marque|notre ton(?: de marque)?) est ${PHRASE}${END_FR}`, 'iu'), 'brand.tone'),
  brand(new RegExp(`\\bnotre logo est ${PHRASE}${END_FR}`, 'iu'), 'brand.logo'),
  brand(new RegExp(`\\bnotre (?:slogan|accroche|signature de marque) est ${PHRASE}${END_FR}`, 'iu'), 'brand.tagline'),
  brand(new RegExp(`\\bnotre (?:entreprise|société|agence|boîte|studio) s['’]appelle ${PHRASE}${END_FR}|\\ble nom de notre (?:entreprise|société|agence) est ${PHRASE}${END_FR}`, 'iu'), 'company.name'),
  // Spanish.
  brand(new RegExp(`\\b(?:nuestro color(?: de marca| corporativo| principal)?|el color de nuestra marca) es (?:el )?${PHRASE}${END_ES}`, 'iu'), 'brand.colors'),
  brand(new RegExp(`\\b(?:nuestra (?:tipografía|tipografia|fuente|letra)(?: de marca| corporativa)?|la tipografía de nuestra marca) es (?:la )?${PHRASE}${END_ES}`, 'iu'), 'brand.font'),
  brand(new RegExp(`\\b(?:el tono de nuestra marca|nuestro tono(?: de marca)?) es ${PHRASE}${END_ES}`, 'iu'), 'brand.tone'),
  brand(new RegExp(`\\bnuestro (?:logo|logotipo) es ${PHRASE}${END_ES}`, 'iu'), 'brand.logo'),
  brand(new RegExp(`\\bnuestro (?:eslogan|lema) es ${PHRASE}${END_ES}`, 'iu'), 'brand.tagline'),
  brand(new RegExp(`\\bnuestra (?:empresa|compañía|agencia) se llama ${PHRASE}${END_ES}|\\bel nombre de nuestra (?:empresa|compañía|agencia) es ${PHRASE}${END_ES}`, 'iu'), 'company.name'),
  // Chinese.
  brand(new RegExp(`${ZH_OUR}(?:品牌|公司)?的?(?:品牌色|品牌颜色|主色调|主色|标准色|颜色)(?:是|为)${CJK}${CJK_END}`, 'u'), 'brand.colors'),
  brand(new RegExp(`${ZH_OUR}(?:品牌|公司)?的?(?:字体|字型)(?:是|为|用)${CJK}${CJK_END}`, 'u'), 'brand.font'),
  brand(new RegExp(`${ZH_OUR}品牌的?(?:语调|调性|语气)(?:是|为)${CJK}${CJK_END}`, 'u'), 'brand.tone'),
  brand(new RegExp(`${ZH_OUR}(?:品牌|公司)?的?(?:标志|商标|徽标|logo)(?:是|为)${CJK}${CJK_END}`, 'iu'), 'brand.logo'),
  brand(new RegExp(`${ZH_OUR}(?:品牌|公司)?的?(?:口号|标语|广告语|slogan)(?:是|为)${CJK}${CJK_END}`, 'iu'), 'brand.tagline'),
  brand(new RegExp(`${ZH_OUR}公司(?:叫做?|名叫|的?(?:名字|名称)(?:是|叫))${CJK}${CJK_END}`, 'u'), 'company.name'),
  // Japanese.
  brand(new RegExp(`${JA_OUR}?(?:ブランドカラー|ブランドの色|コーポレートカラー|テーマカラー)は${CJK}${CJK_END}`, 'u'), 'brand.colors'),
  brand(new RegExp(`(?:${JA_OUR}(?:ブランドの?)?|ブランドの?)(?:フォント|書体)は${CJK}${CJK_END}`, 'u'), 'brand.font'),
  brand(new RegExp(`ブランドの?(?:トーン|トーン&マナー|口調)は${CJK}${CJK_END}`, 'u'), 'brand.tone'),
  brand(new RegExp(`(?:${JA_OUR}(?:ブランドの?|会社の)?|ブランドの?|会社の)ロゴは${CJK}${CJK_END}`, 'u'), 'brand.logo'),
  brand(new RegExp(`(?:${JA_OUR}(?:ブランドの?)?|ブランドの?)?(?:キャッチコピー|スローガン|タグライン|キャッチフレーズ)は${CJK}${CJK_END}`, 'u'), 'brand.tagline'),
  brand(new RegExp(`${JA_OUR}?(?:会社名|社名|会社の名前)は${CJK}${CJK_END}`, 'u'), 'company.name'),
];

const RULES: Rule[] = [
  { re: named("\\bI(?: now|'ve| have)? (?:live|am living|moved|relocated) (?:in|to) "), make: (m) => ({ kind: 'FACT', scope: 'USER', subjectKey: 'user.residence', value: m[1]! }) },
  { re: named("\\b(?:I'm|I am) (?:now )?based in "), make: (m) => ({ kind: 'FACT', scope: 'USER', subjectKey: 'user.residence', value: m[1]! }) },
  { re: named('\\bIch (?:wohne|lebe) (?:jetzt |nun )?in '), make: (m) => ({ kind: 'FACT', scope: 'USER', subjectKey: 'user.residence', value: m[1]! }) },
  { re: named('\\bmy name is '), make: (m) => ({ kind: 'FACT', scope: 'USER', subjectKey: 'user.name', value: m[1]! }) },
  { re: new RegExp(`\\bI work (as an? [^.!?;,]{2,50}|at [^.!?;,]{2,50})${END}`, 'iu'), make: (m) => ({ kind: 'FACT', scope: 'USER', subjectKey: 'user.work', value: m[1]! }) },
  {
    re: new RegExp(`\\bour brand(?:'s)? (?:primary |main |core |signature )?colou?rs? (?:is|are) ${PHRASE}${END}`, 'iu'),
    make: (m) => ({ kind: 'BRAND_RULE', scope: 'WORKSPACE', subjectKey: 'brand.colors', value: m[1]! }),
  },
  {
    re: new RegExp(`\\b(?:die )?(?:hauptfarbe unserer marke|unsere markenfarbe) ist ${PHRASE}${END}`, 'iu'),
    make: (m) => ({ kind: 'BRAND_RULE', scope: 'WORKSPACE', subjectKey: 'brand.colors', value: m[1]! }),
  },
  {
    re: new RegExp(`\\b(?:pair|combine|match) (?:it|our brand colou?r|the brand colou?r) with ${PHRASE}(?=\\s*(?:[.!?;,]|$|\\bfor\\b|\\bto\\b))`, 'iu'),
    make: (m) => ({ kind: 'BRAND_RULE', scope: 'WORKSPACE', subjectKey: 'brand.colors', value: m[1]!, mode: 'add' }),
  },
  { re: new RegExp(`\\bour brand(?:'s)? (?:font|typeface) is ${PHRASE}${END}`, 'iu'), make: (m) => ({ kind: 'BRAND_RULE', scope: 'WORKSPACE', subjectKey: 'brand.font', value: m[1]! }) },
  { re: new RegExp(`\\bour brand(?:'s)? (?:tone|voice) is ${PHRASE}${END}`, 'iu'), make: (m) => ({ kind: 'BRAND_RULE', scope: 'WORKSPACE', subjectKey: 'brand.tone', value: m[1]! }) },
  { re: new RegExp(`\\bmy fav(?:ou)?rite colou?r is ${PHRASE}${END}`, 'iu'), make: (m) => ({ kind: 'PREFERENCE', scope: 'USER', subjectKey: 'preference.color', value: m[1]! }) },
  {
    re: new RegExp(`\\bI (?:usually |generally |really |still |also )?(?:prefer|like|love|favou?r) ${PHRASE}${END}`, 'iu'),
    make: (m) => ({ kind: 'PREFERENCE', scope: 'USER', subjectKey: `preference.${topicOf(m[1]!)}`, value: m[1]! }),
  },
  {
    re: new RegExp(`\\bI (?:don't|do not|never) (?:like|want) ${PHRASE}${END}|\\bI (?:hate|dislike) ${PHRASE}${END}`, 'iu'),
    make: (m) => ({ kind: 'PREFERENCE', scope: 'USER', subjectKey: `avoid.${topicOf(m[1] ?? m[2]!)}`, value: (m[1] ?? m[2])! }),
  },
  {
    re: new RegExp(`\\b(?:let's|let us|we'll|please) (?:try|use|go with|do) ${PHRASE}${END}`, 'iu'),
    make: (m) => ({ kind: 'PREFERENCE', scope: 'USER', subjectKey: `preference.${topicOf(m[1]!)}`, value: m[1]! }),
  },
  {
    // Not inside a quoted name or line (a tagline "Always fresh" is not a habit).
    re: new RegExp(`(?<![«“"„‘]\\s*)\\b(?:I )?always ${PHRASE}${END}`, 'iu'),
    make: (m) => ({ kind: 'WORKFLOW_HABIT', scope: 'USER', subjectKey: `habit.${topicOf(m[1]!)}`, value: m[1]! }),
  },
  ...WORKSPACE_FACTS,
];

/**
 * The offline (rule-based) extractor: one candidate per matching rule and sentence. Output is
 * untrusted like a model's and goes through validateCandidate.
 */
export function extractCandidates(text: string, source: SourceKind = 'MESSAGE'): unknown[] {
  const out: unknown[] = [];
  for (const sentence of sentences(text)) {
    const seen = new Set<string>();
    for (const rule of RULES) {
      const m = sentence.match(rule.re);
      if (!m) continue;
      const c = rule.make(m, sentence);
      if (seen.has(c.subjectKey)) continue;
      seen.add(c.subjectKey);
      out.push({
        mode: 'set',
        ...c,
        value: clean(c.value),
        origin: source === 'OBSERVATION' ? 'INFERRED' : 'USER_STATED',
        confidence: source === 'OBSERVATION' ? 0.5 : 0.9,
        quote: sentence,
      });
    }
  }
  return out;
}

/** Checks one candidate against its source. Never throws. */
export function validateCandidate(raw: unknown, sourceText: string, source: SourceKind): { ok: true; candidate: Candidate } | { ok: false; rejection: Rejection } {
  const parsed = CandidateZ.safeParse(raw);
  if (!parsed.success) return { ok: false, rejection: { reason: 'MALFORMED', detail: parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '), candidate: raw } };
  const c = parsed.data;
  const src = normalize(sourceText);
  if (!src.includes(normalize(c.quote))) return { ok: false, rejection: { reason: 'UNSUPPORTED', detail: 'the quote is not in the source', candidate: raw } };
  const quote = normalize(c.quote);
  // Chinese and Japanese write a word in one or two characters ("青色", "赤").
  const words = normalizeValue(c.value).split(' ').filter((w) => (w.length > 2 || /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u.test(w)) && !STOP.has(w));
  if (!words.length || !words.every((w) => quote.includes(w))) {
    return { ok: false, rejection: { reason: 'UNSUPPORTED', detail: 'the value is not supported by the quote', candidate: raw } };
  }
  if (TEMPORARY.test(c.quote)) return { ok: false, rejection: { reason: 'TEMPORARY', detail: 'an instruction for the current work, not a lasting memory', candidate: raw } };
  // Observations (what the user did, tool results, the agent's own output) can only ever support
  // an inference; an inference is never recorded as something the user said.
  if (source === 'OBSERVATION' && c.origin === 'USER_STATED') {
    return { ok: false, rejection: { reason: 'ORIGIN_MISMATCH', detail: 'an observation cannot support a user statement', candidate: raw } };
  }
  return { ok: true, candidate: c };
}

/**
 * Validates all candidates of one source one by one. Two candidates giving one subject different
 * values in the same source conflict: both are dropped (the rest are kept).
 */
export function validateCandidates(raw: unknown[], sourceText: string, source: SourceKind): { accepted: Candidate[]; rejected: Rejection[] } {
  const accepted: Candidate[] = [];
  const rejected: Rejection[] = [];
  for (const r of raw) {
    const v = validateCandidate(r, sourceText, source);
    if (v.ok) accepted.push(v.candidate);
    else rejected.push(v.rejection);
  }
  const bySubject = new Map<string, Candidate[]>();
  for (const c of accepted) bySubject.set(`${c.scope}:${c.subjectKey}:${c.mode}`, [...(bySubject.get(`${c.scope}:${c.subjectKey}:${c.mode}`) ?? []), c]);
  const keep: Candidate[] = [];
  for (const list of bySubject.values()) {
    const values = new Set(list.map((c) => normalizeValue(c.value)));
    if (values.size > 1 && list[0]!.mode === 'set') {
      for (const c of list) rejected.push({ reason: 'CONFLICT', detail: `conflicting values for ${c.subjectKey} in one source`, candidate: c });
    } else keep.push(list[0]!);
  }
  return { accepted: keep, rejected };
}
