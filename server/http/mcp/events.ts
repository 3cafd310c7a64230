// Events as read_events and the milestone stream show them: the event type's typed fields (the
// catalogue's, with global ids and enum values — what webhook bodies and the API's event types
// carry), a payload opened the way TaskEvent.payload opens it (sealed parts opened with their data
// keys, withheld once forgotten), never a private event's payload.
import { z } from 'zod';
import { EVENT_CATALOG, isEventType, visibilityOf } from '../../domain/event-catalog.ts';
import { cursorOfEvent, type EventRow } from '../../services/events/event-view.ts';
import { openedPayloads } from '../../services/events/opened-payload.ts';
import { presentFields } from '../../services/events/present-fields.ts';
import { globalId } from '../../graphql/ids.ts';
import { publicText } from '../../graphql/public-ids.ts';
import type { McpCall } from './task-view.ts';

export const EventOut = z.object({
  id: z.string(),
  taskId: z.string(),
  seq: z.number().int().describe("The event's number in its task's log (1, 2, …)."),
  cursor: z.string().describe('Pass as `after` to read the workspace events after this one.'),
  type: z.string(),
  visibility: z.enum(['MILESTONE', 'DETAIL']),
  occurredAt: z.string(),
  text: z.string().describe('What happened, in words.'),
  redacted: z.boolean().describe('A private event: kept for audit, shown without its fields.'),
  fields: z.record(z.string(), z.unknown()).nullable().describe("The event type's typed fields (as the GraphQL event types show them)."),
});
export type EventOut = z.infer<typeof EventOut>;

/** One line about an event: the catalogue's sentence, with the fields a person reads first. */
export function eventText(type: string, fields: Record<string, unknown> | null): string {
  const about = isEventType(type) ? EVENT_CATALOG[type].about : type;
  if (!fields) return about;
  if (type === 'TASK_STATUS_CHANGED') return `Status ${String(fields.from)} → ${String(fields.to)}${fields.reason ? `: ${String(fields.reason)}` : ''}`;
  const said = ['title', 'summary', 'text', 'reason', 'label', 'name'].map((k) => fields[k]).find((v) => typeof v === 'string' && v.trim());
  return said ? `${about} ${publicText(String(said)).slice(0, 300)}` : about;
}

export async function presentEvents(call: McpCall, events: readonly EventRow[]): Promise<EventOut[]> {
  const payloads = (await openedPayloads(call.deps, call.viewer, events)).map((p) => p.payload);
  return events.map((e, i) => {
    const fields = e.redaction === 'PRIVATE' ? null : presentFields(e.type, payloads[i]);
    return {
      id: globalId('TaskEvent', `${e.taskId}:${e.seq}`),
      taskId: globalId('Task', e.taskId),
      seq: e.seq,
      cursor: cursorOfEvent(e),
      type: e.type,
      visibility: visibilityOf(e.type),
      occurredAt: e.occurredAt.toISOString(),
      text: eventText(e.type, fields),
      redacted: e.redaction === 'PRIVATE',
      fields,
    };
  });
}
