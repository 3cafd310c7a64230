// What media generation is, independent of any provider: the kinds, and the faults the simulated
// provider can be configured with (the configuration reads them, so they live below it).

export type GenerationKind = 'IMAGE' | 'VIDEO' | 'AUDIO' | 'MODEL_3D';

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
