import { builder } from '../builder.ts';

export const AutonomyLevelEnum = builder.enumType('AutonomyLevel', {
  description:
    'MANUAL: every paid action is confirmed. SUPERVISED: confirmation above the confirmation-free amounts. AUTONOMOUS: no per-action or daily confirmation within an approved plan budget.',
  values: ['MANUAL', 'SUPERVISED', 'AUTONOMOUS'] as const,
});
