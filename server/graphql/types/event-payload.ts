// An event's payload as a request may read it: loaded from its reference when large, then opened
// (plaintext, or withheld parts). Every typed field of an event reads the same opened payload, so
// it is worked out once per event per request.
import type { EventRow } from '../../services/events/event-view.ts';
import type { Context } from '../context.ts';
import { openForRequest } from '../sealed.ts';

type Opened = Awaited<ReturnType<typeof openForRequest>>;
const cache = new WeakMap<Context, WeakMap<EventRow, Promise<Opened>>>();

export function openedPayload(e: EventRow, ctx: Context): Promise<Opened> {
  let perRequest = cache.get(ctx);
  if (!perRequest) cache.set(ctx, (perRequest = new WeakMap()));
  let p = perRequest.get(e);
  if (!p) {
    p = (async () => openForRequest(ctx, e.payloadHash ? await ctx.loaders.payload.load(e.payloadHash) : e.payload))();
    perRequest.set(e, p);
  }
  return p;
}
