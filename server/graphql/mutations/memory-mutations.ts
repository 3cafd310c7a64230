// Long-term memory: correcting a memory, and asking to forget one (or a source). Forgetting
// is irreversible: these return the pending IRREVERSIBLE approval; resolveApproval performs it.
import type { Approval } from '../../db/generated/client.ts';
import { correctMemory, type CorrectMemoryResult } from '../../services/memory/correct-memory.ts';
import { requestForgetEvidence, requestForgetMemory } from '../../services/memory/request-forget.ts';
import { loadMemories } from '../../services/memory/browse-memories.ts';
import { notFound } from '../../errors.ts';
import { builder } from '../builder.ts';
import { parseGlobalId } from '../ids.ts';
import { ApprovalRef } from '../types/approval.ts';
import { MemoryRef } from '../types/memory.ts';

const CorrectMemoryInput = builder.inputType('CorrectMemoryInput', {
  fields: (t) => ({
    memoryId: t.id({ required: true }),
    value: t.string({ required: true, description: 'The right value, in your words (1–200 characters).' }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the first result.' }),
  }),
});
const ForgetMemoryInput = builder.inputType('ForgetMemoryInput', { fields: (t) => ({ memoryId: t.id({ required: true }) }) });
const ForgetEvidenceInput = builder.inputType('ForgetEvidenceInput', { fields: (t) => ({ evidenceId: t.id({ required: true }) }) });

const CorrectMemoryPayload = builder.objectRef<CorrectMemoryResult>('CorrectMemoryPayload').implement({
  fields: (t) => ({
    memory: t.field({
      type: MemoryRef,
      description: 'The memory holding the correction (for a corrected inference: the stated memory of the same subject).',
      resolve: async (r, _a, ctx) => {
        const [m] = await loadMemories(ctx.deps, ctx.viewer, [r.memoryId]);
        if (!m) throw notFound('Memory');
        return m;
      },
    }),
    versionNumber: t.int({
      description: 'The version the correction wrote (or confirmed).',
      resolve: async (r, _a, ctx) => (await ctx.loaders.memoryVersions.load(r.memoryId)).find((v) => v.id === r.versionId)?.number ?? 0,
    }),
    duplicate: t.exposeBoolean('duplicate', { description: 'True when this idempotency key was used before (nothing new was written).' }),
  }),
});

const ForgetPayload = builder.objectRef<{ approval: Approval }>('ForgetPayload').implement({
  description: 'The confirmation card. Nothing is forgotten until a person approves it (resolveApproval).',
  fields: (t) => ({ approval: t.field({ type: ApprovalRef, resolve: (p) => p.approval }) }),
});

builder.mutationFields((t) => ({
  correctMemory: t.field({
    type: CorrectMemoryPayload,
    description: 'Correct a memory: a new stated version supersedes the current one, with the correction recorded as its source.',
    args: { input: t.arg({ type: CorrectMemoryInput, required: true }) },
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
    args: { input: t.arg({ type: ForgetMemoryInput, required: true }) },
    resolve: async (_r, { input }, ctx) => ({
      approval: await requestForgetMemory(ctx.deps, ctx.viewer, { memoryId: parseGlobalId(String(input.memoryId), 'Memory', 'input.memoryId') }),
    }),
  }),
  forgetEvidence: t.field({
    type: ForgetPayload,
    description: 'Ask to forget a source and everything remembered from it. Returns the pending IRREVERSIBLE approval; approving it forgets.',
    args: { input: t.arg({ type: ForgetEvidenceInput, required: true }) },
    resolve: async (_r, { input }, ctx) => ({
      approval: await requestForgetEvidence(ctx.deps, ctx.viewer, { evidenceId: parseGlobalId(String(input.evidenceId), 'MemoryEvidence', 'input.evidenceId') }),
    }),
  }),
}));
