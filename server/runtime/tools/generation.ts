// Generation tools: submit to the provider (idempotent by the call's key) and suspend the turn until
// the job ends; the job's completion wakes the task (runtime/wake.ts).
import { z } from 'zod';
import { submitGeneration, type JobDeps } from '../../generation/jobs.ts';
import type { GenerationKind } from '../../generation/types.ts';
import { defineTool, type ToolDef } from './types.ts';

const FINAL = ['SUCCEEDED', 'FAILED', 'CANCELLED'];

function generationTool(deps: JobDeps, kind: GenerationKind, name: string, what: string): ToolDef {
  return defineTool({
    name,
    domain: kind === 'IMAGE' ? 'image' : kind === 'VIDEO' ? 'video' : kind === 'AUDIO' ? 'audio' : '3d',
    description:
      `Generate ${what} from a prompt. Runs at a provider and takes a while: the task waits and resumes when it is done. ` +
      'Set finishWhenDone when this single result is all the user asked for.',
    input: z.object({ prompt: z.string().min(1).max(4000), finishWhenDone: z.boolean().default(false) }),
    output: z.object({ jobId: z.string(), status: z.string() }),
    safety: 'IDEMPOTENT',
    suspends: (r) => !FINAL.includes(String((r as { status?: unknown })?.status)),
    async run(input, ctx) {
      const job = await submitGeneration(deps, {
        workspaceId: ctx.workspaceId,
        taskId: ctx.taskId,
        kind,
        prompt: input.prompt,
        params: { finishWhenDone: input.finishWhenDone },
        idempotencyKey: ctx.idempotencyKey,
      });
      return { jobId: job.id, status: job.status };
    },
  });
}

export function generationTools(deps: JobDeps): ToolDef[] {
  return [
    generationTool(deps, 'IMAGE', 'generate_image', 'an image'),
    generationTool(deps, 'VIDEO', 'generate_video', 'a short video'),
    generationTool(deps, 'AUDIO', 'generate_audio', 'an audio clip'),
    generationTool(deps, 'MODEL_3D', 'generate_3d_model', 'a 3D model'),
  ];
}
