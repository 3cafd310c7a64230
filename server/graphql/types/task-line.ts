import { builder } from '../builder.ts';
import { TaskLineRef, TaskRef } from '../refs.ts';

builder.objectType(TaskLineRef, {
  description:
    'A line of work: a task and the rounds that continued it. A change asked for after a round ended starts the next round (a task of its own, with its own terminal state) that inherits the earlier ones.',
  fields: (t) => ({
    rounds: t.field({ type: [TaskRef], description: 'Every round, first to latest.', resolve: (l) => l.rounds }),
    firstRound: t.field({ type: TaskRef, description: 'The first round (whose id names the line).', resolve: (l) => l.rounds[0]! }),
    latestRound: t.field({ type: TaskRef, description: 'The round that takes new messages for this work.', resolve: (l) => l.rounds.at(-1)! }),
    size: t.int({ description: 'How many rounds the line has.', resolve: (l) => l.rounds.length }),
  }),
});
