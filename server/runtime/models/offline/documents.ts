// The documents the offline model writes: fixed templates by step title, in the task's language, and finding the document
// this task already wrote (a re-opened step edits it instead of writing a copy).
import { REPLY_LANGUAGES, textsFor, type Texts } from '../../../domain/replies/texts.ts';
import { safeJson } from './conversation.ts';

/**
 * The document a step writes, from a fixed template in the task's language (`t`): storyboard, brief
 * or text (`kind`, from the step's id whatever the language of its title; else from the title).
 */
export function documentText(title: string, subject: string, direction: string | null, kind: 'storyboard' | 'brief' | 'text' | undefined, t: Texts): string {
  const d = t.offline.document;
  const line = directionLine(direction, t);
  const closing = `(${t.offline.tag} ${d.fromTemplate})`;
  const k = kind ?? (/storyboard/i.test(title) ? 'storyboard' : /brief/i.test(title) ? 'brief' : 'text');
  if (k === 'storyboard') {
    const seconds = [4, 4, 3];
    return [`# ${d.storyboard} — ${subject}`, line, ...d.shots.map(([h, what], i) => `## ${d.shot(i + 1, h)}\n${what} (${d.seconds(seconds[i] ?? 3)})`), closing].join('\n\n');
  }
  if (k === 'brief') {
    return [`# ${d.brief} — ${subject}`, line, ...d.briefSections.map(([h, what]) => `## ${h}\n${what}`), closing].join('\n\n');
  }
  return [`# ${title} — ${subject}`, line, d.firstDraft(subject), closing].join('\n\n');
}

/** The line of a document that says its direction, in the task's language. */
export const directionLine = (direction: string | null, t: Texts) => `${t.offline.document.directionPrefix}${direction ?? t.offline.document.asBriefed}`;

// A document written in any language (or before documents were written in the task's language).
const DIRECTION_PREFIXES = [...new Set(REPLY_LANGUAGES.map((l) => textsFor(l).offline.document.directionPrefix.trim()))];
/** Whether a line of a document is its direction line (in whichever language it was written). */
export const isDirectionLine = (line: string) => DIRECTION_PREFIXES.some((p) => line.startsWith(p));

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
