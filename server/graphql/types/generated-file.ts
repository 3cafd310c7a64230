import { builder } from '../builder.ts';
import { GeneratedFileRef } from '../refs.ts';

builder.objectType(GeneratedFileRef, {
  fields: (t) => ({
    mime: t.exposeString('mime'),
    bytes: t.exposeInt('bytes'),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
    name: t.string({ resolve: (f) => f.path.split('/').pop() ?? '' }),
  }),
});
