// Cleaning: keep the user's own prose only (code, URLs, e-mails, mentions, tags, file names, quoted
// text, tokens with digits, identifiers and, in mixed-case text, acronyms are removed).

const CODE_BLOCK = /```[\s\S]*?(?:```|$)|`[^`\n]*`/g;
const URL = /\b(?:https?:\/\/|ftp:\/\/|www\.)\S+/gi;
const EMAIL = /[\p{L}\p{N}._%+-]+@[\p{L}\p{N}.-]+\.\p{L}{2,}/gu;
const MENTION = /(?<![\p{L}\p{N}])@[\p{L}\p{N}_.-]+/gu;
const TAG = /#[\p{L}\p{N}_-]+/gu;
const FILE = /[\p{L}\p{N}_-]+\.(?:png|jpe?g|gif|svg|webp|pdf|psd|ai|tiff?|mp[34]|mov|heic|avif|eps|json|tsx?|jsx?|css|html?|txt|md|zip|glb|gltf|obj|fbx|blend|wav)\b/giu;
const QUOTED =
  /"[^"\n]*"|“[^”\n]*”|„[^“”\n]*[“”]|«[^»\n]*»|»[^«\n]*«|「[^」\n]*」|『[^』\n]*』|(?<![\p{L}\p{N}])['‘][^'’‘\n]*['’](?![\p{L}\p{N}])/gu;
const CODE_TOKEN = /\S*[{}<>=$\\|]\S*|\S*\/\S*(?:\/|\.\w)\S*|[\p{L}\p{N}]+_[\p{L}\p{N}_]+|\b\p{Ll}+\p{Lu}[\p{L}\p{N}]*/gu;
const DIGIT_TOKEN = /[\p{Script=Latin}\p{N}]*\p{N}[\p{Script=Latin}\p{N}]*/gu;
const ACRONYM = /(?<![\p{L}\p{M}'’])\p{Lu}{2,}(?![\p{L}\p{M}'’])/gu;
const HAS_LOWER = /\p{Ll}/u;
const HAS_LETTER = /\p{L}/u;
const HAS_DIGIT = /\p{N}/u;

const QUOTE_CHARS = /["“„«»「『'‘]/;
const CODE_CHARS = /[{}<>=$\\|/_]|\p{Ll}\p{Lu}/u;

export function clean(text: string): string {
  // Each pass runs only when its trigger character is present: most messages skip most of them.
  let t = text.normalize('NFC');
  if (t.includes('`')) t = t.replace(CODE_BLOCK, ' ');
  if (t.includes('://') || t.includes('www.')) t = t.replace(URL, ' ');
  if (t.includes('@')) t = t.replace(EMAIL, ' ').replace(MENTION, ' ');
  if (t.includes('.')) t = t.replace(FILE, ' ');
  if (t.includes('#')) t = t.replace(TAG, ' ');
  if (QUOTE_CHARS.test(t)) {
    const unquoted = t.replace(QUOTED, ' ');
    // Everything quoted (a pasted instruction, say): the quote is all we have.
    if (HAS_LETTER.test(unquoted) || !HAS_LETTER.test(t)) t = unquoted;
  }
  if (CODE_CHARS.test(t)) t = t.replace(CODE_TOKEN, ' ');
  if (HAS_DIGIT.test(t)) t = t.replace(DIGIT_TOKEN, ' ');
  t = t.replace(/[’‘`´]/g, "'");
  if (HAS_LOWER.test(t)) t = t.replace(ACRONYM, ' ');
  return t;
}
