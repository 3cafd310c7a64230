// The offline model's words in the task's language. It reads the language the way any model does,
// from the brief's "Reply to the user in <language>." line (runtime/context/render.ts), and takes
// its texts from the templates in domain/replies/ — the step titles of its plans, its questions,
// its candidates' labels, its delivery. Step ids stay the English slugs they always were
// ("look-candidates", "poster-1", "shot-2"), so a plan's steps are the same steps in every language.
import { LANGUAGE_NAMES } from '../../../domain/language.ts';
import { itemId } from '../../../domain/checklist.ts';
import { REPLY_LANGUAGES, textsFor, type Texts } from '../../../domain/replies/texts.ts';
import type { OfflineStep } from '../../../domain/replies/types.ts';

/** The language a brief asks replies in ("Reply to the user in German." → "de"), or null. */
export function briefLanguage(brief: string): string | null {
  const name = brief.match(/^Reply to the user in ([A-Za-z]+)\.$/m)?.[1];
  const hit = name ? Object.entries(LANGUAGE_NAMES).find(([, n]) => n === name) : undefined;
  return hit ? hit[0] : null;
}

/** The offline model's texts for a brief. */
export const offlineTexts = (brief: string): Texts => textsFor(briefLanguage(brief));

/** Which template an English step title of a plan (offline/classify.ts) is. */
function stepOf(title: string): OfflineStep | null {
  const n = (re: RegExp) => Number(title.match(re)?.[1]);
  if (title === 'Look candidates') return { step: 'lookCandidates' };
  if (title === 'Pick a direction') return { step: 'pickDirection' };
  if (/^Poster \d+$/.test(title)) return { step: 'poster', n: n(/(\d+)$/) };
  if (/^Image \d+$/.test(title)) return { step: 'image', n: n(/(\d+)$/) };
  if (title === 'Image') return { step: 'image', n: null };
  if (title === 'Storyboard') return { step: 'storyboard' };
  if (title === 'Confirm the storyboard') return { step: 'confirmStoryboard' };
  if (title === 'Character sheet') return { step: 'character' };
  if (title === 'Setting') return { step: 'setting' };
  if (title === 'Final cut') return { step: 'finalCut' };
  if (/^Shot \d+$/.test(title)) return { step: 'shot', n: n(/(\d+)$/) };
  if (title === 'Reference image') return { step: 'referenceImage' };
  if (title === 'Video from the image') return { step: 'videoFromImage' };
  if (title === 'Audio clip') return { step: 'audioClip' };
  if (title === '3D model') return { step: 'model3d' };
  if (title === 'Brief') return { step: 'brief' };
  if (title === 'Text') return { step: 'text' };
  return null;
}

/** One English step title in the task's language (a title no template knows stays as it is). */
export function localizedTitle(title: string, t: Texts): string {
  const step = stepOf(title);
  return step ? t.offline.step(step) : title;
}

/**
 * A plan's steps with their titles in the task's language and the ids their English titles always
 * gave them (so re-plans, results and next rounds find the same steps).
 */
export function localizedPlan<I extends { title: string; id?: string; after?: string[] }>(items: readonly I[], t: Texts): (I & { id: string })[] {
  const taken = new Set<string>();
  const ids = new Map<string, string>();
  const out = items.map((i) => {
    const step = stepOf(i.title);
    const id = i.id ?? itemId(i.title, taken);
    taken.add(id);
    ids.set(i.title, id);
    return { ...i, id, title: step ? t.offline.step(step) : i.title };
  });
  // Edges name steps by their English titles: the ids, which are the same in every language.
  return out.map((i) => (i.after ? { ...i, after: i.after.map((a) => ids.get(a) ?? a) } : i));
}

/** A step of look candidates (its id, from the English title, names it in every language). */
export const isCandidateStep = (i: { id: string }) => /candidate/i.test(i.id);

const CANDIDATE_TITLES = new Set(REPLY_LANGUAGES.map((l) => textsFor(l).offline.step({ step: 'lookCandidates' })));
/** A step of look candidates known by its title only (an earlier round's step, in any language). */
export const isCandidateTitle = (title: string) => /candidate/i.test(title) || CANDIDATE_TITLES.has(title);

/** The template a document step writes (by id, whatever the title's language): storyboard, brief or text. */
export const documentKind = (i: { id: string; title: string }): 'storyboard' | 'brief' | 'text' =>
  /storyboard/i.test(i.id) || /storyboard/i.test(i.title) ? 'storyboard' : /brief/i.test(i.id) || /brief/i.test(i.title) ? 'brief' : 'text';
