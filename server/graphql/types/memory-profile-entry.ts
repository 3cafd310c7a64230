import { builder } from '../builder.ts';
import { MemoryKindEnum } from '../enums/memory-kind.ts';
import { MemoryProfileEntryRef } from '../refs.ts';

builder.objectType(MemoryProfileEntryRef, {
  fields: (t) => ({
    kind: t.field({ type: MemoryKindEnum, resolve: (e) => e.kind as 'PREFERENCE' }),
    subjectKey: t.exposeString('subjectKey'),
    text: t.exposeString('text'),
  }),
});
