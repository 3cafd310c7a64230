// The former name of a QUESTION approval (a question about a message of the main thread). Kept for
// one release so that clients reading Message.card, SendMessagePayload.card and answerCard go on
// working; it is the same thing as the Approval with the same id.
import { builder } from '../builder.ts';
import { CardKindEnum } from '../enums/card-kind.ts';
import { CardStatusEnum } from '../enums/card-status.ts';
import { globalId } from '../ids.ts';
import { publicText } from '../public-ids.ts';
import { ApprovalRef, CardOptionRef, CardRef, type CardOption } from '../refs.ts';

builder.objectType(CardRef, {
  description:
    'Former name of an Approval of kind QUESTION: a question about a message of your main thread, whose answer routes that message. Read it as an Approval (Message.approval, SendMessagePayload.approval) and answer it with resolveApproval; this type goes away in the next release.',
  fields: (t) => ({
    id: t.id({ description: 'The global id of the same question as an Approval (pass it to resolveApproval or node(id)).', resolve: (c) => globalId('Approval', c.id) }),
    kind: t.field({ type: CardKindEnum, description: 'What the question asks.', resolve: (c) => c.kind as 'CLARIFY' | 'WHICH_TASK' | 'CONFIRM_CANCEL' }),
    prompt: t.string({ description: 'The question, in the language of the message (Approval.title).', resolve: (c) => publicText(c.prompt) }),
    status: t.field({ type: CardStatusEnum, description: 'OPEN, or RESOLVED once answered (Approval.status PENDING / APPROVED).', resolve: (c) => c.status }),
    choice: t.exposeString('choice', { nullable: true, description: 'The id of the option chosen.' }),
    answeredAt: t.expose('resolvedAt', { type: 'DateTime', nullable: true, description: 'When it was answered.' }),
    options: t.field({ type: [CardOptionRef], description: 'What to choose from.', resolve: (c) => c.options as CardOption[] }),
    approval: t.field({ type: ApprovalRef, description: 'The same question as an Approval (kind QUESTION).', resolve: (c) => c }),
  }),
});
