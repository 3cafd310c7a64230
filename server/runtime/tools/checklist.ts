// Tools over the execution checklist and human checkpoints. The worker plans and updates the
// checklist; the runtime, not the model, decides what a plan needs (a person's approval for the
// first plan of a persistent task and whenever its scope or cost grows) and what counts as done
// (a generation step is DONE only with its results linked). ask_user makes a checkpoint a persisted
// card; the answer comes back as the call's result when the task resumes.
import { z } from 'zod';
import { transactWithEvents } from '../../channel/unit-of-work.ts';
import { requestApproval } from '../../store/approvals/request-approval.ts';
import { readChecklistVersion, writeChecklist } from '../../store/checklist/write-checklist.ts';
import type { Capabilities } from '../capabilities.ts';
import { estimateCents, SETTABLE_STATUSES, mergePlan, patchItem, remainingCents, scopeGrew } from '../../domain/checklist.ts';
import { committedCents } from '../../store/approvals/paid-action-gate.ts';
import { readPlanApproval, readTaskBrief } from '../../store/journal/tasks.ts';
import { textsFor } from '../../domain/replies/texts.ts';
import { AwaitingApproval } from '../errors.ts';
import { defineTool, type ToolDef } from './types.ts';

const usd = (c: number) => `$${(c / 100).toFixed(2)}`;
const GENERATION_KINDS = new Set(['IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D']);

export function checklistTools(caps: Capabilities): ToolDef[] {
  const planChecklist = defineTool({
    name: 'plan_checklist',
    domain: 'core',
    description:
      'Set the execution checklist for the task: ordered steps, each with a kind (IMAGE, VIDEO, AUDIO, MODEL_3D, DOCUMENT, CHECKPOINT, OTHER) and a count. ' +
      'Re-plan with the full list when the user changes direction: steps keep their progress by id. ' +
      'Give a step `after` (the steps whose results it uses) to make the plan a graph; independent steps can then run side by side. ' +
      'The first plan of a task, and any plan that grows in paid results or cost, is shown to the user for approval before work goes on. ' +
      'Status SUPERSEDED: the user sent an instruction instead of deciding — read it and plan again.',
    input: z.object({
      items: z
        .array(
          z.object({
            id: z.string().min(1).max(40).optional(),
            title: z.string().min(1).max(300),
            kind: z.string().min(1).max(40).default('OTHER'),
            count: z.number().int().min(1).max(12).default(1),
            needsApproval: z.boolean().optional(),
            /** Start this step over (a change of direction); its earlier results stay named in the evidence. */
            reopen: z.boolean().optional(),
            after: z
              .array(z.string().min(1).max(40))
              .max(30)
              .optional()
              .describe('The steps (by id or title in this plan) whose results this step uses, e.g. a shot after its character and scene. Omit for none; a circle is refused.'),
          }),
        )
        .min(1)
        .max(30),
      reason: z.string().max(500).default('plan'),
    }),
    output: z.object({ status: z.string(), version: z.number(), estimateCents: z.number(), approvalId: z.string().optional(), note: z.string().nullable().optional() }),
    safety: 'IDEMPOTENT',
    async run(input, ctx) {
      const missing = caps.missing(input.items.map((i) => i.kind));
      if (missing.length) {
        // Caught here, before any money is spent.
        throw new Error(`The platform cannot do ${missing.join(', ')}. ${caps.render()}`);
      }
      const { value } = await transactWithEvents(ctx.uow, async (tx, emit) => {
        const t = textsFor((await readTaskBrief(tx, ctx.taskId)).language);
        const { checklist } = await writeChecklist(tx, emit, { taskId: ctx.taskId, actor: { kind: 'AGENT' }, reason: input.reason, callKey: ctx.idempotencyKey }, (current) =>
          mergePlan(current, input.items, caps.price, input.reason, t),
        );
        const est = estimateCents(checklist.items);
        const task = await readPlanApproval(tx, ctx.taskId);
        if (task.kind === 'LIGHTWEIGHT') return { status: 'ACTIVE', version: checklist.version, estimateCents: est };
        const approved = task.planApprovedVersion ? await readChecklistVersion(tx, ctx.taskId, task.planApprovedVersion) : null;
        const committed = await committedCents(tx, 'task', ctx.taskId);
        const grew = scopeGrew(approved?.items ?? null, checklist.items, task.approvedBudgetCents, committed);
        if (!grew) return { status: 'ACTIVE', version: checklist.version, estimateCents: est };
        // The budget asked for covers what is spent and what the open steps still need.
        const budget = committed + remainingCents(checklist.items);
        const card = (requestKey: string) =>
          requestApproval(tx, emit, {
            workspaceId: ctx.workspaceId,
            taskId: ctx.taskId,
            kind: 'PLAN',
            requestKey,
            // In the task's language, like every card a person reads.
            title: approved ? t.changedPlanTitle(checklist.items.length, budget, committed) : t.planTitle(checklist.items.length, budget),
            reasons: [{ code: 'PLAN_BUDGET', message: approved ? (t.lang === 'en' ? `Approval needed again: ${grew}.` : t.planReasonAgain) : t.planReasonNew }],
            quoteCents: budget,
            action: {
              type: 'PLAN',
              version: checklist.version,
              toolCallId: ctx.idempotencyKey,
              steps: checklist.items.map((i) => ({ id: i.id, title: i.title, kind: i.kind, count: i.count, estimateCents: i.estimateCents })),
            },
            requestedBy: { kind: 'AGENT' },
          });
        let { approval } = await card(`plan:${ctx.taskId}:v${checklist.version}`);
        const raisedBy = (approval.action as { toolCallId?: unknown }).toolCallId;
        if (approval.status === 'SUPERSEDED' && typeof raisedBy === 'string' && raisedBy !== ctx.idempotencyKey) {
          // The user's instruction set this version's card aside, and the model planned again after
          // reading it with the same steps: the plan is asked about anew, with a card of this call.
          ({ approval } = await card(`plan:${ctx.taskId}:v${checklist.version}:${ctx.idempotencyKey}`));
        }
        if (approval.status === 'APPROVED') return { status: 'ACTIVE', version: checklist.version, estimateCents: est };
        if (approval.status === 'SUPERSEDED') {
          // Replayed after the user's instruction arrived instead of a decision: the next step reads it.
          return { status: 'SUPERSEDED', version: checklist.version, estimateCents: est, approvalId: approval.id, note: `${approval.note ?? 'The user sent a new instruction instead.'} Plan again with it.` };
        }
        if (approval.status !== 'PENDING') return { status: 'REJECTED', version: checklist.version, estimateCents: est, approvalId: approval.id, note: approval.note ?? 'The user did not approve this plan.' };
        return { status: 'AWAITING', version: checklist.version, estimateCents: est, approvalId: approval.id };
      });
      // Thrown after the commit: the plan and its card are stored; the call resumes on the decision.
      if (value.status === 'AWAITING') throw new AwaitingApproval(value.approvalId!, `the plan (${usd(value.estimateCents)})`);
      return value;
    },
  });

  const updateChecklist = defineTool({
    name: 'update_checklist',
    domain: 'core',
    description:
      'Update one checklist step: status (TODO, IN_PROGRESS, DONE, SKIPPED, BLOCKED) with evidence, and objectIds: the objects it produced (a document it wrote). Generation steps become DONE by themselves when their results arrive; ' +
      'SKIPPED and BLOCKED need a reason.',
    input: z.object({
      itemId: z.string().min(1).max(40),
      status: z.enum(SETTABLE_STATUSES).optional(),
      evidence: z.string().max(2000).optional(),
      title: z.string().min(1).max(300).optional(),
      /** Workspace objects this step produced (a document it wrote or updated): linked as its results. */
      objectIds: z.array(z.string().uuid()).max(20).optional(),
    }),
    output: z.object({ version: z.number(), item: z.record(z.string(), z.unknown()) }),
    safety: 'IDEMPOTENT',
    async run(input, ctx) {
      const { value } = await transactWithEvents(ctx.uow, async (tx, emit) => {
        const t = textsFor((await readTaskBrief(tx, ctx.taskId)).language);
        const { checklist } = await writeChecklist(tx, emit, { taskId: ctx.taskId, actor: { kind: 'AGENT' }, reason: `step ${input.itemId}`, callKey: ctx.idempotencyKey }, (items) => {
          const item = items.find((i) => i.id === input.itemId);
          if (!item) throw new Error(`No step "${input.itemId}"; steps: ${items.map((i) => i.id).join(', ') || 'none (plan first)'}`);
          if (input.status === 'DONE' && GENERATION_KINDS.has(item.kind) && item.artifacts.length < item.count) {
            throw new Error(`Step "${item.id}" needs ${item.count} result(s) before it is done; ${item.artifacts.length} linked. Generate them (with checklistItemId) or mark it SKIPPED with a reason.`);
          }
          if ((input.status === 'SKIPPED' || input.status === 'BLOCKED') && !input.evidence) throw new Error(`${input.status} needs a reason in evidence`);
          return patchItem(items, input.itemId, { status: input.status, evidence: input.evidence, title: input.title, ...(input.objectIds?.length ? { artifacts: input.objectIds.map((id) => `object:${id}`) } : {}) }, t);
        });
        return { version: checklist.version, item: checklist.items.find((i) => i.id === input.itemId)! };
      });
      return value;
    },
  });

  const askUser = defineTool({
    name: 'ask_user',
    domain: 'core',
    description:
      'Stop at a checkpoint and ask the user with a card: CONFIRM (go on?), CHOOSE (pick one of the options, e.g. candidate images by object id) or ADJUST (what to change). ' +
      'The task waits; the answer comes back as this call\'s result (decision SUPERSEDED: the user sent an instruction instead — read it, and ask again if you still need to). Use it instead of asking in prose.',
    input: z
      .object({
        kind: z.enum(['CONFIRM', 'CHOOSE', 'ADJUST']),
        question: z.string().min(1).max(1000),
        options: z.array(z.object({ id: z.string().min(1).max(60), label: z.string().min(1).max(200), objectId: z.string().max(100).nullable().optional() })).max(12).optional(),
        itemId: z.string().max(40).optional(),
      })
      .refine((a) => a.kind !== 'CHOOSE' || (a.options?.length ?? 0) >= 2, { message: 'CHOOSE needs at least two options', path: ['options'] }),
    output: z.object({ decision: z.string(), choice: z.string().nullable(), choiceLabel: z.string().nullable().optional(), objectId: z.string().nullable().optional(), note: z.string().nullable() }),
    safety: 'IDEMPOTENT',
    async run(input, ctx) {
      const { value } = await transactWithEvents(ctx.uow, async (tx, emit) => {
        const { approval } = await requestApproval(tx, emit, {
          workspaceId: ctx.workspaceId,
          taskId: ctx.taskId,
          kind: 'CHECKPOINT',
          requestKey: ctx.idempotencyKey,
          title: input.question,
          reasons: [],
          quoteCents: null,
          options: input.options,
          action: { type: 'CHECKPOINT', kind: input.kind, itemId: input.itemId ?? null, toolCallId: ctx.idempotencyKey },
          requestedBy: { kind: 'AGENT' },
        });
        if (approval.status === 'PENDING') return { pending: approval.id as string };
        if (approval.status === 'APPROVED' && input.itemId) {
          const choice = input.options?.find((o) => o.id === approval.choice);
          // The person's answer is the evidence that the checkpoint step is done (in the task's language).
          const said = textsFor((await readTaskBrief(tx, ctx.taskId)).language).personChose(choice?.label ?? null, approval.note ?? null);
          await writeChecklist(tx, emit, { taskId: ctx.taskId, actor: { kind: 'SYSTEM' }, reason: `checkpoint ${input.itemId} answered` }, (items) =>
            items.some((i) => i.id === input.itemId)
              ? patchItem(items, input.itemId!, {
                  status: 'DONE',
                  evidence: said,
                  ...(choice?.objectId ? { artifacts: [`object:${choice.objectId}`] } : {}),
                })
              : items,
          );
        }
        const picked = input.options?.find((o) => o.id === approval.choice);
        return { decision: approval.status, choice: approval.choice ?? null, choiceLabel: picked?.label ?? null, objectId: picked?.objectId ?? null, note: approval.note ?? null };
      });
      if ('pending' in value && value.pending) throw new AwaitingApproval(value.pending, input.question.slice(0, 120));
      if ('pending' in value) throw new Error('unreachable');
      return value;
    },
  });

  return [planChecklist, updateChecklist, askUser];
}
