import { fileNameOf } from '../../domain/file-names.ts';
import { builder } from '../builder.ts';
import { addFileLinkFields } from '../file-link.ts';
import { ObjectFileRef } from '../refs.ts';

builder.objectType(ObjectFileRef, {
  description: "A media object's file. Fetch it through `url`; the server's own file paths are never shown.",
  fields: (t) => ({
    name: t.string({ description: 'The file name, e.g. `sim_3f2a.png`: what GET /files/<name> takes.', resolve: (f) => fileNameOf(f.path) }),
    path: t.string({
      description: 'The file name (never a path on the server).',
      deprecationReason: 'Use `url` to fetch the file, or `name`. Returns only the file name; removed in the next release.',
      resolve: (f) => fileNameOf(f.path),
    }),
    mime: t.exposeString('mime', { description: 'The media type, e.g. image/png.' }),
    bytes: t.exposeInt('bytes', { description: 'Size of the file in bytes.' }),
    width: t.exposeInt('width', { nullable: true, description: 'Width in pixels (images and videos), when known.' }),
    height: t.exposeInt('height', { nullable: true, description: 'Height in pixels (images and videos), when known.' }),
  }),
});

addFileLinkFields(ObjectFileRef);
