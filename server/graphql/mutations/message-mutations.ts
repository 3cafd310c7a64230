import { sendMessage } from '../../services/messages/send-message.ts';
import { withdrawOrReplaceMessage } from '../../services/messages/withdraw-message.ts';
import { rerouteMessage } from '../../services/tasks/manage-task.ts';
import { builder } from '../builder.ts';
import { parseGlobalId, parseOptionalGlobalId } from '../ids.ts';
import { SendMessageInput } from '../inputs/send-message-input.ts';
import { MessagePayload } from '../payloads/message-payload.ts';
import { SendMessagePayload } from '../payloads/send-message-payload.ts';

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
