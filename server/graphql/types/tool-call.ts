import { withFileNames } from '../../domain/file-names.ts';
import { builder } from '../builder.ts';
import { ToolCallStatusEnum } from '../enums/tool-call-status.ts';
import { ToolSafetyEnum } from '../enums/tool-safety.ts';
import { globalId } from '../ids.ts';
import { publicJson, publicText } from '../public-ids.ts';
import { ToolCallRef } from '../refs.ts';

builder.objectType(ToolCallRef, {
  description: 'A tool call in the execution journal, committed with its step before it ran.',
  fields: (t) => ({
    id: t.id({
      description: 'Its global id. The key inside (turn:step:call) is stable across retries and takeovers: it is also the idempotency key of what the call orders.',
      resolve: (c) => globalId('ToolCall', c.id),
    }),
    name: t.exposeString('name', { description: 'The tool (e.g. generate_image, plan_checklist).' }),
    status: t.field({ type: ToolCallStatusEnum, description: 'Where the call is.', resolve: (c) => c.status }),
    safety: t.field({ type: ToolSafetyEnum, description: 'What may happen to it after a crash.', resolve: (c) => c.safety as 'READ_ONLY' | 'IDEMPOTENT' | 'AT_MOST_ONCE' }),
    attempts: t.exposeInt('attempts', { description: 'How often it was started (more than 1 after a replay).' }),
    // As recorded, with stored file paths reduced to file names (a read_object result carries a media file).
    input: t.field({ type: 'JSON', description: 'The arguments the model gave, as recorded (a file by its name; objects, jobs and tasks by their global ids).', resolve: (c) => publicJson(withFileNames(c.input)) }),
    result: t.field({ type: 'JSON', nullable: true, description: 'What the tool returned, as recorded (a file by its name; objects, jobs and tasks by their global ids); null until it ran.', resolve: (c) => publicJson(withFileNames(c.result)) }),
    error: t.string({ nullable: true, description: 'Why it failed, in words; null unless FAILED.', resolve: (c) => (c.error === null ? null : publicText(c.error)) }),
    startedAt: t.expose('startedAt', { type: 'DateTime', nullable: true, description: 'When it (last) started.' }),
    finishedAt: t.expose('finishedAt', { type: 'DateTime', nullable: true, description: 'When it finished.' }),
  }),
});
