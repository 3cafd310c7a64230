// What a delivery carries, built when it is sent (never stored): the Standard Webhooks body
// { type, timestamp, data }. For an event, data is the event as the API shows it — global ids, its
// workspace cursor (the one TaskEvent.cursor gives, for workspaceEvents(after:)), and the payload
// opened the way the TaskEvent.payload field opens it: loaded from its reference, sealed parts opened
// with their data keys, or withheld once forgetting destroyed a key; a PRIVATE event carries no
// payload at all. Building it at send time means a retry after a forgetting sends the withheld
// marker, never the forgotten text, and the delivery rows hold no payload.
import { encodeGlobalID } from '@pothos/plugin-relay';
import type { Viewer } from '../../auth/viewer.ts';
import { readWorkspaceEvents } from '../../channel/event-feed.ts';
import { visibilityOf } from '../../domain/event-catalog.ts';
import type { DeliveryForSend } from '../../store/webhooks/deliveries.ts';
import type { Deps } from '../deps.ts';
import { cursorOfEvent } from '../events/event-view.ts';
import { presentFields } from '../events/present-fields.ts';
import { openedPayload } from '../events/opened-payload.ts';

/** The delivery's event is no longer in the log (retention removed it): there is nothing to send. */
export class EventGone extends Error {
  constructor() {
    super('The event is no longer in the log (the retention sweep removed it)');
    this.name = 'EventGone';
  }
}

/**
 * The endpoint reads its workspace as a read-only member would: the same visibility rules as a READ
 * token of the workspace (the loaders below take a viewer for that reason).
 */
function endpointViewer(workspaceId: string, endpointId: string): Viewer {
  return {
    userId: '',
    credentialId: `webhook:${endpointId}`,
    scopes: new Set(['READ']),
    memberships: new Map([[workspaceId, 'VIEWER']]),
    principal: 'SERVICE',
  };
}

export async function deliveryBody(deps: Deps, d: DeliveryForSend): Promise<string> {
  if (d.kind === 'PING') {
    return JSON.stringify({
      type: 'PING',
      timestamp: d.occurredAt.toISOString(),
      data: {
        endpointId: encodeGlobalID('WebhookEndpoint', d.endpointId),
        workspaceId: encodeGlobalID('Workspace', d.workspaceId),
        message: 'A test delivery from Atelier (sendTestWebhook). It is signed like every other delivery.',
      },
    });
  }
  // The event by its position (set once, never changed): the channel's own read.
  const [e] = d.eventPosition == null ? [] : await readWorkspaceEvents(deps.prisma, d.workspaceId, Number(d.eventPosition) - 1, 1);
  if (!e || e.id !== d.eventId) throw new EventGone();
  const { payload, withheld } = await openedPayload(deps, endpointViewer(d.workspaceId, d.endpointId), e);
  return JSON.stringify({
    type: e.type,
    timestamp: e.occurredAt.toISOString(),
    data: {
      // The ids TaskEvent.id, Task.id and Workspace.id give.
      id: encodeGlobalID('TaskEvent', `${e.taskId}:${e.seq}`),
      taskId: encodeGlobalID('Task', e.taskId),
      workspaceId: encodeGlobalID('Workspace', e.workspaceId),
      seq: e.seq,
      type: e.type,
      visibility: visibilityOf(e.type),
      occurredAt: e.occurredAt.toISOString(),
      cursor: cursorOfEvent(e),
      redacted: e.redaction === 'PRIVATE',
      // The event type's typed fields, as the API's TaskEvent object types show them (global ids,
      // enum values); null for a private event.
      fields: e.redaction === 'PRIVATE' ? null : presentFields(e.type, payload),
      // The untyped payload, as the deprecated TaskEvent.payload shows it.
      payload,
      withheld,
    },
  });
}
