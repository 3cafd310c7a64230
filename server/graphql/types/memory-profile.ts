import { builder } from '../builder.ts';
import { MemoryProfileEntryRef, MemoryProfileRef } from '../refs.ts';

builder.objectType(MemoryProfileRef, {
  description: "A snapshot of the viewer's small profile (stated user and workspace memories), as the agent sees it. A new version follows every change and every forgetting.",
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'Its version: a new one follows every change and every forgetting.' }),
    text: t.exposeString('text', { description: 'The profile as the agent reads it.' }),
    entries: t.field({ type: [MemoryProfileEntryRef], description: 'Its lines.', resolve: (p) => p.entries }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When this version was made.' }),
  }),
});
