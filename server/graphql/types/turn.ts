import { builder } from '../builder.ts';
import { TurnOutcomeEnum } from '../enums/turn-outcome.ts';
import { TurnStatusEnum } from '../enums/turn-status.ts';
import { StepRef, TurnRef } from '../refs.ts';

const OUTCOMES = ['COMPLETE', 'REQUEUE', 'SUSPEND', 'PAUSE', 'FAIL', 'BUDGET'] as const;
type Outcome = (typeof OUTCOMES)[number];

/**
 * A stored outcome as the API shows it: the runtime's verbs (runtime/turn-end.ts), upper-cased. A
 * turn its task stopped under it (stored as `task <STATUS>`) has no outcome of its own: its status
 * (STOPPED) says it.
 */
const outcomeOf = (stored: string | null): Outcome | null => {
  const upper = stored?.toUpperCase() ?? '';
  return (OUTCOMES as readonly string[]).includes(upper) ? (upper as Outcome) : null;
};

builder.objectType(TurnRef, {
  description: 'One scheduled run of the task worker. generation counts takeovers (1 = first worker).',
  fields: (t) => ({
    number: t.exposeInt('number', { description: 'Its place in the task: 1, 2, 3, …' }),
    status: t.field({ type: TurnStatusEnum, description: 'Where it is.', resolve: (x) => x.status }),
    generation: t.exposeInt('generation', { description: 'How many workers held it: 1, plus one per takeover after a worker died.' }),
    outcome: t.field({
      type: TurnOutcomeEnum,
      nullable: true,
      description: 'How it ended; null while it runs, and for a turn its task was paused or cancelled under (status STOPPED).',
      resolve: (x) => outcomeOf(x.outcome),
    }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When it was scheduled.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true, description: 'When a worker started it.' }),
    endedAt: t.expose('endedAt', { type: 'DateTime', nullable: true, description: 'When it ended.' }),
    steps: t.field({ type: [StepRef], description: 'Its steps, in order.', resolve: (x) => x.steps }),
  }),
});
