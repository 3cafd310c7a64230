'use client';
// Where owners look for what waits for them (the Studio's task list): a tool server that changed its
// tools waits for an owner's decision on a card that belongs to no task (the quarantine card), so no
// task shows it. This notice names such servers and leads to Settings, where the card is decided.
import Link from 'next/link';
import { useEffect } from 'react';
import { useBusVersion } from '../lib/bus';
import { McpServersDoc } from '../lib/documents';
import { useGql, useSession, useThrottled } from '../lib/hooks';

export function McpPendingNotice() {
  const session = useSession();
  const { data, reload } = useGql(session.isOwner ? McpServersDoc : null, { workspaceId: session.workspaceId }, session.workspaceId);
  const version = useBusVersion();
  const refresh = useThrottled(() => void reload(), 1000);
  useEffect(() => refresh(), [version, refresh]);
  const waiting = (data?.workspace.mcpServers ?? []).filter((s) => s.status === 'QUARANTINED' && s.pendingChange?.approval?.status === 'PENDING');
  if (!session.isOwner || !waiting.length) return null;
  return (
    <p className="notice small" role="status" data-testid="mcp-waiting">
      {waiting.length === 1 ? `“${waiting[0]!.title}” changed its tools` : `${waiting.length} tool servers changed their tools`}: they stay off until you decide.{' '}
      <Link href="/settings#mcp">Decide in Settings</Link>
    </p>
  );
}
