// The documents the offline model writes: fixed templates by step title, and finding the document
// this task already wrote (a re-opened step edits it instead of writing a copy).
import { safeJson, TAG } from './conversation.ts';

/**
 * The document a step writes, from a fixed template: storyboard, brief or text (`kind`, from the
 * step's id whatever the language of its title; else from the title).
 */
export function documentText(title: string, subject: string, direction: string | null, kind?: 'storyboard' | 'brief' | 'text'): string {
  const line = `Direction: ${direction ?? 'as briefed'}`;
  const k = kind ?? (/storyboard/i.test(title) ? 'storyboard' : /brief/i.test(title) ? 'brief' : 'text');
  if (k === 'storyboard') {
    const shots = [
      ['Establishing shot', 'wide, slow push-in; sets the place and the mood', '4 s'],
      ['The subject', 'medium shot; the main action', '4 s'],
      ['Closing image', 'close-up, hold; the line or logo', '3 s'],
    ];
    return [`# Storyboard — ${subject}`, line, ...shots.map(([h, what, d], i) => `## Shot ${i + 1}: ${h}\n${what} (${d})`), `(${TAG} written from a fixed template)`].join('\n\n');
  }
  if (k === 'brief') {
    return [`# Brief — ${subject}`, line, '## Goal\nWhat the work must achieve.', '## Audience\nWho it is for.', '## Tone\nHow it should feel.', '## Deliverables\nWhat is delivered, in which formats.', `(${TAG} written from a fixed template)`].join('\n\n');
  }
  return [`# ${title} — ${subject}`, line, `A first draft for: ${subject}.`, `(${TAG} written from a fixed template)`].join('\n\n');
}

export type DocResult = { ok?: boolean; objectId?: string; kind?: string; version?: number; content?: { markdown?: string }; error?: { code?: string } };

/** The id of a document this task wrote (create_document's result in the conversation), or null. */
export function writtenDocument(texts: { type: string; text: string }[]): string | null {
  for (const m of texts) {
    if (m.type !== 'tool') continue;
    const r = safeJson(m.text)?.result as DocResult | undefined;
    if (r?.ok && r.kind === 'DOCUMENT' && r.objectId && r.content === undefined) return r.objectId;
  }
  return null;
}
