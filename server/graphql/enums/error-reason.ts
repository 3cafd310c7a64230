import { errorReasons } from '../../errors.ts';
import { builder } from '../builder.ts';

export const ErrorReasonEnum = builder.enumType('ErrorReason', {
  description:
    'What exactly an error refused, in `extensions.reason` next to `extensions.code` (when the code alone does not say how to recover). ' +
    'Each value names the codes it comes with.',
  values: Object.fromEntries(
    Object.entries(errorReasons).map(([name, r]) => [name, { description: `${r.description} Code: ${r.codes.join(' or ')}.` }]),
  ) as Record<keyof typeof errorReasons, { description: string }>,
});
