import { builder } from '../builder.ts';
import { WebhookDeliveryAttemptRef } from '../refs.ts';

builder.objectType(WebhookDeliveryAttemptRef, {
  description: 'One HTTP attempt of a webhook delivery, logged whatever its outcome.',
  fields: (t) => ({
    series: t.exposeInt('series', { description: 'The series it belongs to (1, then one more per redelivery).' }),
    number: t.exposeInt('number', { description: 'Its number within the series, from 1.' }),
    startedAt: t.expose('startedAt', { type: 'DateTime', description: 'When it started; the webhook-timestamp header it carried (to the second).' }),
    durationMs: t.exposeInt('durationMs', { description: 'How long it took, until the answer or the timeout.' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The receiver's HTTP status; null when none came (timeout, refused connection)." }),
    succeeded: t.boolean({ description: 'Whether the receiver answered 2xx.', resolve: (a) => a.statusCode !== null && a.statusCode >= 200 && a.statusCode < 300 }),
    error: t.exposeString('error', { nullable: true, description: 'Why it failed, as a sentence; null when it succeeded.' }),
    responseBody: t.exposeString('responseBody', { nullable: true, description: "The first kilobyte of the receiver's answer, as text." }),
  }),
});
