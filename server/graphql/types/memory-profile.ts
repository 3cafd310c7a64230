import { builder } from '../builder.ts';
import { MemoryProfileEntryRef, MemoryProfileRef } from '../refs.ts';

builder.objectType(MemoryProfileRef, {
  description: "A snapshot of the viewer's small profile (stated user and workspace memories), as the agent sees it. A new version follows every change and every forgetting.",
  fields: (t) => ({
    version: t.exposeInt('version'),
    text: t.exposeString('text'),
    entries: t.field({ type: [MemoryProfileEntryRef], resolve: (p) => p.entries }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
  }),
});
