// Memory extraction by a chat model (the app's ChatOpenAI when a model is configured), through
// LangChain structured output: the model reads the message as a person would ("we moved the studio
// to Hamburg last spring", "honestly I'm done with pastel stuff", "just for this one flyer, use
// red") and answers in a fixed schema — subject, value, stated or inferred, lasting or temporary,
// the date it took effect resolved against the message's time, and the exact span it rests on.
//
// Its answer is as untrusted as the rules' output: each candidate goes through the same
// `validateCandidate` (the span must be in the source and support the value; temporary
// instructions, hedges and inferences posing as statements are refused), one by one. A model that
// fails (an error, a timeout, an answer outside the schema) degrades to the rules for that message;
// the extraction is then recorded under the rules' version, so the model's own is tried again later.
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { z } from 'zod';
import type { Logger } from '../../log.ts';
import type { CandidateSource } from './extract-memories.ts';
import { EXTRACTOR_VERSION, extractCandidates, type SourceKind } from './extractor.ts';

/** The version of the prompt and schema below; the recorded version also names the model. */
export const MODEL_EXTRACTOR_REVISION = 'model-1';
export const modelExtractorVersion = (modelName: string) => `${MODEL_EXTRACTOR_REVISION}:${modelName}`;

// What the model answers. Nullable rather than optional: strict function calling needs every
// field present.
export const ModelMemoryZ = z.object({
  subject: z
    .string()
    .describe(
      'Stable key of what the memory is about: user.residence, user.name, user.work, user.signature, company.location, company.name, brand.colors, brand.font, brand.tone, brand.logo, brand.tagline, preference.<topic>, avoid.<topic>, habit.<topic> (topic: color, typography, format, finish, style, print, audio, drafting, delivery, or one lower-case English word)',
    ),
  kind: z.enum(['PREFERENCE', 'FACT', 'BRAND_RULE', 'WORKFLOW_HABIT']),
  scope: z.enum(['USER', 'WORKSPACE']).describe('WORKSPACE for facts of the business or brand, USER for facts and preferences of the person'),
  value: z.string().describe('The value in the words of the message, only the value ("Berlin", not "Berlin with my partner"). A stop ("done with pastel") is "no <thing>".'),
  origin: z.enum(['stated', 'inferred']).describe('stated: the person says it of themselves or their business; inferred: you conclude it'),
  duration: z.enum(['lasting', 'temporary']).describe('temporary: an instruction for the work at hand only ("just for this flyer", "this time")'),
  validFrom: z
    .string()
    .nullable()
    .describe('When it took effect, as YYYY-MM-DD, if the message dates it ("last spring", "since April", "two weeks ago"), resolved against the message time; else null'),
  evidence: z.string().describe('The exact span of the message this rests on, copied character for character'),
  confidence: z.number().min(0).max(1).nullable(),
});
export const ModelExtractionZ = z.object({ memories: z.array(ModelMemoryZ) });
export type ModelMemory = z.infer<typeof ModelMemoryZ>;

export const EXTRACTION_TOOL = 'record_memories';

export function extractionPrompt(text: string, source: SourceKind, at: Date): { role: 'system' | 'user'; content: string }[] {
  return [
    {
      role: 'system',
      content: [
        'You extract long-term memories about a user of a creative studio platform from one piece of text.',
        `Call ${EXTRACTION_TOOL} with every lasting fact or preference the text states; an empty list when there is none.`,
        'Only what the text says: nothing about other people (a colleague, a client, a sister), nothing hedged, planned or asked ("maybe", "might", "do I…?").',
        'An instruction for the current piece of work only ("just for this one flyer, use red", "this time") is temporary.',
        'A change ("we moved to…", "from now on…", "no more…", "I\'m done with…") is the new value; a stop is "no <thing>".',
        'Dates: resolve relative expressions against the message time below; null when the text gives none.',
        source === 'OBSERVATION'
          ? 'This text is an observation of what the user did, not their words: every memory from it is inferred.'
          : 'This text is a message the user wrote.',
        `Message time: ${at.toISOString()}`,
      ].join('\n'),
    },
    { role: 'user', content: text },
  ];
}

/** The model's answer in the Candidate shape `validateCandidate` checks. */
export function toCandidate(m: ModelMemory, source: SourceKind): Record<string, unknown> {
  return {
    kind: m.kind,
    scope: m.scope,
    // "Preference.Color" and "user.residence " are the same subject.
    subjectKey: m.subject.trim().toLowerCase(),
    value: m.value,
    origin: m.origin === 'stated' ? 'USER_STATED' : 'INFERRED',
    confidence: m.confidence ?? (m.origin === 'stated' && source !== 'OBSERVATION' ? 0.9 : 0.5),
    mode: 'set',
    quote: m.evidence,
    duration: m.duration,
    // A date it could not give as a day leaves the memory dated by the message, not dropped.
    ...(m.validFrom && !Number.isNaN(Date.parse(m.validFrom)) ? { validFrom: m.validFrom } : {}),
  };
}

export type ModelExtractorOptions = {
  model: BaseChatModel;
  /** The model's name, part of the recorded version (`model-1:<name>`). */
  modelName: string;
  log?: Logger;
  /** Abort the call after this long and use the rules (default 20 s). */
  timeoutMs?: number;
};

export function createModelExtractor(opts: ModelExtractorOptions): CandidateSource {
  // Function calling, not a JSON response format: every OpenAI-compatible server and the scripted
  // test models answer tool calls.
  const structured = opts.model.withStructuredOutput(ModelExtractionZ, { name: EXTRACTION_TOOL, method: 'functionCalling' });
  const version = modelExtractorVersion(opts.modelName);
  return {
    version,
    async extract(text, source, at) {
      try {
        const out = await structured.invoke(extractionPrompt(text, source, at), { signal: AbortSignal.timeout(opts.timeoutMs ?? 20_000) });
        const parsed = ModelExtractionZ.parse(out);
        return { candidates: parsed.memories.map((m) => toCandidate(m, source)), version };
      } catch (error) {
        opts.log?.warn('memory model extraction failed; using the rules', { error: String(error) });
        return { candidates: extractCandidates(text, source, at), version: EXTRACTOR_VERSION };
      }
    },
  };
}
