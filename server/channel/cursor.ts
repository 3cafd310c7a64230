// Opaque, resumable workspace cursors: base64url("v1:<workspaceId>:<position>").
import { badInput } from '../errors.ts';

export function encodeWorkspaceCursor(workspaceId: string, position: number): string {
  return Buffer.from(`v1:${workspaceId}:${position}`, 'utf8').toString('base64url');
}

export function decodeWorkspaceCursor(cursor: string): { workspaceId: string; position: number } {
  const m = /^v1:([0-9a-f-]{36}):(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!m) throw badInput('Invalid cursor', { argument: 'after' });
  return { workspaceId: m[1]!, position: Number(m[2]) };
}
