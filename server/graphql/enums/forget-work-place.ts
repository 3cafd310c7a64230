import { builder } from '../builder.ts';

export const ForgetWorkPlaceEnum = builder.enumType('ForgetWorkPlace', {
  description: 'Where a work contains a value being forgotten.',
  values: {
    NAME: { description: "The work's title." },
    CONTENT: { description: "Its content: a document's text, a flow's prompts and parameters, an asset's prompt, a collection's notes." },
  } as const,
});
