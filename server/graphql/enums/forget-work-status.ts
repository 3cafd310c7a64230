import { builder } from '../builder.ts';

export const ForgetWorkStatusEnum = builder.enumType('ForgetWorkStatus', {
  description: 'OFFERED: the person has not chosen yet. REDACTED: chosen, the value was removed (redactedInVersion). KEPT: not chosen, the work stays as it is.',
  values: ['OFFERED', 'REDACTED', 'KEPT'] as const,
});
