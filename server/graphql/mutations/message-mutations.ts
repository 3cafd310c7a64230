import type { Message } from '../../db/generated/client.ts';
import { sendMessage } from '../../services/messages/send-message.ts';
import { withdrawOrReplaceMessage } from '../../services/messages/withdraw-message.ts';
import { rerouteMessage } from '../../services/tasks/manage-task.ts';
import { builder } from '../builder.ts';
import { parseGlobalId, parseOptionalGlobalId } from '../ids.ts';
import { TaskRef } from '../types/task.ts';
import { MessageRef } from '../types/thread.ts';
import { CardRef, RouteDecisionRef } from '../types/routing.ts';

const CardActionInput = builder.inputType('CardActionInput', {
  fields: (t) => ({ cardId: t.id({ required: true }), optionId: t.string({ required: true }) }),
});

const SendMessageInput = builder.inputType('SendMessageInput', {
  fields: (t) => ({
    workspaceId: t.id({ required: true }),
    text: t.string({ required: true }),
    taskId: t.id({ required: false, description: 'Sent from a task panel: delivered to this task without routing.' }),
    objectId: t.string({ required: false, description: 'Sent while viewing a workspace object.' }),
    cardAction: t.field({ type: CardActionInput, required: false, description: 'The option picked on a card.' }),
    idempotencyKey: t.string({ required: true, description: 'Retrying with the same key returns the first result.' }),
  }),
});

type SendResult = Awaited<ReturnType<typeof sendMessage>>;
const SendMessagePayload = builder.objectRef<SendResult>('SendMessagePayload').implement({
  fields: (t) => ({
    message: t.field({ type: MessageRef, resolve: (r, _a, ctx) => ctx.loaders.message.load(r.messageId).then((m) => m!) }),
    route: t.field({ type: RouteDecisionRef, resolve: (r, _a, ctx) => ctx.deps.prisma.routeDecision.findUniqueOrThrow({ where: { id: r.decisionId } }) }),
    task: t.field({ type: TaskRef, nullable: true, resolve: (r, _a, ctx) => (r.taskId ? ctx.loaders.task.load(r.taskId) : null) }),
    card: t.field({ type: CardRef, nullable: true, resolve: (r, _a, ctx) => (r.cardId ? ctx.deps.prisma.card.findUnique({ where: { id: r.cardId } }) : null) }),
    reply: t.field({ type: MessageRef, nullable: true, resolve: (r, _a, ctx) => (r.replyId ? ctx.loaders.message.load(r.replyId) : null) }),
    duplicate: t.exposeBoolean('duplicate', { description: 'True when this idempotency key was used before (nothing new was created).' }),
  }),
});

const MessagePayload = builder.objectRef<{ message: Message }>('MessagePayload').implement({
  fields: (t) => ({ message: t.field({ type: MessageRef, resolve: (p) => p.message }) }),
});

builder.mutationFields((t) => ({
  sendMessage: t.field({
    type: SendMessagePayload,
    description: 'Write in the main thread. Routed by code when it names a task, card or object; otherwise by the router.',
    args: { input: t.arg({ type: SendMessageInput, required: true }) },
    resolve: (_r, { input }, ctx) =>
      sendMessage(ctx.deps, ctx.viewer, {
        workspaceId: parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId'),
        text: input.text,
        taskId: parseOptionalGlobalId(input.taskId, 'Task', 'input.taskId'),
        objectId: input.objectId ?? undefined,
        cardAction: input.cardAction ? { cardId: String(input.cardAction.cardId), optionId: input.cardAction.optionId } : undefined,
        idempotencyKey: input.idempotencyKey,
      }),
  }),
  rerouteMessage: t.field({
    type: MessagePayload,
    description: 'Correct where a message went. The old decision stays on record, superseded.',
    args: { messageId: t.arg.id({ required: true }), taskId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => ({
      message: await rerouteMessage(
        ctx.deps,
        ctx.viewer,
        parseGlobalId(String(args.messageId), 'Message', 'messageId'),
        parseGlobalId(String(args.taskId), 'Task', 'taskId'),
      ),
    }),
  }),
  withdrawMessage: t.field({
    type: MessagePayload,
    description: 'Take back a message the agent has not read yet (CONFLICT once a step read it).',
    args: { messageId: t.arg.id({ required: true }) },
    resolve: async (_r, args, ctx) => ({
      message: await withdrawOrReplaceMessage(ctx.deps, ctx.viewer, { messageId: parseGlobalId(String(args.messageId), 'Message', 'messageId') }, 'withdraw'),
    }),
  }),
  replaceMessage: t.field({
    type: MessagePayload,
    description: 'Change a message the agent has not read yet.',
    args: { messageId: t.arg.id({ required: true }), text: t.arg.string({ required: true }) },
    resolve: async (_r, args, ctx) => ({
      message: await withdrawOrReplaceMessage(
        ctx.deps,
        ctx.viewer,
        { messageId: parseGlobalId(String(args.messageId), 'Message', 'messageId'), text: args.text },
        'replace',
      ),
    }),
  }),
}));
