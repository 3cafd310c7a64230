// Generation tools: price the request, pass the approvals gate, submit to the provider (idempotent
// by the call's key) and suspend the turn until the job ends; the job's completion wakes the task
// (runtime/wake.ts). Above a threshold the call waits for a person (AwaitingApproval); a rejected
// action is reported to the model; crossing the task's cap ends the task (BudgetExceeded).
import { z } from 'zod';
import { orderGeneration, type JobDeps } from '../../generation/jobs.ts';
import type { GenerationKind } from '../../generation/types.ts';
import { lockWorkspaceSettings, paidActionGate, type GateOutcome, type SettingsRow } from '../../store/approvals/paid-action-gate.ts';
import { AwaitingApproval, BudgetExceeded } from '../errors.ts';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { readChecklist, writeChecklist } from '../../store/checklist/write-checklist.ts';
import { readJobStatus } from '../../store/generation-jobs.ts';
import { linkArtifact, startStep } from '../../domain/checklist.ts';
import { unfinishedInputs } from '../../domain/production-graph.ts';
import { objectIdOfRef, resolveSources } from '../../store/objects/derivations.ts';
import { findReusableResult } from '../../store/generation-reuse.ts';
import { insertReuse } from '../../store/ledger-holds.ts';
import { textsFor } from '../../domain/replies/texts.ts';
import { readTaskBrief } from '../../store/journal/tasks.ts';
import { defineTool, type ToolDef } from './types.ts';

const FINAL = ['SUCCEEDED', 'FAILED', 'CANCELLED', 'REJECTED', 'SUPERSEDED'];

function generationTool(deps: JobDeps, kind: GenerationKind, name: string, what: string): ToolDef {
  return defineTool({
    name,
    domain: kind === 'IMAGE' ? 'image' : kind === 'VIDEO' ? 'video' : kind === 'AUDIO' ? 'audio' : '3d',
    description:
      `Generate ${what} from a prompt. Runs at a provider and takes a while: the task waits and resumes when it is done. ` +
      'It costs money: above the workspace limits a person is asked first (you cannot approve it yourself; status SUPERSEDED: the person sent an instruction instead, nothing was ordered). ' +
      'Set finishWhenDone when this single result is all the user asked for; set checklistItemId to the step it is for.',
    // Unknown keys (e.g. a model claiming `approved: true`) are stripped: only a person's recorded
    // decision approves anything.
    input: z.object({
      prompt: z.string().min(1).max(4000),
      finishWhenDone: z.boolean().default(false),
      /** The checklist step this result is for: linked to it when the job succeeds. */
      checklistItemId: z.string().max(40).optional(),
      /** A reference image / start image: an earlier result (`job:<id>` or `object:<id>`). */
      referenceId: z.string().max(100).optional(),
    }),
    output: z.object({ jobId: z.string().nullable(), status: z.string(), approvalId: z.string().optional(), note: z.string().nullable().optional() }),
    safety: 'IDEMPOTENT',
    suspends: (r) => !FINAL.includes(String((r as { status?: unknown })?.status)),
    async run(input, ctx) {
      // The step's round at ordering time: a result for a step re-opened since is not linked to it.
      const plan = input.checklistItemId ? await readChecklist(ctx.uow.prisma, ctx.taskId) : null;
      const step = plan?.items.find((i) => i.id === input.checklistItemId);
      if (input.checklistItemId && !step) throw new Error(`No checklist step "${input.checklistItemId}"`);
      // A step starts only when every step it uses is finished (the plan is a graph): nothing is
      // ordered, held or charged for a shot whose character is not made yet.
      if (step) {
        const waits = unfinishedInputs(plan!.items, step.id);
        if (waits.length) throw new Error(`"${step.title}" uses ${waits.map((w) => `"${w.title}"`).join(' and ')}, not finished yet: make ${waits.length > 1 ? 'them' : 'it'} first, then order this step. Nothing was ordered.`);
      }
      // What the result is made from, at the versions used now: the reference, and the results of
      // the steps this step comes after (recorded on the result as its derivations).
      const upstream = step ? (step.after ?? []).flatMap((a) => plan!.items.find((i) => i.id === a)?.artifacts ?? []) : [];
      const sources = await resolveSources(ctx.uow.prisma, ctx.workspaceId, [...(input.referenceId ? [input.referenceId] : []), ...upstream]);
      // Incremental production: a step whose inputs are exactly those of an earlier result reuses
      // it — no order, no hold, no charge; the ledger records the saving. Linked in one
      // transaction with the saving and the event, keyed by the call (a replay changes nothing).
      if (step) {
        const linked = new Set(plan!.items.flatMap((i) => i.artifacts.map(objectIdOfRef)).filter((x): x is string => x !== null));
        const earlier = await findReusableResult(ctx.uow.prisma, { workspaceId: ctx.workspaceId, taskId: ctx.taskId, kind, provider: deps.provider.name, prompt: input.prompt, referenceId: input.referenceId, sources, linked });
        if (earlier) {
          await transactWithEvents(ctx.uow, async (tx, emit) => {
            const { written } = await writeChecklist(tx, emit, { taskId: ctx.taskId, actor: { kind: 'SYSTEM' }, reason: `reused a result for ${step.id}`, callKey: `${ctx.idempotencyKey}:reuse` }, (items) =>
              linkArtifact(items, step.id, `object:${earlier.objectId}`, `reused job:${earlier.jobId}: its inputs are unchanged`, step.round),
            );
            if (!written) return;
            await insertReuse(tx, { workspaceId: ctx.workspaceId, taskId: ctx.taskId, jobId: earlier.jobId, amountCents: earlier.quoteCents, reason: `reused for ${step.id}` });
            emit(ctx.taskId, { type: 'RESULT_REUSED', actor: { kind: 'SYSTEM' }, payload: { jobId: earlier.jobId, objectId: earlier.objectId, quoteCents: earlier.quoteCents } });
          });
          return { jobId: earlier.jobId, status: 'SUCCEEDED', note: `Reused the earlier result object:${earlier.objectId} (same prompt, reference and sources); nothing was ordered.` };
        }
      }
      // The card speaks the task's language.
      const { language } = await readTaskBrief(ctx.uow.prisma, ctx.taskId);
      // Set by the gate inside the order's transaction: the settings row it locked and the quote.
      let locked: SettingsRow | undefined;
      let quote = 0;
      const r = await orderGeneration<GateOutcome>(
        deps,
        {
          workspaceId: ctx.workspaceId,
          taskId: ctx.taskId,
          kind,
          prompt: input.prompt,
          params: {
            finishWhenDone: input.finishWhenDone,
            ...(input.checklistItemId ? { checklistItemId: input.checklistItemId } : {}),
            ...(input.referenceId ? { referenceId: input.referenceId } : {}),
            ...(step ? { checklistRound: step.round } : {}),
            ...(sources.length ? { sources } : {}),
          },
          idempotencyKey: ctx.idempotencyKey,
          workerId: ctx.workerId,
          turnGeneration: ctx.generation,
        },
        {
          lock: async (tx) => {
            locked = await lockWorkspaceSettings(tx, ctx.workspaceId);
          },
          decide: async (tx, emit, quoteCents) => {
            quote = quoteCents;
            const gate = await paidActionGate(
              tx,
              emit,
              {
                workspaceId: ctx.workspaceId,
                taskId: ctx.taskId,
                requestKey: ctx.idempotencyKey,
                quoteCents,
                title: textsFor(language).generateTitle(kind, quoteCents, input.prompt.slice(0, 120)),
                action: { type: 'GENERATE', kind, prompt: input.prompt.slice(0, 1000), toolCallId: ctx.idempotencyKey },
              },
              locked,
            );
            return gate.outcome;
          },
        },
      );
      if (r.kind === 'ordered') {
        if (input.checklistItemId) {
          // The step shows it is being generated: its order count is derived from its jobs
          // (write-checklist.ts), so this write only starts the step — idempotent by the call's key.
          const itemId = input.checklistItemId;
          const round = Number((r.job.params as { checklistRound?: unknown }).checklistRound ?? 0);
          await transactWithEvents(ctx.uow, (tx, emit) =>
            writeChecklist(tx, emit, { taskId: ctx.taskId, actor: { kind: 'SYSTEM' }, reason: `ordered a result for ${itemId}`, callKey: `${ctx.idempotencyKey}:order` }, (items) =>
              startStep(items, itemId, round),
            ),
          );
          // Decide on the job as it is now, never on the snapshot taken when it was ordered.
          const now = await readJobStatus(ctx.uow.prisma, r.job.id);
          return { jobId: now.id, status: now.status };
        }
        return { jobId: r.job.id, status: r.job.status };
      }
      const o = r.outcome;
      if (o.kind === 'awaiting-approval') throw new AwaitingApproval(o.approvalId, `${what} (${(quote / 100).toFixed(2)} USD)`);
      if (o.kind === 'budget-exceeded') throw new BudgetExceeded(o.reason);
      if (o.kind === 'rejected') return { jobId: null, status: 'REJECTED', approvalId: o.approvalId, note: o.note ?? 'A person declined this paid action.' };
      // The person sent an instruction instead of confirming the price: nothing was ordered; the
      // next step reads the instruction and orders again (a new card) only if it still wants to.
      if (o.kind === 'superseded') return { jobId: null, status: 'SUPERSEDED', approvalId: o.approvalId, note: o.note ?? 'The user sent a new instruction instead of confirming the price.' };
      throw new Error(`unexpected gate outcome ${o.kind}`);
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
