import { builder } from '../builder.ts';
import { MemoryKindEnum } from '../enums/memory-kind.ts';
import { MemoryProfileEntryRef } from '../refs.ts';

builder.objectType(MemoryProfileEntryRef, {
  description: 'One line of the profile: a stated memory of the person or the workspace.',
  fields: (t) => ({
    kind: t.field({ type: MemoryKindEnum, description: 'What sort of memory.', resolve: (e) => e.kind as 'PREFERENCE' }),
    subjectKey: t.exposeString('subjectKey', { description: 'What it is about (e.g. "brand.colors").' }),
    text: t.exposeString('text', { description: 'The line as the agent reads it.' }),
  }),
});
