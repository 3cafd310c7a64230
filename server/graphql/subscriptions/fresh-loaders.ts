// Over graphql-ws one context serves every event of a subscription. Its DataLoaders cache by id for
// the life of that context, so a nested field (the object of an object change, the task of an
// event) would keep showing what the first event loaded. Each event gets new loaders before its
// fields resolve: every event reads the state as of that event. Events of one subscription are
// resolved one after another, so replacing the loaders cannot pull them from under a running event.
import type { Context } from '../context.ts';
import { createLoaders } from '../loaders.ts';

export function withFreshLoaders<E>(event: E, ctx: Context): E {
  ctx.loaders = createLoaders(ctx.deps, ctx.viewer);
  return event;
}
