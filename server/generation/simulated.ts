// The simulated provider in this process, a product feature for demos and tests: the simulation of
// simulation.ts (configurable latency per kind, failures, submissions with unknown outcome,
// duplicate, out-of-order and missing callbacks, real files rendered from the prompt), with its jobs
// in memory. A process that restarts forgets them; the provider service (server/provider/) runs the
// same simulation in its own process, with its jobs on disk.
import { assertSimulatedKind, SIMULATED_PRICES, SimulationEngine, type SimulationSettings } from './simulation.ts';
import { SubmissionOutcomeUnknown, type GenerationKind, type GenerationProvider, type GenerationRequest, type ProviderUpdate } from './types.ts';

export { renderAudio, renderImage, renderModel, renderVideo } from './simulation.ts';

export type SimulatedOptions = SimulationSettings & { filesDir: string };

export class SimulatedProvider implements GenerationProvider {
  readonly name = 'simulated';
  private readonly listeners = new Set<(u: ProviderUpdate) => void>();
  private readonly engine: SimulationEngine;
  /** Submissions received, repeated keys included (tests check nothing is submitted twice). */
  submits = 0;

  constructor(opts: SimulatedOptions) {
    this.engine = new SimulationEngine({ ...opts, emit: (u) => this.emit(u) });
  }

  onUpdate(listener: (u: ProviderUpdate) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Simulated prices, in cents. */
  static readonly PRICES: Record<GenerationKind, number> = SIMULATED_PRICES;

  async quote(req: GenerationRequest): Promise<number> {
    assertSimulatedKind(req.kind);
    return SimulatedProvider.PRICES[req.kind];
  }

  async submit(req: GenerationRequest): Promise<{ upstreamJobId: string }> {
    // Refused before it counts as a submission: nothing reached the simulation.
    assertSimulatedKind(req.kind);
    this.submits++;
    const { job, created, answerLost } = this.engine.submit(req);
    if (created) this.engine.arm(job);
    // The job exists upstream, but the answer may be lost on the way back.
    if (answerLost) throw new SubmissionOutcomeUnknown();
    return { upstreamJobId: job.id };
  }

  async lookup(idempotencyKey: string) {
    const job = this.engine.lookup(idempotencyKey);
    return job ? { upstreamJobId: job.id } : null;
  }

  async status(upstreamJobId: string): Promise<ProviderUpdate> {
    const job = this.engine.get(upstreamJobId);
    if (!job) return { upstreamJobId, status: 'FAILED', error: 'unknown job' };
    return this.engine.status(job);
  }

  /** Stops a job that has not finished (CANCELLED, nothing made); a finished one is left as it is. */
  async cancel(upstreamJobId: string): Promise<{ made: boolean }> {
    const job = this.engine.get(upstreamJobId);
    if (!job) return { made: false };
    return { made: this.engine.cancel(job).made };
  }

  close() {
    this.engine.close();
  }

  private emit(u: ProviderUpdate) {
    for (const l of this.listeners) l(u);
  }
}
