// An event's payload as readers outside GraphQL see it (webhook bodies, the MCP server), opened the
// way the TaskEvent.payload field opens it: loaded from its content-hash reference, sealed parts
// opened with their data keys, or withheld once forgetting destroyed a key; a PRIVATE event has no
// payload at all. The caller has loaded the events through the viewer's visibility rules.
import type { Viewer } from '../../auth/viewer.ts';
import { openValue, sealedKeyIds, WITHHELD_TEXT, type KnownKey } from '../../domain/sealing.ts';
import type { Deps } from '../deps.ts';
import { loadDataKeys } from './data-keys.ts';
import type { EventRow } from './event-view.ts';
import { loadEventPayloads } from './load-payloads.ts';

export type OpenedPayload = {
  /** Null for a private event (and for an event without payload). */
  payload: unknown;
  /** Set when forgetting destroyed a key the payload was sealed under: its parts are withheld. */
  withheld: { reason: 'FORGOTTEN_MEMORY'; message: string } | null;
};

/** The events' payloads, in their order, with one read of references and one of keys for them all. */
export async function openedPayloads(deps: Deps, viewer: Viewer, events: readonly EventRow[]): Promise<OpenedPayload[]> {
  const hashes = [...new Set(events.filter((e) => e.redaction !== 'PRIVATE' && e.payloadHash).map((e) => e.payloadHash!))];
  const loaded = hashes.length ? await loadEventPayloads(deps, viewer, hashes) : [];
  const byHash = new Map(hashes.map((h, i) => [h, loaded[i]]));
  const raws = events.map((e) => (e.redaction === 'PRIVATE' ? null : e.payloadHash ? byHash.get(e.payloadHash) : e.payload));
  const ids = [...new Set(raws.flatMap((r) => [...sealedKeyIds(r)]))];
  const keys = ids.length ? await loadDataKeys(deps, viewer, ids) : [];
  const known = new Map<string, KnownKey>(ids.map((id, i) => [id, keys[i]!]));
  return raws.map((raw) => {
    if (!sealedKeyIds(raw).size) return { payload: raw ?? null, withheld: null };
    const opened = openValue(known, raw);
    return {
      payload: opened.value ?? null,
      withheld: opened.withheld ? { reason: 'FORGOTTEN_MEMORY' as const, message: WITHHELD_TEXT } : null,
    };
  });
}

/** One event's payload (see openedPayloads). */
export async function openedPayload(deps: Deps, viewer: Viewer, event: EventRow): Promise<OpenedPayload> {
  return (await openedPayloads(deps, viewer, [event]))[0]!;
}
