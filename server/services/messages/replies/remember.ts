// "Our brand color is teal", "I prefer muted palettes", "ich wohne in Berlin": a statement of a
// lasting fact or preference, made on its own, is for long-term memory, not the start of a task.
// What counts is what the memory extractor reads (services/memory/extractor.ts, the rules every
// message's extraction job applies), so the thread only says "I'll remember" for what is stored.
import { fact } from '../../../domain/replies/facts.ts';
import type { Fact } from '../../../domain/replies/types.ts';
import { extractCandidates, sentences, validateCandidates } from '../../memory/extractor.ts';

/** An instruction for the work at hand, phrased like a preference ("let's use blue", "please use serif"). */
const INSTRUCTION = /\b(?:let'?s|let us|we'?ll|please|bitte|lass uns)\b/i;
/** A reaction to something on screen ("I like that one"), not a lasting preference. */
const DEICTIC_VALUE = /^(?:that|this|it|them|those|these|the (?:first|second|third|last|other|new|old) one|number \d+|das|dies|den|die)\b/i;
/** Work to do: a message asking for something is routed as a request, whatever it also states. */
const REQUEST =
  /\b(?:make|create|design|draw|generate|render|produce|build|write|draft|animate|edit|change|turn|give me|i need|i want|can you|could you|erstell|gestalt|mach|zeichne|entwirf|generier|schreib|änder|brauche|möchte|kannst du)\w*/iu;
/** Words around a statement that add nothing to it ("FYI", "just so you know", "remember:"). */
const FILLER = /^(?:fyi|btw|by the way|just so you know|for the record|note|remember|good to know|zur info|übrigens|merk dir|merke dir)[\s:,.!-]*$/i;

/**
 * The facts a message states, and whether stating them is all it does (`pure`): every sentence
 * states a fact the extractor accepts (or is a filler), and nothing in it asks for work.
 */
export function statedFacts(text: string): { facts: Fact[]; pure: boolean } {
  const { accepted } = validateCandidates(extractCandidates(text, 'MESSAGE'), text, 'MESSAGE');
  const kept = accepted.filter((c) => !INSTRUCTION.test(c.quote) && !DEICTIC_VALUE.test(c.value.trim()));
  const facts = kept.map((c) => fact(c.subjectKey, c.value));
  const quoted = new Set(kept.map((c) => c.quote));
  const pure = kept.length > 0 && !REQUEST.test(text) && sentences(text).every((s) => quoted.has(s) || FILLER.test(s));
  return { facts, pure };
}
