import { builder } from '../builder.ts';
import { globalId } from '../ids.ts';
import { publicJson, publicText } from '../public-ids.ts';
import { StepRef, ToolCallRef } from '../refs.ts';

builder.objectType(StepRef, {
  description: 'One model call and the tool calls it proposed, committed before any tool ran. (The prompt itself stays private.)',
  fields: (t) => ({
    id: t.id({ description: "The step's global id (MemoryUse.stepId names it).", resolve: (s) => globalId('Step', s.id) }),
    index: t.exposeInt('index', { description: 'Its place in its turn (0-based).' }),
    message: t.string({ description: 'What the model said with its decision (references carry global ids).', resolve: (s) => publicText((s.decision as { content?: string }).content ?? '') }),
    model: t.exposeString('model', { description: 'The model that answered.' }),
    usage: t.field({ type: 'JSON', nullable: true, description: 'What the call used, as the model reported it (tokens) with its cost in US cents (costCents), when known.', resolve: (s) => publicJson(s.usage) }),
    createdAt: t.expose('createdAt', { type: 'DateTime', description: 'When the decision was committed.' }),
    toolCalls: t.field({ type: [ToolCallRef], description: 'The tool calls it proposed, in order.', resolve: (s) => s.toolCalls }),
  }),
});
