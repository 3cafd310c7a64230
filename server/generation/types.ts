// Media generation providers: one interface for the simulated provider and real ones.
import type { JobStatus } from './status.ts';

import type { GenerationKind } from '../domain/generation.ts';

export type { GenerationKind };

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
  /**
   * Stops a job upstream. Providers that can tell answer whether a result was made anyway (a job that
   * had already finished keeps it, and is charged); `status` then reports the final state.
   */
  cancel?(upstreamJobId: string): Promise<void | { made: boolean }>;
  /** Progress and completion callbacks (may repeat, arrive out of order, or never come). */
  onUpdate(listener: (u: ProviderUpdate) => void): () => void;
  /**
   * For providers that call back over HTTP: the receiver of POST /hooks/generation/<name>
   * (server/http/hooks.ts), which verifies a delivery and hands it to the `onUpdate` listeners.
   */
  callbackReceiver?(name: string): CallbackReceiver | undefined;
  /** Told the API server's base URL once it listens, so callbacks can be addressed to it. */
  useCallbackBase?(baseUrl: string): void;
}

export interface CallbackReceiver {
  /**
   * One delivery, as received. Answers the HTTP status to send: 2xx once the update is verified and
   * handed on; 401 for a delivery the provider did not sign (nothing is done with it); 5xx asks the
   * provider to deliver it again later.
   */
  receiveCallback(body: string, headers: Record<string, string | string[] | undefined>): Promise<{ status: number; error?: string }>;
}

/**
 * The provider could not be reached, and certainly received nothing (e.g. connection refused): the
 * order stays placed (its money held) and is submitted again by reconciliation when it is back.
 */
export class ProviderUnavailable extends Error {
  constructor(message = 'the provider is unreachable') {
    super(message);
    this.name = 'ProviderUnavailable';
  }
}

/** The submission may or may not have created a job upstream (e.g. a timeout): never resubmit blindly. */
export class SubmissionOutcomeUnknown extends Error {
  constructor(message = 'the provider did not answer the submission') {
    super(message);
    this.name = 'SubmissionOutcomeUnknown';
  }
}
