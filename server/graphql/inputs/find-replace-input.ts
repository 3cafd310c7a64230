import { builder } from '../builder.ts';

export const FindReplaceInput = builder.inputType('FindReplaceInput', {
  fields: (t) => ({ find: t.string({ required: true }), replace: t.string({ required: true }) }),
});
