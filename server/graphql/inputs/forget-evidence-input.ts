import { builder } from '../builder.ts';

export const ForgetEvidenceInput = builder.inputType('ForgetEvidenceInput', { fields: (t) => ({ evidenceId: t.id({ required: true }) }) });
