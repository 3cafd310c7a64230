import { builder } from '../builder.ts';
import { StepRef, ToolCallRef } from '../refs.ts';

builder.objectType(StepRef, {
  description: 'One model call and the tool calls it proposed, committed before any tool ran. (The prompt itself stays private.)',
  fields: (t) => ({
    index: t.exposeInt('index'),
    message: t.string({ resolve: (s) => (s.decision as { content?: string }).content ?? '' }),
    model: t.exposeString('model'),
    usage: t.field({ type: 'JSON', nullable: true, resolve: (s) => s.usage }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    toolCalls: t.field({ type: [ToolCallRef], resolve: (s) => s.toolCalls }),
  }),
});
