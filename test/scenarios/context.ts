// What a scenario sees and reports: the context its script drives the product through, its options,
// the metrics and provider faults of a run, and the settings of the runs.
import type { SimulationSettings } from '../../server/generation/simulation.ts';
import type { ModelProvider } from '../../server/runtime/models/types.ts';
import type { TestApp } from '../helpers/app.ts';

export type Metrics = {
  continues: number;
  needlessConfirmations: number;
  duplicateGenerations: number;
  misrouted: number;
  staleReads: number;
  forkedCopies: number;
  lostWakeups: number;
  costCents: number;
  cards: number;
  messages: number;
  jobs: number;
};

/** The provider faults a run met (each one a recovery path the run went through). */
export type Faults = { failed: number; unknownSubmit: number; missingCallback: number; duplicateCallback: number; lateCallback: number };

/** The provider faults of a scenario run (probabilities, drawn per job from the run's seed). */
export const SCENARIO_FAULTS: Omit<SimulationSettings, 'seed' | 'latencyMs'> = {
  failureRate: 0.08,
  unknownSubmitRate: 0.08,
  duplicateCallbackRate: 0.25,
  outOfOrderRate: 0.25,
  missingCallbackRate: 0.06,
};

/** A turn whose wake-up took longer than this to be picked up had lost it (a healthy one: ~1 s). */
export const LOST_WAKEUP_MS = 10_000;

export type CardPolicy = (card: { id: string; kind: string; title: string; options: { id: string; label: string }[] }) =>
  | { decision: 'APPROVE' | 'REJECT'; choice?: string; note?: string }
  | null;

/** A person: approves plans and confirmations, picks the given candidate. */
export const person =
  (pick = 'c2'): CardPolicy =>
  (card) => {
    if (card.kind === 'CHECKPOINT' && card.options.length) return { decision: 'APPROVE', choice: card.options.find((o) => o.id === pick)?.id ?? card.options[0]!.id };
    return { decision: 'APPROVE' };
  };

/** One scenario: it runs against the context and returns the figures its report prints. */
export type Scenario = { name: string; run(ctx: ScenarioContext): Promise<Record<string, string | number>> };

export type ScenarioContext = {
  t: TestApp;
  metrics: Metrics;
  /** The run's seed for this scenario (paraphrases, choices, provider faults). */
  seed: number;
  /** A seeded pick from a pool. */
  pick<T>(pool: readonly T[]): T;
  /** Sends a message in the main thread; `expect` is where a person would say it belongs. */
  say(text: string, expect: 'new' | { taskId: string } | 'answer' | 'any', opts?: { taskId?: string }): Promise<string | null>;
  /** Drives the task until it ends (or `until` holds), answering cards with the policy. */
  settle(taskId: string, policy: CardPolicy, opts?: { until?: () => Promise<boolean>; expectCards?: Record<string, number> }): Promise<string>;
  signal(taskId: string, signal: 'PAUSE' | 'RESUME' | 'CANCEL' | 'REVISE' | 'ADD_CONTEXT', text?: string): Promise<void>;
  status(taskId: string): Promise<string>;
  /** Starts the worker (for `startWorker: false`). */
  startWorker(): Promise<void>;
};

export type ScenarioOptions = {
  models?: ModelProvider;
  /** Seed of the paraphrase picks and of the provider's faults (default 1). */
  seed?: number;
  /** Provider faults (default none); the scenario runs pass SCENARIO_FAULTS. */
  faults?: Omit<SimulationSettings, 'seed' | 'latencyMs'>;
  /** Start the worker before the scenario (default true). */
  startWorker?: boolean;
};
