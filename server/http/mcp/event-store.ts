// Resumability of a session's SSE streams (the SDK's EventStore): a client whose stream broke
// reconnects with Last-Event-ID and receives what it missed. Kept in memory per session and
// bounded — it bridges a dropped connection, not a restart; what must survive a restart (the
// tasks and their events) lives in the database and is read back through tasks/get and read_events.
import type { EventStore } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export class SessionEventStore implements EventStore {
  private readonly events: { id: string; streamId: string; message: JSONRPCMessage }[] = [];
  private next = 0;
  constructor(private readonly limit = 1000) {}

  async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    // Ids sort in the order stored: a counter, zero-padded.
    const id = `${streamId}.${String(++this.next).padStart(10, '0')}`;
    this.events.push({ id, streamId, message });
    if (this.events.length > this.limit) this.events.splice(0, this.events.length - this.limit);
    return id;
  }

  async getStreamIdForEventId(eventId: string): Promise<string | undefined> {
    return this.events.find((e) => e.id === eventId)?.streamId;
  }

  async replayEventsAfter(lastEventId: string, { send }: { send: (eventId: string, message: JSONRPCMessage) => Promise<void> }): Promise<string> {
    const at = this.events.findIndex((e) => e.id === lastEventId);
    if (at < 0) return '';
    const streamId = this.events[at]!.streamId;
    for (const e of this.events.slice(at + 1)) if (e.streamId === streamId) await send(e.id, e.message);
    return streamId;
  }
}
