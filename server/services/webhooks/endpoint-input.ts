// What a webhook endpoint may be, checked with zod at the service boundary. A refused input is
// BAD_USER_INPUT with one plain sentence naming the field, and nothing is written.
import { z } from 'zod';
import { EVENT_TYPES, isEventType, selectedTypes, type EventType, type EventVisibility } from '../../domain/event-catalog.ts';
import { badInput } from '../../errors.ts';

/** Hosts that may be reached over plain http:// (a receiver on the same machine: tests, local tools). */
const LOOPBACK_HOSTS = new Set(['127.0.0.1', '[::1]', 'localhost']);
export const MAX_URL_LENGTH = 2048;
export const MAX_DESCRIPTION_LENGTH = 500;
/** The longest grace a rotation may give the previous secret (7 days). */
export const MAX_GRACE_SECONDS = 7 * 86_400;

export const WebhookUrl = z.string().superRefine((raw, ctx) => {
  const fail = (message: string) => ctx.addIssue({ code: 'custom', message });
  if (raw.length > MAX_URL_LENGTH) return fail(`url must be at most ${MAX_URL_LENGTH} characters`);
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return fail('url is not an absolute URL; give one like https://example.com/hooks/atelier');
  }
  if (u.protocol === 'http:' && !LOOPBACK_HOSTS.has(u.hostname)) {
    return fail('url must use https://; plain http:// is accepted only for 127.0.0.1, ::1 and localhost');
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return fail('url must be an https:// address');
  if (u.username || u.password) return fail('url must not contain a user name or password; a receiver checks the signature instead');
  if (u.hash) return fail('url must not contain a #fragment (it is never sent to the receiver)');
});

const Description = z.string().max(MAX_DESCRIPTION_LENGTH, `description must be at most ${MAX_DESCRIPTION_LENGTH} characters`);

const EventTypes = z.array(z.string()).superRefine((types, ctx) => {
  if (types.length > EVENT_TYPES.length) {
    return ctx.addIssue({ code: 'custom', message: `eventTypes lists ${types.length} types; there are only ${EVENT_TYPES.length}` });
  }
  const unknown = types.filter((t) => !isEventType(t));
  if (unknown.length) {
    const shown = unknown.slice(0, 3).map((t) => JSON.stringify(t.slice(0, 40))).join(', ');
    ctx.addIssue({ code: 'custom', message: `eventTypes: ${shown} ${unknown.length === 1 ? 'is not an event type' : 'are not event types'} (the types are those of TaskEvent.type)` });
  }
});

const Visibilities = z.array(z.enum(['MILESTONE', 'DETAIL'])).max(2, 'visibilities lists MILESTONE and DETAIL at most once each');

const Uuid = z.string().uuid();

export const CreateEndpointInput = z.object({
  workspaceId: Uuid,
  url: WebhookUrl,
  description: Description.default(''),
  enabled: z.boolean().default(true),
  eventTypes: EventTypes.default([]),
  visibilities: Visibilities.default([]),
});

export const UpdateEndpointInput = z.object({
  endpointId: Uuid,
  url: WebhookUrl.optional(),
  description: Description.optional(),
  enabled: z.boolean().optional(),
  eventTypes: EventTypes.optional(),
  visibilities: Visibilities.optional(),
});

export const RotateSecretInput = z.object({
  endpointId: Uuid,
  graceSeconds: z
    .number()
    .int('graceSeconds must be a whole number of seconds')
    .min(0, 'graceSeconds must be 0 or more')
    .max(MAX_GRACE_SECONDS, `graceSeconds must be at most ${MAX_GRACE_SECONDS} (7 days)`)
    .optional(),
});

/** Parses with `schema`; a refusal is BAD_USER_INPUT with the first problem as its sentence. */
export function parseWebhookInput<S extends z.ZodType>(schema: S, raw: unknown): z.output<S> {
  const r = schema.safeParse(raw);
  if (r.success) return r.data;
  const fields = r.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
  const first = r.error.issues[0]!;
  const path = first.path.join('.');
  // Our own messages name their field; zod's generic ones get it in front.
  const message = first.code === 'custom' || first.message.startsWith(String(first.path[0] ?? '')) ? first.message : `${path || 'input'}: ${first.message}`;
  throw badInput(message, { argument: String(first.path[0] ?? 'input'), fields });
}

/** Distinct, in catalog order, so a stored filter reads the same however it was written. */
export function normalizeTypes(types: readonly string[]): EventType[] {
  const set = new Set(types);
  return EVENT_TYPES.filter((t) => set.has(t));
}

export function normalizeVisibilities(v: readonly EventVisibility[]): EventVisibility[] {
  return (['MILESTONE', 'DETAIL'] as const).filter((x) => v.includes(x));
}

/** A filter that selects no type would never deliver anything: refuse it rather than store it. */
export function checkSelectsSomething(types: readonly EventType[], visibilities: readonly EventVisibility[]): void {
  const selected = selectedTypes({ types, visibility: visibilities });
  if (selected && selected.length === 0) {
    throw badInput(`The filters select no event: none of eventTypes has the visibility ${visibilities.join(' or ')}`, { argument: 'visibilities' });
  }
}
