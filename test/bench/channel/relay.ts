// The channel benchmark's baseline relay: the least a server can do to deliver a committed row to
// WebSocket subscribers — one LISTEN connection, and each notification's payload written as is to
// every connected socket (no database read, no GraphQL, no per-subscriber state). It runs in the
// server's process, so the app path and the baseline share that process and its event loop, and
// both are measured by the same subscriber process.
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import { WebSocketServer } from 'ws';

export const RELAY_CHANNEL = 'bench_relay';
export const RELAY_TABLE_SQL = `CREATE TABLE IF NOT EXISTS bench_relay_events (
  id bigserial PRIMARY KEY, payload jsonb NOT NULL, created_at timestamptz NOT NULL DEFAULT clock_timestamp())`;

export type Relay = { url: string; notifications: () => number; close(): Promise<void> };

export async function startRelay(dbUrl: string): Promise<Relay> {
  const setup = new pg.Client({ connectionString: dbUrl });
  await setup.connect();
  await setup.query(RELAY_TABLE_SQL);
  await setup.end();
  const listener = new pg.Client({ connectionString: dbUrl });
  await listener.connect();
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 });
  await new Promise<void>((r) => wss.once('listening', () => r()));
  let notifications = 0;
  listener.on('notification', (m) => {
    if (m.channel !== RELAY_CHANNEL || !m.payload) return;
    notifications++;
    for (const c of wss.clients) if (c.readyState === c.OPEN) c.send(m.payload);
  });
  await listener.query(`LISTEN ${RELAY_CHANNEL}`);
  const port = (wss.address() as AddressInfo).port;
  return {
    url: `ws://127.0.0.1:${port}`,
    notifications: () => notifications,
    close: async () => {
      for (const c of wss.clients) c.terminate();
      await new Promise<void>((r) => wss.close(() => r()));
      await listener.end();
    },
  };
}
