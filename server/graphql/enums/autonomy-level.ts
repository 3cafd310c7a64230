import { builder } from '../builder.ts';

export const AutonomyLevelEnum = builder.enumType('AutonomyLevel', {
  description: 'How much the agent may spend without asking: one of three separate settings, beside the confirmation-free amounts and the plan budget.',
  values: {
    MANUAL: { description: 'Every paid action is confirmed by a person.' },
    SUPERVISED: { description: 'Paid actions within the confirmation-free amounts run; above them a person confirms.' },
    AUTONOMOUS: { description: 'Within an approved plan budget, paid actions run without per-action or daily confirmation.' },
  } as const,
});
