// Filtering a task's or a workspace's events by type and visibility. A filter only drops events:
// what it selects keeps its order and its cursor (seq or workspace position), so a filtered
// stream resumed from the cursor of the last event it delivered misses nothing it selects and
// repeats nothing.
import { selectedTypes, type EventType, type EventVisibility } from '../../domain/event-catalog.ts';

export type EventFilter = { types?: readonly EventType[] | null; visibility?: readonly EventVisibility[] | null };

/** The selected types, or null when every type is selected. */
export function typeSet(filter: EventFilter | undefined): Set<string> | null {
  const types = filter ? selectedTypes(filter) : null;
  return types ? new Set(types) : null;
}

/** A stream keeping the events of the selected types; other items (a feed's start marker) pass. */
export async function* filterStream<T>(stream: AsyncGenerator<T>, types: Set<string> | null): AsyncGenerator<T> {
  if (!types) return yield* stream;
  for await (const item of stream) {
    const type = (item as { type?: unknown }).type;
    if (typeof type !== 'string' || types.has(type)) yield item;
  }
}
