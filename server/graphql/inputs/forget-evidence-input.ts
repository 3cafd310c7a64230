import { builder } from '../builder.ts';

export const ForgetEvidenceInput = builder.inputType('ForgetEvidenceInput', {
  description: 'A source to forget, with everything remembered from it.',
  fields: (t) => ({ evidenceId: t.id({ required: true, description: 'The source (MemoryEvidence.id).' }) }),
});
