// An event's payload as its typed fields (the catalogue's, domain/event-catalog.ts), for readers
// outside GraphQL — webhook bodies — so they carry what the API's event types show: references as
// global ids, lower-case runtime values as the upper-case enum values, nothing else of the payload.
import { EVENT_CATALOG, isEventType, type PayloadField } from '../../domain/event-catalog.ts';

const globalId = (type: string, id: string) => Buffer.from(`${type}:${id}`, 'utf8').toString('base64');
/** exceedBudget → EXCEED_BUDGET; QUEUED stays QUEUED. */
export const enumValue = (v: string) => v.replace(/([a-z])([A-Z])/g, '$1_$2').toUpperCase();
const SCALARS = new Set(['String', 'Int', 'Float', 'Boolean', 'JSON']);

/** The value at a dotted path of a payload (undefined where there is none). */
export function payloadAt(payload: unknown, path: string): unknown {
  let v: unknown = payload;
  for (const k of path.split('.')) v = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[k] : undefined;
  return v;
}

/** The typed fields of an (opened) payload; null values where the payload has none. */
export function presentFields(type: string, payload: unknown): Record<string, unknown> {
  if (!isEventType(type)) return {};
  const out: Record<string, unknown> = {};
  for (const [name, [kind, , path]] of Object.entries(EVENT_CATALOG[type].fields as Record<string, PayloadField>)) {
    const v = payloadAt(payload, path ?? name);
    if (v === undefined || v === null) out[name] = null;
    else if (kind.startsWith('ID:')) out[name] = typeof v === 'string' ? globalId(kind.slice(3), v) : null;
    else if (kind === '[EventToolCall]' && Array.isArray(v)) out[name] = v.map((c: { id?: unknown; name?: unknown }) => ({ id: typeof c.id === 'string' ? globalId('ToolCall', c.id) : null, name: c.name ?? null }));
    else if (kind.startsWith('[') || SCALARS.has(kind)) out[name] = v;
    else out[name] = typeof v === 'string' ? enumValue(v) : null;
  }
  return out;
}
