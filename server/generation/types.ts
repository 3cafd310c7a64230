// Media generation providers: one interface for the simulated provider and real ones.
import type { JobStatus } from './status.ts';

export type GenerationKind = 'IMAGE' | 'VIDEO' | 'AUDIO' | 'MODEL_3D';

export type GenerationRequest = {
  kind: GenerationKind;
  prompt: string;
  params: Record<string, unknown>;
  /** Stable per tool call (`turn:step:call`): a provider that honours it never creates two jobs. */
  idempotencyKey: string;
};

export type GeneratedFile = { path: string; mime: string; bytes: number; width?: number; height?: number };

export type ProviderUpdate = {
  upstreamJobId: string;
  /** Our idempotency key, when the provider echoes it: matches a callback that beats submit()'s answer. */
  idempotencyKey?: string;
  status: JobStatus;
  progress?: number;
  files?: GeneratedFile[];
  error?: string;
};

export interface GenerationProvider {
  readonly name: string;
  /** The price of a request in cents, quoted before anything is submitted. */
  quote(req: GenerationRequest): Promise<number>;
  submit(req: GenerationRequest): Promise<{ upstreamJobId: string }>;
  status(upstreamJobId: string): Promise<ProviderUpdate>;
  /** Find a job by idempotency key after a submission whose outcome is unknown (if supported). */
  lookup?(idempotencyKey: string): Promise<{ upstreamJobId: string } | null>;
  cancel?(upstreamJobId: string): Promise<void>;
  /** Progress and completion callbacks (may repeat, arrive out of order, or never come). */
  onUpdate(listener: (u: ProviderUpdate) => void): () => void;
}

/** The submission may or may not have created a job upstream (e.g. a timeout): never resubmit blindly. */
export class SubmissionOutcomeUnknown extends Error {
  constructor(message = 'the provider did not answer the submission') {
    super(message);
    this.name = 'SubmissionOutcomeUnknown';
  }
}
