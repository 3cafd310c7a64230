// Over graphql-ws one context serves every event of a subscription. Its DataLoaders cache by id for
// the life of that context, so a nested field (the object of an object change, the task of an
// event) would keep showing what the first event loaded. Each event starts with empty caches before
// its fields resolve: every event reads the state as of that event. Events of one subscription are
// resolved one after another, so emptying the caches cannot pull a value from under a running event
// (an earlier event's loads have all settled). Emptied, not replaced: a thousand subscribers of a busy
// task would otherwise build a set of loaders per event each, and the garbage costs more than the
// resolving.
import type { Context } from '../context.ts';

export function withFreshLoaders<E>(event: E, ctx: Context): E {
  for (const loader of Object.values(ctx.loaders)) loader.clearAll();
  return event;
}
