// Finding a forgotten value in a person's works (documents, flows, assets) without keeping the value.
// Pure: no database here.
//
// A value is matched as a sequence of words: text is cut into tokens (a run of letters, digits and
// marks; each Han, Hiragana or Katakana character is a token of its own, as those scripts write no
// spaces), normalised (NFKC, lower case), and the value matches wherever its token sequence appears
// in a work's text, whatever the case, punctuation or spacing around it ("Navy" in "navy-blue
// posters", "深蓝色" in "主色是深蓝色"). The replacement keeps everything around the match.
//
// What is kept between the request and the redaction is a *match key*, never the value: a random
// 256-bit key and, per value, the HMAC-SHA256 of its token sequence under that key with the number
// of tokens. Matching a text recomputes the HMAC of every window of that many tokens and compares.
// See server/services/memory/works.ts for why and for how long the key lives.
import { createHmac, randomBytes } from 'node:crypto';
import type { ObjectKind } from './object-content.ts';

export type Token = { norm: string; start: number; end: number };

const TOKEN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]|(?:(?![\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}])[\p{L}\p{N}\p{M}])+/gu;

export function tokens(text: string): Token[] {
  const out: Token[] = [];
  for (const m of text.matchAll(TOKEN)) out.push({ norm: m[0].normalize('NFKC').toLowerCase(), start: m.index!, end: m.index! + m[0].length });
  return out;
}

/** What is kept of the values to find: a key and keyed hashes of their token sequences. */
export type MatchKey = { key: string; seqs: { n: number; h: string }[] };

const hashSeq = (key: Buffer, norms: string[]) => createHmac('sha256', key).update(norms.join('\u0001')).digest('base64url');

/** A match key for `values` (empty values and values without any word are dropped). */
export function matchKeyOf(values: string[]): MatchKey | null {
  const key = randomBytes(32);
  const seen = new Set<string>();
  const seqs: MatchKey['seqs'] = [];
  for (const v of values) {
    const norms = tokens(v).map((t) => t.norm);
    if (!norms.length) continue;
    const h = hashSeq(key, norms);
    if (seen.has(h)) continue;
    seen.add(h);
    seqs.push({ n: norms.length, h });
  }
  return seqs.length ? { key: key.toString('base64url'), seqs } : null;
}

/** Character spans of `text` where a value of the key appears (longest first where they overlap, in text order). */
export function findSpans(text: string, mk: MatchKey): { start: number; end: number }[] {
  if (!text) return [];
  const key = Buffer.from(mk.key, 'base64url');
  const wanted = new Map<number, Set<string>>();
  for (const s of mk.seqs) (wanted.get(s.n) ?? wanted.set(s.n, new Set()).get(s.n)!).add(s.h);
  const lengths = [...wanted.keys()].sort((a, b) => b - a);
  const toks = tokens(text);
  const spans: { start: number; end: number }[] = [];
  let i = 0;
  while (i < toks.length) {
    let hit = 0;
    for (const n of lengths) {
      if (i + n > toks.length) continue;
      if (wanted.get(n)!.has(hashSeq(key, toks.slice(i, i + n).map((t) => t.norm)))) {
        hit = n;
        break;
      }
    }
    if (hit) {
      spans.push({ start: toks[i]!.start, end: toks[i + hit - 1]!.end });
      i += hit;
    } else i++;
  }
  return spans;
}

export const containsValue = (text: string, mk: MatchKey): boolean => findSpans(text, mk).length > 0;

/** `text` with every occurrence of a value replaced by `marker`. */
export function redactText(text: string, mk: MatchKey, marker: string): string {
  const spans = findSpans(text, mk);
  if (!spans.length) return text;
  let out = '';
  let pos = 0;
  for (const s of spans) {
    out += text.slice(pos, s.start) + marker;
    pos = s.end;
  }
  return out + text.slice(pos);
}

/**
 * The text a person wrote or asked for in an object's content, by kind: a document's markdown; a
 * flow's node parameters and literal inputs (prompts, captions, any string in them); an asset's
 * provenance (its prompt); a collection's notes. Identifiers, kinds, wiring and file paths are not
 * text and are never searched or changed.
 */
export function mapContentText(kind: ObjectKind, content: Record<string, unknown>, fn: (text: string) => string): Record<string, unknown> {
  const deep = (v: unknown): unknown => {
    if (typeof v === 'string') return fn(v);
    if (Array.isArray(v)) return v.map(deep);
    if (v && typeof v === 'object') {
      // A wired input ({ node: <id> }) names another node, not text.
      if (Object.keys(v).length === 1 && typeof (v as { node?: unknown }).node === 'string') return v;
      return Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([k, x]) => [k, deep(x)]));
    }
    return v;
  };
  if (kind === 'DOCUMENT') return { ...content, markdown: fn(String(content.markdown ?? '')) };
  if (kind === 'FLOW') {
    const nodes = (content.nodes as Record<string, unknown>[] | undefined) ?? [];
    return { ...content, nodes: nodes.map((n) => ({ ...n, params: deep(n.params ?? {}), inputs: deep(n.inputs ?? {}) })) };
  }
  if (kind === 'COLLECTION') {
    const items = (content.items as Record<string, unknown>[] | undefined) ?? [];
    return { ...content, items: items.map((i) => (typeof i.note === 'string' ? { ...i, note: fn(i.note) } : i)) };
  }
  const prov = content.provenance as Record<string, unknown> | undefined;
  if (!prov) return content;
  // Ids in the provenance (job, task, model) are not text.
  return { ...content, provenance: Object.fromEntries(Object.entries(prov).map(([k, x]) => [k, /id$/i.test(k) || k === 'model' || k === 'provider' ? x : deep(x)])) };
}

/** Where in a version a value appears. */
export type WorkPlace = 'NAME' | 'CONTENT';

export function placesOf(kind: ObjectKind, version: { name: string; content: unknown }, mk: MatchKey): WorkPlace[] {
  const out: WorkPlace[] = [];
  if (containsValue(version.name, mk)) out.push('NAME');
  let inContent = false;
  mapContentText(kind, (version.content ?? {}) as Record<string, unknown>, (s) => {
    if (!inContent && containsValue(s, mk)) inContent = true;
    return s;
  });
  if (inContent) out.push('CONTENT');
  return out;
}
