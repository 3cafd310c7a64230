// Opaque, resumable workspace cursors: base64url("v1:<workspaceId>:<position>").
import { badInput } from '../errors.ts';

export function encodeWorkspaceCursor(workspaceId: string, position: number): string {
  return Buffer.from(`v1:${workspaceId}:${position}`, 'utf8').toString('base64url');
}

// Exactly what encodeWorkspaceCursor writes: a lowercase uuid (a looser pattern lets malformed ids
// reach uuid columns) and a position that stays an exact JavaScript integer.
const CURSOR = /^v1:([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}):(0|[1-9]\d{0,14})$/;

export function decodeWorkspaceCursor(cursor: string, argument = 'after'): { workspaceId: string; position: number } {
  const m = /^[A-Za-z0-9_-]{1,200}={0,2}$/.test(cursor) ? CURSOR.exec(Buffer.from(cursor, 'base64url').toString('utf8')) : null;
  if (!m) throw badInput(`${argument} is not a cursor of this stream (pass an earlier event's cursor)`, { argument });
  return { workspaceId: m[1]!, position: Number(m[2]) };
}
