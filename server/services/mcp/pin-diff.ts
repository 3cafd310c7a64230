// What differs between a server's pin and what discovery saw now, in words a person reads on the
// quarantine card and in the history. Only what the model sees or what decides safety counts: the
// server's version, each tool's schema hash (name, description, schemas, annotations) and, for a
// server started as a command, the checksum of its program files.
import type { McpPin } from '../../domain/mcp-safety.ts';

export type PinDiff = { same: boolean; versionChanged: boolean; changedTools: string[]; reason: string };

export function diffPins(pinned: McpPin | null, seen: McpPin): PinDiff {
  const before = new Map((pinned?.tools ?? []).map((t) => [t.name, t.schemaHash]));
  const after = new Map(seen.tools.map((t) => [t.name, t.schemaHash]));
  const added = [...after.keys()].filter((n) => !before.has(n));
  const removed = [...before.keys()].filter((n) => !after.has(n));
  const changed = [...after.keys()].filter((n) => before.has(n) && before.get(n) !== after.get(n));
  const versionChanged = (pinned?.serverVersion ?? '') !== seen.serverVersion || (pinned?.serverName ?? '') !== seen.serverName;
  // The program files of a server started as a command (a pin made before they were recorded has none).
  const programChanged = !!pinned?.program && pinned.program !== seen.program;
  const parts: string[] = [];
  if (versionChanged) parts.push(`version ${pinned?.serverVersion || '(none)'} → ${seen.serverVersion || '(none)'}`);
  if (programChanged) parts.push('its program files changed');
  if (added.length) parts.push(`new tools: ${added.join(', ')}`);
  if (removed.length) parts.push(`tools gone: ${removed.join(', ')}`);
  if (changed.length) parts.push(`tools changed: ${changed.join(', ')}`);
  const changedTools = [...added, ...removed, ...changed].sort();
  return { same: !versionChanged && !programChanged && changedTools.length === 0, versionChanged, changedTools, reason: parts.join('; ') };
}
