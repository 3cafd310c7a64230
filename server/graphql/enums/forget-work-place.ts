import { builder } from '../builder.ts';

export const ForgetWorkPlaceEnum = builder.enumType('ForgetWorkPlace', {
  description: "Where a work contains a value being forgotten: its NAME, or its CONTENT (a document's text, a flow's prompts and parameters, an asset's prompt, a collection's notes).",
  values: ['NAME', 'CONTENT'] as const,
});
