import { builder } from '../builder.ts';
import { ObjectFileRef } from '../refs.ts';

builder.objectType(ObjectFileRef, {
  fields: (t) => ({
    path: t.exposeString('path'),
    mime: t.exposeString('mime'),
    bytes: t.exposeInt('bytes'),
    width: t.exposeInt('width', { nullable: true }),
    height: t.exposeInt('height', { nullable: true }),
  }),
});
