// How a call to an MCP server's tool may be repeated and whether a person must agree first.
// Pure: the server's annotations are hints, the workspace owner's overrides win, and an untrusted
// server's hints are not believed beyond "read-only" (and even that only for the replay class —
// a read-only call from an untrusted server needs no card because it claims to change nothing;
// if it lies, the owner chose to register an untrusted server whose calls are only "read").

export type McpSafety = 'READ_ONLY' | 'IDEMPOTENT' | 'AT_MOST_ONCE';

export type McpToolAnnotations = {
  readOnlyHint?: boolean;
  idempotentHint?: boolean;
  destructiveHint?: boolean;
  openWorldHint?: boolean;
};

/** One tool as discovery saw it: what the model is shown and what the pin compares. */
export type PinnedTool = {
  name: string;
  title?: string;
  description: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: McpToolAnnotations;
  /** sha256 of the canonical JSON of {name, description, inputSchema, outputSchema, annotations} */
  schemaHash: string;
};

/** What `initialize` + `tools/list` reported: the pin a registered server is held to. */
export type McpPin = {
  serverName: string;
  serverVersion: string;
  protocolVersion: string;
  tools: PinnedTool[];
  /**
   * For a server started as a command: SHA-256 over its program file and the files its arguments
   * name (what it runs). A changed file is a changed server, whatever version it reports. Absent for
   * HTTP servers and on pins made before it was recorded.
   */
  program?: string;
};

export type McpToolOverride = { safety?: McpSafety; destructive?: boolean; priceCents?: number };

export type McpEffectiveSafety = {
  /** READ_ONLY / IDEMPOTENT calls are re-sent with the same key after a crash; AT_MOST_ONCE never. */
  safety: McpSafety;
  /** The call could destroy something: a person agrees on an IRREVERSIBLE card before it is sent. */
  destructive: boolean;
  /** A person must agree before the call is sent (destructive, or an untrusted server's non-read call). */
  needsApproval: boolean;
};

/**
 * readOnlyHint → READ_ONLY; idempotentHint → IDEMPOTENT; otherwise AT_MOST_ONCE. destructiveHint
 * defaults to true in MCP for tools that are not read-only, but a server that says nothing is not
 * treated as destructive here: the card would then appear on nearly every call and stop meaning
 * anything; the owner marks such tools `destructive` in the overrides. Overrides win over hints.
 * An UNTRUSTED server: every call that is not READ_ONLY asks a person first.
 */
export function effectiveSafety(
  annotations: McpToolAnnotations | undefined,
  override: McpToolOverride | undefined,
  trust: 'TRUSTED' | 'UNTRUSTED',
): McpEffectiveSafety {
  const hinted: McpSafety = annotations?.readOnlyHint === true
    ? 'READ_ONLY'
    : annotations?.idempotentHint === true
      ? 'IDEMPOTENT'
      : 'AT_MOST_ONCE';
  const safety = override?.safety ?? hinted;
  // A read-only tool changes nothing, so it destroys nothing — unless the owner says otherwise.
  const destructive = override?.destructive ?? (safety !== 'READ_ONLY' && annotations?.destructiveHint === true);
  const needsApproval = destructive || (trust === 'UNTRUSTED' && safety !== 'READ_ONLY');
  return { safety, destructive, needsApproval };
}
