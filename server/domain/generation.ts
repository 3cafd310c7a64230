// What media generation is, independent of any provider: the kinds, and the faults the simulated
// provider can be configured with (the configuration reads them, so they live below it).

export type GenerationKind = 'IMAGE' | 'VIDEO' | 'AUDIO' | 'MODEL_3D';

export const GENERATION_KINDS: readonly GenerationKind[] = ['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D'];

/**
 * Whether a value is one of the kinds. Providers check it themselves, because a request can reach
 * them typed as GenerationKind without having been validated (a cast, JSON from a tool call).
 */
export function isGenerationKind(v: unknown): v is GenerationKind {
  return typeof v === 'string' && (GENERATION_KINDS as readonly string[]).includes(v);
}

/** The simulated provider's behaviour: latency per kind and fault probabilities. */
export type SimulationSettings = {
  latencyMs?: Partial<Record<GenerationKind, number>>;
  /** Probabilities 0..1. */
  failureRate?: number;
  unknownSubmitRate?: number;
  duplicateCallbackRate?: number;
  outOfOrderRate?: number;
  missingCallbackRate?: number;
  seed?: number;
};
