// Long-term memory: correcting a memory, and asking to forget one (or a source). Forgetting
// is irreversible: these return the pending IRREVERSIBLE approval; resolveApproval performs it.
import { correctMemory } from '../../services/memory/correct-memory.ts';
import { requestForgetEvidence, requestForgetMemory } from '../../services/memory/request-forget.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { CorrectMemoryInput } from '../inputs/correct-memory-input.ts';
import { ForgetEvidenceInput } from '../inputs/forget-evidence-input.ts';
import { ForgetMemoryInput } from '../inputs/forget-memory-input.ts';
import { CorrectMemoryPayload } from '../payloads/correct-memory-payload.ts';
import { ForgetPayload } from '../payloads/forget-payload.ts';

builder.mutationFields((t) => ({
  correctMemory: t.field({
    type: CorrectMemoryPayload,
    description: 'Correct a memory: a new stated version supersedes the current one, with the correction recorded as its source.',
    args: { input: t.arg({ type: CorrectMemoryInput, required: true, description: 'The memory and its right value.' }) },
    resolve: (_r, { input }, ctx) =>
      correctMemory(ctx.deps, ctx.viewer, {
        memoryId: parseGlobalId(String(input.memoryId), 'Memory', 'input.memoryId'),
        value: input.value,
        idempotencyKey: input.idempotencyKey,
      }),
  }),
  forgetMemory: t.field({
    type: ForgetPayload,
    description: 'Ask to forget a memory (every version). Returns the pending IRREVERSIBLE approval; approving it forgets.',
    args: { input: t.arg({ type: ForgetMemoryInput, required: true, description: 'The memory to forget.' }) },
    resolve: async (_r, { input }, ctx) => ({
      approval: await requestForgetMemory(ctx.deps, ctx.viewer, { memoryId: parseGlobalId(String(input.memoryId), 'Memory', 'input.memoryId') }),
    }),
  }),
  forgetEvidence: t.field({
    type: ForgetPayload,
    description: 'Ask to forget a source and everything remembered from it. Returns the pending IRREVERSIBLE approval; approving it forgets.',
    args: { input: t.arg({ type: ForgetEvidenceInput, required: true, description: 'The source to forget.' }) },
    resolve: async (_r, { input }, ctx) => ({
      approval: await requestForgetEvidence(ctx.deps, ctx.viewer, { evidenceId: parseGlobalId(String(input.evidenceId), 'MemoryEvidence', 'input.evidenceId') }),
    }),
  }),
}));
