// Memory candidates from a source text, and their validation one by one. Pure: no I/O.
//
// The offline extractor is rule based (patterns such as "I live in X", "I prefer …", "our brand
// color is …", "always …"; the workspace's lasting facts — brand colour, typeface, tone, logo,
// tagline, company name — and the free wording people use for moves, names, signatures, stops and
// starts ("we moved the studio to Hamburg last spring", "I'm done with pastel stuff", "from now on
// sign everything as Studio Nord"), with the dates in that wording resolved against the message's
// time — in EN, DE, FR, ES, ZH and JA). What it cannot read stays evidence only. With a model,
// `model-extractor.ts` asks for the same Candidate shape through LangChain structured output. Either way every candidate goes through `validateCandidate`,
// so a malformed, unsupported, temporary or mis-attributed candidate is dropped alone and never
// takes the good ones with it.
import { createHash } from 'node:crypto';
import { z } from 'zod';

// rules-4: free wording (moves, names, signatures, stops and starts, one-off instructions), values
// bounded at clause ends, dates in the wording (validFrom).
export const EXTRACTOR_VERSION = 'rules-4';

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
  /**
   * When the value took effect, when the wording dates it ("since April", "last spring"): resolved
   * against the message's time. Without it the value takes effect when the message was written.
   */
  validFrom: z.coerce.date().optional(),
  /** A model's reading of whether this is a standing fact or preference or an instruction for the work at hand. */
  duration: z.enum(['lasting', 'temporary']).optional(),
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
// A piece of work named as the only one it is for ("just for this one flyer", "nur für diesen
// Flyer", "pour cette affiche seulement", "solo para este cartel", "这张海报", "このチラシだけ") is
// one too, whatever the instruction is.
const TEMPORARY = new RegExp(
  [
    "\\b(?:this time|for now|just this once|only this time|today only|just for today|for the moment|diesmal|dieses mal|für jetzt|nur heute|vorerst|cette fois|pour l'instant|pour le moment|pour aujourd'hui|esta vez|por ahora|solo hoy|por el momento)\\b",
    "\\b(?:(?:just|only) )?for this (?:one |single |particular )?(?!(?:kind|type|sort|reason|brand|company|studio|workspace|account|team|client|business)\\b)[a-z]+(?: only)?\\b",
    "\\b(?:this|that) (?:one )?(?:poster|flyer|image|video|banner|menu|card|post|page|draft|version|cover|logo|ad|invite|invitation|print|edition|campaign) only\\b",
    "\\bnur (?:für|bei|auf) (?:diese[nmsr]?|das|den|dem) \\p{L}+",
    "\\b(?:für|bei) (?:diese[nmsr]?) \\p{L}+ (?:nur|allein)\\b",
    "\\b(?:seulement|uniquement|juste) (?:pour|sur) (?:cette|ce|cet) \\p{L}+",
    "\\b(?:pour|sur) (?:cette|ce|cet) \\p{L}+ (?:seulement|uniquement)\\b",
    "\\b(?:solo|sólo|solamente|únicamente) (?:para|en) (?:este|esta) \\p{L}+",
    "\\b(?:para|en) (?:este|esta) \\p{L}+ (?:solo|sólo|nada más|solamente)\\b",
    '这次|这一次|暂时|只此一次|仅此一次|这[张个份幅款](?:海报|传单|图|设计|封面|菜单|卡片|横幅)?(?:就|先|只)',
    '今回|今だけ|この(?:\\p{Script=Katakana}|\\p{Script=Han})+だけ|(?:\\p{Script=Katakana}|\\p{Script=Han})+だけ(?:は)?(?:\\p{Script=Han}|\\p{Script=Katakana})',
  ].join('|'),
  'iu',
);

// A hedge, a plan or a question is not a statement of fact ("maybe I'll move to Cologne", "I might
// switch to serif", "I'm thinking about moving", "do I prefer serif?"), whoever extracted it.
const HEDGE = new RegExp(
  [
    "\\b(?:maybe|perhaps|might|may be|thinking about|thinking of|considering|not sure|someday|some day|at some point|one day|i wonder|planning to|plan to|going to move|will move|i'll move)\\b",
    '\\b(?:vielleicht|eventuell|überlege|möglicherweise|peut-être|peut être|envisage|je pense déménager|quizás|quizá|tal vez|a lo mejor|estoy pensando)\\b',
    '也许|可能|或许|打算|考虑|かもしれ|かも|検討中|予定',
  ].join('|'),
  'iu',
);
// A question states nothing, in any wording: whatever ends in a question mark ("wie unterschreibst
// du?", "I live in Berlin?"), and in Chinese and Japanese a question word or particle even without
// one ("署名は何にしている", "你用什么签名").
const QUESTION = /[?？]\s*$|[吗呢]\s*$|(?:ですか|ますか|でしょうか)\s*$|什么|哪里|哪儿|怎么|为什么|谁|何に|何を|何が|何で|何と|なに|どこ|どう(?:し|な|す|や)|だれ|誰(?!で|も)/iu;

const TOPICS: [RegExp, string][] = [
  [/\b(colou?rs?|palettes?|saturat\w*|hues?|tones?|\w*farb\w*|pastel\w*|neon|couleurs?|colou?res|teintes?)\b|颜色|色彩|配色|色/iu, 'color'],
  [/\b(fonts?|typefaces?|typograph\w*|serif|sans|\w*schrift\w*|polices?|tipograf\w*|fuentes?)\b|字体|フォント|書体/iu, 'typography'],
  [/\b(formats?|aspect|landscape|portrait|square|formate?|formatos?)\b/i, 'format'],
  [/\b(styles?|aesthetics?|look)\b/i, 'style'],
  [/\b(paper|prints?|printing)\b/i, 'print'],
  [/\b(music|soundtracks?|audio)\b/i, 'audio'],
  [/\b(drafts?|sketch\w*|iterations?)\b/i, 'drafting'],
  [/\b(files?|exports?|deliver\w*)\b/i, 'delivery'],
  // Last: "matte paper" is about print; "matte finishes" only about the finish.
  [/\b(finish|finishes|matte|glossy|gloss)\b/i, 'finish'],
];
const STOP = new Set(['the', 'a', 'an', 'my', 'our', 'to', 'with', 'and', 'or', 'of', 'in', 'on', 'for', 'it', 'them', 'very', 'really', 'usually', 'generally']);

// The words that name the subjects that have no group of their own in relevance.ts (a question
// "where is our studio?" names `company.location`, "how do I sign?" `user.signature`).
const SUBJECT_WORDS: [RegExp, string][] = [
  // Latin words whole; Chinese and Japanese words inside the run of characters words() leaves them in.
  [/^(studio|studios|office|offices|shop|agency|workshop|atelier|located|location|based|headquarter|hq|premise|büro|standort|bureau|estudio|oficina)$|工作室|办公室|スタジオ|事務所|オフィス|所在地/iu, 'company.location'],
  // Every form the extractor reads a signature by ("ab jetzt unterschreibst du …", "signez …", "firma como …").
  [/^(sign|signs|signed|signing|signature|signoff|unterschrift|unterschreib\w*|unterschrieb\w*|signatur|signier\w*|signer|signe|signes|signez|signons|firma|firmar|firmo|firmas|firmamos|firmáis|firmais)$|署名|签名|落款|サイン/iu, 'user.signature'],
];

/** Whether a word belongs to one of the named topics preferences and habits are filed under (or names the subject). */
export function topicMentioned(topic: string, word: string): boolean {
  const entry = TOPICS.find(([, t]) => t === topic) ?? SUBJECT_WORDS.find(([, t]) => t === topic);
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
  ['user.signature', 'Signs as'],
  ['company.location', 'The studio is in'],
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
// Where a value ends: punctuation, or a word starting the next clause ("…, with", "because", "so").
const END = '(?=\\s*(?:[.!?;,:—–]|$|\\b(?:and|but|now|since|these days|because|with|so|than|which|who|please|thanks|though|by the way)\\b))';

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

// A proper name over one or more capitalised words, which particles or "&" may join ("Studio Nord
// & Co", "Rio de Janeiro", "Little Fern Press"); it ends at the first word in lower case, so "I live
// in Berlin with my partner" stores "Berlin" and "my name is Amara and…" stores "Amara".
// A day or a month is not a place or a name ("I moved the office party to Friday").
const NOT_A_NAME = '(?!(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|January|February|March|April|May|June|July|August|September|October|November|December|Montag|Dienstag|Mittwoch|Donnerstag|Freitag|Samstag|Sonntag|Januar|Februar|März|Juni|Juli|Oktober|Dezember)\\b)';
const NAME = NOT_A_NAME + "(\\p{Lu}[\\p{L}\\p{N}'’-]*(?:\\s(?:&\\s|(?:de|del|da|do|am|an|la|le|van|von|der|den|upon|on)\\s)?\\p{Lu}[\\p{L}\\p{N}'’-]*)*)";
/** Keywords in any case, then a proper name (case-sensitive), then an optional tail (any case). */
const nameAfter = (keywords: string, tail = '') => new RegExp(`${anyCase(keywords)}${NAME}${tail ? anyCase(tail) : ''}`, 'u');
// Where a preference's value ends: punctuation, or a word that starts the next clause (", with",
// "because", "than", "on everything", "for headlines", "please").
const END_PREF =
  "(?=\\s*(?:[.!?;,:—–()]|$|\\b(?:and|but|now|since|these days|because|as|so|than|on|for|in|from|when|whenever|if|please|thanks|though|anymore|any more|actually|by the way|again|at all|they|it|which|that|last|this|next|yesterday|today|over)\\b))";
const END_DE = '(?=\\s*(?:[.!?;,:—–]|$|\\b(?:und|aber|weil|denn|für|mit|bitte|mehr|jetzt|ab)\\b))';
const END_FR2 = "(?=\\s*(?:[.!?;,:—–]|$|\\b(?:et|mais|parce|pour|car|avec|désormais|maintenant)\\b))";
const END_ES2 = '(?=\\s*(?:[.!?;,:—–]|$|\\b(?:y|pero|porque|para|con|ahora)\\b))';
// Chinese and Japanese values: a run of Han, Katakana or Latin letters, ending where the next
// word of the clause starts (和 "and", 了, 因为 "because", ….
const ZH_PLACE = '([\\p{Script=Han}A-Za-z]{1,12}?)(?=$|[，。！？,.!?；;、\\s]|和|跟|与|同|了|已经|的|因为|一起|去|住|工作|生活|快|有|啦|呢)';
const ZH_NAME = '([\\p{Script=Han}A-Za-z]{1,4}?)(?=$|[，。！？,.!?；;、\\s]|是|和|，)';
const JA_RUN = '(?<![\\p{Script=Han}\\p{Script=Katakana}ー])([\\p{Script=Han}\\p{Script=Katakana}ーA-Za-z]{1,12})';
const CJK_PHRASE = '([^，。！？!?、,；;\\s]{1,20}?)';
// Time words that run into a Chinese or Japanese value written without a space ("先月大阪").
const CJK_TIME_PREFIX = /^(?:先月|今月|先週|今週|去年|昨年|今年|最近|現在|先日|上个月|上月|上周|现在|目前|已经|刚刚|刚|今)+/u;
const ARTICLE = /^(?:the|a|an|some|any|le|la|les|l['’]|des|du|de la|el|los|las|lo|un|una|der|die|das|den|dem)\s+|^l['’]/iu;

// A stated lasting change of mind: a preference from now on ("from now on", "going forward", "ab
// jetzt", "désormais", "de ahora en adelante", "从现在开始", "今後").
const LASTING =
  /\b(?:from now on|going forward|from here on(?: out)?|in (?:the )?future|moving forward|henceforth|in general|as a rule|ab jetzt|ab sofort|von nun an|künftig|in zukunft|grundsätzlich|désormais|dorénavant|à partir de maintenant|à l['’]avenir|en général|de ahora en adelante|a partir de ahora|en adelante|en general)\b|从现在开始|从今以后|以后|今后|今後|これからは/iu;

type Made = ReturnType<Rule['make']>;
const fact = (subjectKey: string, scope: 'USER' | 'WORKSPACE' = 'USER') => (m: RegExpMatchArray): Made => ({ kind: 'FACT', scope, subjectKey, value: m.slice(1).find((g) => g !== undefined)! });
const residence = fact('user.residence');
const location = fact('company.location', 'WORKSPACE');
const personName = fact('user.name');
const signature = (m: RegExpMatchArray): Made => ({ kind: 'WORKFLOW_HABIT', scope: 'USER', subjectKey: 'user.signature', value: unquote(m.slice(1).find((g) => g !== undefined)!) });
const stripArticle = (v: string) => v.trim().replace(ARTICLE, '');
/** A preference filed under the topic of its phrase. */
const prefer = (m: RegExpMatchArray): Made => {
  const v = stripArticle(m.slice(1).find((g) => g !== undefined)!);
  return { kind: 'PREFERENCE', scope: 'USER', subjectKey: `preference.${topicOf(v)}`, value: v };
};
/**
 * A stop ("I'm done with pastel stuff", "no more neon", "keine Pastellfarben mehr") is the same
 * preference's new value, "no …": it supersedes what was preferred on that topic, from then on.
 */
const stop = (m: RegExpMatchArray): Made => {
  const v = stripArticle(m.slice(1).find((g) => g !== undefined)!);
  return { kind: 'PREFERENCE', scope: 'USER', subjectKey: `preference.${topicOf(v)}`, value: `no ${v}` };
};
const knownTopic = (m: RegExpMatchArray) => TOPICS.some(([re]) => re.test(m.slice(1).find((g) => g !== undefined) ?? ''));

/** The brand fact a word names: colour, typeface, tone, logo or tagline. */
function brandSubject(word: string): string {
  if (/colou?r|palette|farbe|couleur|color|色|カラー/iu.test(word)) return 'brand.colors';
  if (/font|typeface|schrift|police|typo|tipograf|fuente|字体|フォント|書体/iu.test(word)) return 'brand.font';
  if (/tone|voice/iu.test(word)) return 'brand.tone';
  if (/logo/iu.test(word)) return 'brand.logo';
  return 'brand.tagline';
}
const brandChange = (m: RegExpMatchArray): Made => ({ kind: 'BRAND_RULE', scope: 'WORKSPACE', subjectKey: brandSubject(m[1]!), value: unquote(stripArticle(m[2]!)) });
const NOT_A_THING = "(?!(?:the|this|that|these|those|my|our|your|it|them|him|her|me|us)\\b)";
const BUSINESS = '(?:studio|office|shop|agency|company|business|workshop|atelier|store|bakery|café|cafe|practice|team|gallery|label)';

type FreeRule = Rule & { when?: RegExp; guard?: (m: RegExpMatchArray) => boolean };

/** Moves, names, signatures, stops and starts, in EN, DE, FR, ES, ZH and JA. */
const FREE_RULES: FreeRule[] = [
  // Where the user lives.
  { re: nameAfter("\\b(?:I|we)(?:'m|’m|'re|’re| am| are)? (?:now |still |currently |actually |mostly )?(?:based|living|settled) (?:in|out of) "), make: residence },
  { re: nameAfter("\\bI(?: now| still| currently| actually)? live in "), make: residence },
  { re: nameAfter("\\b(?:I|we)(?:'ve|’ve| have) (?:been living|lived|been based) in "), make: residence },
  { re: nameAfter("\\b(?:I|we|my (?:partner|family|wife|husband|girlfriend|boyfriend) and I)(?:'ve|’ve| have)? (?:just |recently |finally |actually |now |since )?(?:moved|relocated)(?: back| over| house)? to "), make: residence },
  { re: nameAfter('\\b(?:ich|wir) (?:wohne|wohnen|lebe|leben)(?: (?:jetzt|nun|inzwischen|mittlerweile|schon|noch|zurzeit|derzeit|gerade|seit [^.,;]{1,25}?))* in '), make: residence },
  { re: nameAfter('\\b(?:ich bin|wir sind)(?: [^.,;]{1,30}?)? nach ', ' (?:gezogen|umgezogen)'), make: residence },
  { re: nameAfter("\\b(?:j['’]habite|je vis|je réside|nous habitons|nous vivons)(?: (?:maintenant|désormais|toujours|actuellement|depuis [^.,;]{1,25}?))* (?:à|a|au|en) "), make: residence },
  { re: nameAfter("\\b(?:j['’]ai|nous avons|on a) (?:déménagé|emménagé)(?: [^.,;]{1,25}?)? (?:à|a|au|en) "), make: residence },
  { re: nameAfter('\\bje (?:suis|me suis) (?:installée?|basée?) (?:à|a|au|en) '), make: residence },
  { re: nameAfter('(?<!\\bno )\\b(?:vivo|resido|vivimos)(?: (?:ahora|actualmente|todavía|desde [^.,;]{1,25}?))* en '), make: residence },
  { re: nameAfter('\\b(?:me|nos) (?:he |hemos )?(?:mudé|mudado|mudamos|trasladé|trasladado|trasladamos)(?: [^.,;]{1,25}?)? a '), make: residence },
  { re: new RegExp(`我(?:们)?(?:现在|目前|还是|一直|仍然|依然|已经)?(?:住在|生活在|定居在)${ZH_PLACE}`, 'u'), make: residence },
  { re: new RegExp(`我(?:们)?(?:[^，。,.！!？?把]{0,8}?)(?:搬到了|搬到|搬去了|搬去|搬家到了|搬家到|迁到了|迁到)${ZH_PLACE}`, 'u'), make: residence },
  { re: new RegExp(`${JA_RUN}(?:に|で)(?:住んで|暮らして|住んど)(?!いません|いない|ません|な)`, 'u'), make: residence },
  { re: new RegExp(`(?<!(?:スタジオ|事務所|オフィス|アトリエ|会社|店)(?:を|は)[^。]{0,12})${JA_RUN}(?:に|へ)(?:引っ越|引越|移住|転居)`, 'u'), make: residence },
  // Where the studio (the workspace's business) is.
  { re: nameAfter(`\\b(?:our|the|my) ${BUSINESS}(?:'s|’s| is| has)? (?:now |still |currently |been |just )?(?:located |based |moved |relocated )?(?:in|out of|to) `), make: location },
  { re: nameAfter(`\\b(?:we|I)(?:'ve|’ve| have)? (?:just |recently |finally )?(?:moved|relocated) (?:the|our|my) ${BUSINESS}(?: [^.,;]{0,20}?)? to `), make: location },
  { re: nameAfter(`\\b${BUSINESS}s? based (?:in|out of) `), make: location },
  { re: nameAfter('\\b(?:unser|das) (?:studio|büro|atelier|geschäft|laden|team)(?: ist| sitzt| befindet sich)(?: jetzt| nun| inzwischen)? in ') , make: location },
  { re: nameAfter('\\b(?:wir sind|wir haben)(?: [^.,;]{1,30}?)? (?:mit dem|mit unserem|das|unser) (?:studio|büro|atelier)(?: [^.,;]{0,20}?)? nach ', ' (?:gezogen|umgezogen|verlegt)'), make: location },
  { re: nameAfter("\\bnotre (?:studio|bureau|atelier|agence|boutique)(?: est| se trouve)(?: maintenant| désormais)? (?:à|a|en) "), make: location },
  { re: nameAfter("\\b(?:nous avons|on a) (?:déménagé|installé|transféré) (?:le|notre|l['’]) ?(?:studio|atelier|bureau|agence)(?: [^.,;]{0,20}?)? (?:à|a|en) "), make: location },
  { re: nameAfter('\\b(?:nuestro (?:estudio|taller|despacho)|nuestra (?:oficina|tienda|agencia))(?: está| se encuentra)(?: ahora)? en '), make: location },
  { re: nameAfter('\\b(?:trasladamos|mudamos|hemos trasladado|hemos mudado) (?:el|nuestro|la|nuestra) (?:estudio|oficina|taller|tienda)(?: [^.,;]{0,20}?)? a '), make: location },
  { re: new RegExp(`(?:我们|我)把(?:工作室|办公室|公司|店铺|店)(?:[^，。]{0,6}?)(?:搬到了|搬到|迁到了|迁到|搬去了)${ZH_PLACE}`, 'u'), make: location },
  { re: new RegExp(`(?:工作室|办公室)(?:现在|目前)?(?:在|位于|设在)${ZH_PLACE}`, 'u'), make: location },
  { re: new RegExp(`(?:スタジオ|事務所|オフィス|アトリエ|会社)(?:を|は)(?:[^。、]{0,8}?)${JA_RUN}(?:に|へ)(?:移転|引っ越|移り|移し)`, 'u'), make: location },
  { re: new RegExp(`(?:スタジオ|事務所|オフィス|アトリエ)は${JA_RUN}にあ`, 'u'), make: location },
  // A brand fact changed ("we switched our brand colour to coral", "our new brand font is Inter").
  { re: new RegExp(`\\b(?:switched|changed|moved|updated|turned)(?: (?:our|the))? brand(?:'s)? (colou?rs?|palette|font|typeface|tone|voice|logo|tagline|slogan)(?: over)? (?:to|into) ${PHRASE}${END_PREF}`, 'iu'), make: brandChange },
  { re: new RegExp(`\\b(?:our|the) new brand (colou?rs?|palette|font|typeface|tone|voice|logo|tagline|slogan) (?:is|will be) ${PHRASE}${END_PREF}`, 'iu'), make: brandChange },
  { re: new RegExp(`\\b(?:unsere? )?(?:neue )?(markenfarbe|hausfarbe|markenschrift|hausschrift|schriftart|schrift)(?: [^.,;]{0,20}?)? (?:auf|zu|in) ${PHRASE} (?:umgestellt|geändert|gewechselt)`, 'iu'), make: brandChange },
  { re: new RegExp(`\\bunsere neue (markenfarbe|hausfarbe|markenschrift|hausschrift) ist ${PHRASE}${END_DE}`, 'iu'), make: brandChange },
  { re: new RegExp(`\\b(?:nous avons|on a) changé (?:notre|la) (couleur|police|typo(?:graphie)?)(?: de (?:la )?marque)? (?:pour|en|par|contre) ${PHRASE}${END_FR2}`, 'iu'), make: brandChange },
  { re: new RegExp(`\\bnotre nouvelle (couleur|police|typo(?:graphie)?)(?: de (?:la )?marque)? est ${PHRASE}${END_FR2}`, 'iu'), make: brandChange },
  { re: new RegExp(`\\b(?:cambiamos|hemos cambiado) (?:nuestro|nuestra|el|la) (color|tipografía|fuente)(?: de marca| corporativ[oa])? (?:a|por) ${PHRASE}${END_ES2}`, 'iu'), make: brandChange },
  { re: new RegExp(`\\bnuestr[oa] nuev[oa] (color|tipografía|fuente)(?: de marca| corporativ[oa])? es ${PHRASE}${END_ES2}`, 'iu'), make: brandChange },
  { re: new RegExp(`把(?:品牌的?)?(品牌色|品牌颜色|主色调?|颜色|字体)(?:换成了|换成|改成了|改成|改为|换为)${CJK}${CJK_END}`, 'u'), make: brandChange },
  { re: new RegExp(`(ブランドカラー|コーポレートカラー|フォント|書体)を${CJK_PHRASE}(?:に|へ)(?:変更|変え|切り替え)`, 'u'), make: brandChange },
  // The user's name.
  { re: nameAfter("\\bmy name(?: is|'s|’s) "), make: personName },
  { re: nameAfter("\\b(?:please |you can |just )?call me "), make: personName },
  { re: nameAfter('\\bI go by '), make: personName },
  { re: nameAfter("^(?:hi|hello|hey|hiya)(?: there| all| everyone)?[,!.]? (?:I'm|I’m|I am|this is|it's|it’s) "), make: personName },
  { re: nameAfter('\\b(?:ich heiße|ich heisse|mein name ist|mein vorname ist|nenn mich|nennen sie mich) '), make: personName },
  { re: nameAfter("\\b(?:je m['’]appelle|mon nom est|mon prénom est|appelle-moi|appelez-moi|moi c['’]est) "), make: personName },
  { re: nameAfter('\\b(?:me llamo|mi nombre es|llámame|llamame|llámenme) '), make: personName },
  { re: new RegExp(`我(?:叫|名叫|的名字(?:是|叫))${ZH_NAME}`, 'u'), make: personName },
  { re: new RegExp(`${JA_RUN}(?:と申します|といいます|と言います|と呼んで)`, 'u'), make: personName },
  { re: new RegExp(`名前は${JA_RUN}(?:です|だ|と申します)`, 'u'), make: personName },
  // How to sign.
  // "As" only: one signs a contract *with* a client.
  { re: nameAfter("\\bsign(?:ing)?(?: off)?(?: (?:everything|all|it all|each|every|them|it|emails|posts|mails|letters|the|our|my|all of)\\b[^.,;]{0,30}?)? as "), make: signature },
  { re: nameAfter("\\bsign(?:ing)? off (?:everything |all |every \\w+ )?with "), make: signature },
  { re: nameAfter("\\bmy signature (?:is|should be|will be) "), make: signature },
  { re: nameAfter('\\b(?:unterschreib\\w*|signier\\w*)(?: [^.,;]{0,30}?)? (?:als|(?:alles|immer|stets) mit) '), make: signature },
  { re: nameAfter('\\bsign(?:e|ez|ons)(?: [^.,;]{0,30}?)? (?:comme|en tant que|du nom de|(?:tout|toujours) avec) '), make: signature },
  { re: nameAfter('\\bfirm(?:a|ad|e|en|amos)(?: [^.,;]{0,30}?)? como '), make: signature },
  { re: /(?:署名|落款|签名)(?:都|一律|统一)?(?:用|写成|写|为|是)[「“"]?([^」”"，。！!？?]{1,30}?)[」”"]?(?=$|[，。！？,.!?])/u, make: signature },
  { re: /署名は[「『]?([^」』。、]{1,30}?)[」』]?(?:で|に|と)(?:お願い|して|統一)/u, make: signature },
  // Stops: the preference on that topic becomes "no …".
  // Not a piece of work one is done with ("I'm done with the poster", "done with it": finished).
  { re: new RegExp(`\\b(?:I'm|I’m|I am|we're|we’re|we are)(?: (?:so|totally|honestly|officially|really|completely|kind of))? (?:done|over|finished|through) with ${NOT_A_THING}${PHRASE}${END_PREF}`, 'iu'), make: stop },
  { re: new RegExp(`\\bno more (?!(?:than|of|questions|changes|edits|revisions|rounds|time|for|to|now|please)\\b)${PHRASE}${END_PREF}`, 'iu'), make: stop },
  { re: new RegExp(`\\b(?:stop|quit) (?:using|doing|sending|with) ${NOT_A_THING}${PHRASE}${END_PREF}`, 'iu'), make: stop },
  { re: new RegExp(`\\bI(?:'m|’m| am) (?:tired|sick) of ${NOT_A_THING}${PHRASE}${END_PREF}`, 'iu'), make: stop },
  { re: new RegExp(`\\bkeine? ${PHRASE} mehr\\b`, 'iu'), make: stop, guard: knownTopic },
  { re: new RegExp(`\\b(?:schluss mit|nie wieder) ${PHRASE}${END_DE}`, 'iu'), make: stop },
  { re: new RegExp(`\\b(?:fini|finis|finies) (?:les |le |la |l['’])?${PHRASE}${END_FR2}`, 'iu'), make: stop },
  { re: new RegExp(`\\bj['’]en ai (?:marre|assez) (?:des |du |de la |de l['’]|de |d['’])?${PHRASE}${END_FR2}`, 'iu'), make: stop },
  { re: new RegExp(`\\b(?:se acabó|se acabaron|basta de|no más) (?:el |la |los |las |lo )?${PHRASE}${END_ES2}`, 'iu'), make: stop },
  { re: new RegExp(`\\b(?:estoy hart[oa]|ya no quiero) (?:de |del |de la |de los |de las )?${PHRASE}${END_ES2}`, 'iu'), make: stop },
  { re: new RegExp(`(?:不要再用|别再用|不再用|再也不用|不要再要|别再要|受够了)${CJK_PHRASE}(?:了|啦)?(?=$|[，。！？,.!?])`, 'u'), make: stop },
  { re: new RegExp(`(?:^|[、。,\\s])${CJK_PHRASE}は(?:もう)?(?:やめ|使わないで|いらない|要らない|卒業)`, 'u'), make: stop },
  // Starts: with a word saying it lasts ("from now on", "going forward"), what the user wants.
  {
    when: LASTING,
    re: new RegExp(`\\b(?:I|we)(?: really| definitely)? (?:want|'d like|’d like|would like|need|prefer)(?: to (?:have|use|see|get))? ${PHRASE}${END_PREF}`, 'iu'),
    make: prefer,
  },
  {
    when: LASTING,
    re: new RegExp(`(?:^|[,:]\\s*|\\bplease\\s+|\\b(?:on|forward|out|future|general|rule),?\\s+)(?:use|go with|stick (?:to|with)|make (?:it|them|everything|all)(?: in)?|give me|keep (?:it|them|everything)(?: in)?|do (?:everything|all) in) ${PHRASE}${END_PREF}`, 'iu'),
    make: prefer,
  },
  // Preferences in the other languages.
  { re: new RegExp(`\\bich (?:mag|bevorzuge|liebe|hätte lieber|nehme lieber)(?: (?:lieber|am liebsten|eher))? ${PHRASE}${END_DE}`, 'iu'), make: prefer },
  { re: new RegExp(`\\b(?:je préfère|j['’]aime|j['’]adore)(?: (?:bien|beaucoup|plutôt|mieux))? ${PHRASE}${END_FR2}`, 'iu'), make: prefer },
  { re: new RegExp(`\\b(?:prefiero|me gustan?|me encantan?)(?: (?:más|mucho))? ${PHRASE}${END_ES2}`, 'iu'), make: prefer },
  { re: new RegExp(`我(?:比较|更|一直|还是)?(?:喜欢|偏好|偏爱)${CJK_PHRASE}(?=$|[，。！？,.!?])`, 'u'), make: prefer },
  { re: new RegExp(`(?:^|[、。,\\s]|は)${CJK_PHRASE}が好き`, 'u'), make: prefer },
];

// Dates in the wording, resolved against the message's time. Months and seasons are the most
// recent ones begun by then; "last spring" said in spring is the year before's.
const MONTH_NAMES: string[][] = [
  ['january', 'januar', 'janvier', 'enero'],
  ['february', 'februar', 'février', 'fevrier', 'febrero'],
  ['march', 'märz', 'maerz', 'mars', 'marzo'],
  ['april', 'avril', 'abril'],
  ['may', 'mai', 'mayo'],
  ['june', 'juni', 'juin', 'junio'],
  ['july', 'juli', 'juillet', 'julio'],
  ['august', 'août', 'aout', 'agosto'],
  ['september', 'sept', 'septembre', 'septiembre'],
  ['october', 'oktober', 'octobre', 'octubre'],
  ['november', 'novembre', 'noviembre'],
  ['december', 'dezember', 'décembre', 'decembre', 'diciembre'],
];
const MONTH_RE = MONTH_NAMES.flat().join('|');
const monthOf = (w: string) => MONTH_NAMES.findIndex((names) => names.includes(w.toLowerCase()));
const SEASONS: [RegExp, number][] = [
  [/^(?:spring|frühling|frühjahr|printemps|primavera|春天?)$/iu, 2],
  [/^(?:summer|sommer|été|verano|夏天?)$/iu, 5],
  [/^(?:autumn|fall|herbst|automne|otoño|秋天?)$/iu, 8],
  [/^(?:winter|hiver|invierno|冬天?)$/iu, 11],
];
const SEASON_RE = 'spring|summer|autumn|fall|winter|frühling|frühjahr|sommer|herbst|printemps|été|automne|hiver|primavera|verano|otoño|invierno';
const seasonOf = (w: string) => SEASONS.find(([re]) => re.test(w))?.[1] ?? -1;
const NUMBER_WORDS: Record<string, number> = {
  a: 1, an: 1, one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12, 'a couple of': 2, 'a few': 3, few: 3,
  ein: 1, eine: 1, einem: 1, einer: 1, zwei: 2, drei: 3, vier: 4, fünf: 5, sechs: 6, sieben: 7, acht: 8, neun: 9, zehn: 10, 'ein paar': 3,
  un: 1, une: 1, deux: 2, trois: 3, quatre: 4, cinq: 5, sept: 7, huit: 8, neuf: 9, dix: 10, 'quelques': 3,
  uno: 1, una: 1, dos: 2, tres: 3, cuatro: 4, cinco: 5, seis: 6, siete: 7, ocho: 8, nueve: 9, diez: 10, unos: 2, unas: 2,
};
const HAN_DIGITS: Record<string, number> = { 一: 1, 二: 2, 两: 2, 三: 3, 四: 4, 五: 5, 六: 6, 七: 7, 八: 8, 九: 9, 十: 10 };
function numberOf(w: string): number {
  if (/^\d+$/.test(w)) return Number(w);
  if (NUMBER_WORDS[w.toLowerCase()] !== undefined) return NUMBER_WORDS[w.toLowerCase()]!;
  // 十二 = 12, 二十 = 20
  let n = 0;
  if (w.includes('十')) {
    const [a, b] = w.split('十');
    n = (a ? (HAN_DIGITS[a] ?? 1) : 1) * 10 + (b ? (HAN_DIGITS[b] ?? 0) : 0);
  } else n = HAN_DIGITS[w] ?? NaN;
  return n;
}
const NUM = "\\d{1,2}|a couple of|a few|few|an?|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|ein paar|einem|einer|eine?|zwei|drei|vier|fünf|sechs|sieben|acht|neun|zehn|quelques|une?|deux|trois|quatre|cinq|sept|huit|neuf|dix|unos|unas|una|uno|dos|tres|cuatro|cinco|seis|siete|ocho|nueve|diez";
const HAN_NUM = '\\d{1,2}|[一二两三四五六七八九十]{1,3}';

const utc = (y: number, m: number, d = 1) => new Date(Date.UTC(y, m, d));
/** The start of the most recent such month begun by `at`. */
function recentMonth(month: number, at: Date, year?: number): Date {
  if (year !== undefined) return utc(year, month);
  const d = utc(at.getUTCFullYear(), month);
  return d.getTime() > at.getTime() ? utc(at.getUTCFullYear() - 1, month) : d;
}
/** The start of the most recent such season begun by `at` (before the current one when `last`). */
function recentSeason(startMonth: number, at: Date, last: boolean): Date {
  let d = recentMonth(startMonth, at);
  // "Last spring" said while it is still spring is the spring before.
  if (last && at.getTime() < utc(d.getUTCFullYear(), d.getUTCMonth() + 3).getTime()) d = utc(d.getUTCFullYear() - 1, startMonth);
  return d;
}
function ago(n: number, unit: string, at: Date): Date {
  const day = utc(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
  const u = unit.toLowerCase();
  if (/^(?:day|tag|jour|día|dia|天|日)/u.test(u)) return new Date(day.getTime() - n * 86_400_000);
  if (/^(?:week|woche|semaine|semana|周|星期|个星期|週)/u.test(u)) return new Date(day.getTime() - n * 7 * 86_400_000);
  if (/^(?:month|monat|mois|mes|月|个月|か月|ヶ月|カ月)/u.test(u)) return utc(day.getUTCFullYear(), day.getUTCMonth() - n, day.getUTCDate());
  return utc(day.getUTCFullYear() - n, day.getUTCMonth(), day.getUTCDate());
}
const startOfWeek = (at: Date) => new Date(utc(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()).getTime() - ((at.getUTCDay() + 6) % 7) * 86_400_000);

const DATE_RULES: [RegExp, (m: RegExpMatchArray, at: Date) => Date | undefined][] = [
  [new RegExp(`\\b(last|this past|over the|during the|in the|this|letzten|vergangenen|im letzten|im vergangenen|diesen|im) (${SEASON_RE})\\b`, 'iu'), (m, at) => recentSeason(seasonOf(m[2]!), at, /last|past|letzt|vergangen/i.test(m[1]!))],
  [new RegExp(`\\b(?:le |l['’]|cet |ce |la |el )?(${SEASON_RE}) (dernier|dernière|pasad[oa])\\b`, 'iu'), (m, at) => recentSeason(seasonOf(m[1]!), at, true)],
  [new RegExp(`\\b(?:ce|cet|au|en|esta|este) (${SEASON_RE})\\b`, 'iu'), (m, at) => recentSeason(seasonOf(m[1]!), at, false)],
  [new RegExp(`\\b(?:since|in|from|back in|as of|starting|starting in|seit|im|ab|depuis|en|dès|à partir d['’]|desde|a partir de) (?:early |late |mid-|début |fin |anfang |ende |principios de |finales de )?(${MONTH_RE})(?: (\\d{4}))?\\b`, 'iu'), (m, at) => recentMonth(monthOf(m[1]!), at, m[2] ? Number(m[2]) : undefined)],
  [/\b(?:last|previous) week\b|\b(?:letzte|vorige|vergangene) woche\b|\bla semaine (?:dernière|passée)\b|\bla semana pasada\b/iu, (_m, at) => new Date(startOfWeek(at).getTime() - 7 * 86_400_000)],
  [/\b(?:last|previous) month\b|\b(?:letzten|vorigen|vergangenen) monat\b|\ble mois dernier\b|\bel mes pasado\b/iu, (_m, at) => utc(at.getUTCFullYear(), at.getUTCMonth() - 1)],
  [/\blast year\b|\b(?:letztes|voriges|vergangenes) jahr\b|\bl['’]année (?:dernière|passée)\b|\bl['’]an dernier\b|\bel año pasado\b/iu, (_m, at) => utc(at.getUTCFullYear() - 1, 0)],
  [new RegExp(`\\b(${NUM}) (days?|weeks?|months?|years?) ago\\b`, 'iu'), (m, at) => ago(numberOf(m[1]!), m[2]!, at)],
  [new RegExp(`\\bvor (${NUM}) (tag|tagen|woche|wochen|monat|monaten|jahr|jahren)\\b`, 'iu'), (m, at) => ago(numberOf(m[1]!), m[2]!, at)],
  [new RegExp(`\\bil y a (${NUM}) (jours?|semaines?|mois|ans?|années?)\\b`, 'iu'), (m, at) => ago(numberOf(m[1]!), m[2]!, at)],
  [new RegExp(`\\bhace (${NUM}) (días?|dias?|semanas?|mes|meses|años?)\\b`, 'iu'), (m, at) => ago(numberOf(m[1]!), m[2]!, at)],
  [/\b(?:yesterday|gestern|hier|ayer)\b|昨天|昨日/iu, (_m, at) => ago(1, 'day', at)],
  [/(?:去年|昨年)的?の?(春天|夏天|秋天|冬天|春|夏|秋|冬)/u, (m, at) => utc(at.getUTCFullYear() - 1, seasonOf(m[1]!))],
  [/今年的?の?(春天|夏天|秋天|冬天|春|夏|秋|冬)/u, (m, at) => utc(at.getUTCFullYear(), seasonOf(m[1]!))],
  [new RegExp(`(${HAN_NUM})(?:个)?(天|周|个星期|星期|个月|年|日|週間|か月|ヶ月|カ月)前`, 'u'), (m, at) => ago(numberOf(m[1]!), m[2]!, at)],
  [new RegExp(`(${HAN_NUM})月(?:份)?(?:起|开始|以来|から|に|より|以来|初|底|中)?`, 'u'), (m, at) => recentMonth(numberOf(m[1]!) - 1, at)],
  [/上个月|上月|先月/u, (_m, at) => utc(at.getUTCFullYear(), at.getUTCMonth() - 1)],
  [/上周|上个星期|上星期|先週/u, (_m, at) => new Date(startOfWeek(at).getTime() - 7 * 86_400_000)],
  [/去年|昨年/u, (_m, at) => utc(at.getUTCFullYear() - 1, 0)],
];

/** When the wording dates what it states ("since April", "last spring", "two weeks ago"), that date; never after `at`. */
export function dateInWording(text: string, at: Date): Date | undefined {
  for (const [re, resolve] of DATE_RULES) {
    const m = text.match(re);
    if (!m) continue;
    const d = resolve(m, at);
    if (d && !Number.isNaN(d.getTime()) && d.getTime() <= at.getTime()) return d;
  }
  return undefined;
}

// A sentence's clauses on either side of "but" ("use red just for this flyer, but in general I
// prefer muted palettes"): each is read on its own, so a one-off instruction does not take the
// lasting statement beside it down with it, nor the other way round.
const CONTRAST = /\s*(?:[,;—–]\s*(?:but|though|aber|doch|mais|pero|sin embargo)\b|\s(?:but|aber|mais|pero)\s)\s*|但是|不过|けど、?|けれど、?|が、/iu;
export function clauses(sentence: string): string[] {
  return sentence
    .split(CONTRAST)
    .map((s) => s.trim())
    .filter(Boolean);
}

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
    re: new RegExp(`\\bI (?:usually |generally |really |still |also |now |actually )?(?:prefer|like|love|favou?r) ${PHRASE}${END_PREF}`, 'iu'),
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
  ...FREE_RULES,
];

/**
 * The offline (rule-based) extractor: one candidate per matching rule and clause. Output is
 * untrusted like a model's and goes through validateCandidate. With the message's time `at`, a
 * date in the wording ("since April", "last spring") becomes the candidate's `validFrom`.
 * A question states nothing; what no rule reads stays evidence only.
 */
export function extractCandidates(text: string, source: SourceKind = 'MESSAGE', at?: Date): unknown[] {
  const out: unknown[] = [];
  for (const sentence of sentences(text)) {
    if (QUESTION.test(sentence)) continue;
    const seen = new Set<string>();
    for (const clause of clauses(sentence)) {
      const validFrom = at ? dateInWording(clause, at) : undefined;
      for (const rule of RULES as FreeRule[]) {
        if (rule.when && !rule.when.test(clause)) continue;
        const m = clause.match(rule.re);
        if (!m || (rule.guard && !rule.guard(m))) continue;
        const c = rule.make(m, clause);
        if (seen.has(c.subjectKey)) continue;
        seen.add(c.subjectKey);
        const value = clean(c.value).replace(CJK_TIME_PREFIX, '');
        if (!value) continue;
        out.push({
          mode: 'set',
          ...c,
          value,
          origin: source === 'OBSERVATION' ? 'INFERRED' : 'USER_STATED',
          confidence: source === 'OBSERVATION' ? 0.5 : 0.9,
          quote: clause,
          ...(validFrom ? { validFrom: validFrom.toISOString() } : {}),
        });
      }
    }
  }
  return out;
}

/**
 * Checks one candidate against its source (written at `at`, when known). Never throws. The same
 * checks hold for the rules and for a model: the quote must be in the source and support the
 * value; a temporary instruction, a hedge or a question, a date after the message, and an
 * inference posing as a statement are refused.
 */
export function validateCandidate(raw: unknown, sourceText: string, source: SourceKind, at?: Date): { ok: true; candidate: Candidate } | { ok: false; rejection: Rejection } {
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
  if (c.duration === 'temporary' || TEMPORARY.test(c.quote)) return { ok: false, rejection: { reason: 'TEMPORARY', detail: 'an instruction for the current work, not a lasting memory', candidate: raw } };
  if (HEDGE.test(c.quote) || QUESTION.test(c.quote.trim())) {
    return { ok: false, rejection: { reason: 'UNSUPPORTED', detail: 'a hedge, a plan or a question, not a statement', candidate: raw } };
  }
  // A day's grace: a model resolves "today" to the day, not the minute.
  if (at && c.validFrom && c.validFrom.getTime() > at.getTime() + 86_400_000) {
    return { ok: false, rejection: { reason: 'UNSUPPORTED', detail: 'a date after the message: a plan, not a fact', candidate: raw } };
  }
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
export function validateCandidates(raw: unknown[], sourceText: string, source: SourceKind, at?: Date): { accepted: Candidate[]; rejected: Rejection[] } {
  const accepted: Candidate[] = [];
  const rejected: Rejection[] = [];
  for (const r of raw) {
    const v = validateCandidate(r, sourceText, source, at);
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
