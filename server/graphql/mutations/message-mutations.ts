import { answerCard, sendCardAnswer } from '../../services/messages/answer-card.ts';
import { sendMessage } from '../../services/messages/send-message.ts';
import { withdrawOrReplaceMessage } from '../../services/messages/withdraw-message.ts';
import { rerouteMessage } from '../../services/tasks/manage-task.ts';
import { builder } from '../builder.ts';
import { parseGlobalId, parseOptionalGlobalId } from '../ids.ts';
import { AnswerCardInput } from '../inputs/answer-card-input.ts';
import { SendMessageInput } from '../inputs/send-message-input.ts';
import { AnswerCardPayload } from '../payloads/answer-card-payload.ts';
import { MessagePayload } from '../payloads/message-payload.ts';
import { SendMessagePayload } from '../payloads/send-message-payload.ts';

builder.mutationFields((t) => ({
  sendMessage: t.field({
    type: SendMessagePayload,
    description:
      'Write in the main thread. Routed by code when it names a task or object; otherwise by the router. When it is unclear where it goes, the payload carries a question (approval) to answer with resolveApproval.',
    args: { input: t.arg({ type: SendMessageInput, required: true, description: 'The message.' }) },
    resolve: (_r, { input }, ctx) => {
      const workspaceId = parseGlobalId(String(input.workspaceId), 'Workspace', 'input.workspaceId');
      if (input.cardAction) {
        const cardAction = { cardId: parseGlobalId(String(input.cardAction.cardId), 'Approval', 'input.cardAction.cardId'), optionId: input.cardAction.optionId };
        return sendCardAnswer(ctx.deps, ctx.viewer, { workspaceId, text: input.text, cardAction, idempotencyKey: input.idempotencyKey });
      }
      return sendMessage(ctx.deps, ctx.viewer, {
        workspaceId,
        text: input.text ?? '',
        taskId: parseOptionalGlobalId(input.taskId, 'Task', 'input.taskId'),
        objectId: parseOptionalGlobalId(input.objectId, 'WorkspaceObject', 'input.objectId'),
        idempotencyKey: input.idempotencyKey,
        inputPolicy: input.inputPolicy ?? undefined,
      });
    },
  }),
  answerCard: t.field({
    type: AnswerCardPayload,
    description:
      'Answer a question of the main thread with one of its options. The choice applies to the message that raised the question: that message, with its own text, goes to the task picked or becomes a new task. No text is sent. Final: the same answer again returns the recorded one; another option is CONFLICT (CARD_ALREADY_ANSWERED).',
    deprecationReason: 'Use resolveApproval (decision PICK, choice: the option id): a question is an Approval of kind QUESTION.',
    args: { input: t.arg({ type: AnswerCardInput, required: true, description: 'The question and the option chosen.' }) },
    resolve: (_r, { input }, ctx) =>
      answerCard(ctx.deps, ctx.viewer, { cardId: parseGlobalId(String(input.cardId), 'Approval', 'input.cardId'), optionId: input.optionId, idempotencyKey: input.idempotencyKey }),
  }),
  rerouteMessage: t.field({
    type: MessagePayload,
    description: 'Correct where a message went. The old decision stays on record, superseded.',
    args: {
      messageId: t.arg.id({ required: true, description: 'The message (Message.id).' }),
      taskId: t.arg.id({ required: true, description: 'The task it should have gone to (Task.id); a finished task gets a next round.' }),
    },
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
    args: { messageId: t.arg.id({ required: true, description: 'The message (Message.id).' }) },
    resolve: async (_r, args, ctx) => ({
      message: await withdrawOrReplaceMessage(ctx.deps, ctx.viewer, { messageId: parseGlobalId(String(args.messageId), 'Message', 'messageId') }, 'withdraw'),
    }),
  }),
  replaceMessage: t.field({
    type: MessagePayload,
    description: 'Change a message the agent has not read yet.',
    args: { messageId: t.arg.id({ required: true, description: 'The message (Message.id).' }), text: t.arg.string({ required: true, description: 'Its new text.' }) },
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
