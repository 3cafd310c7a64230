// What a tool of another app (MCP) will be called with, shown on the card that asks a person first:
// confirming "Wipe" means little without seeing what it wipes. The runtime stores the input as JSON
// text (cut at 4,000 characters); anything that is not an object of plain values is shown as text.
const MCP_CALL_ACTION = 'MCP_TOOL_CALL';

const CSS = `
.mcp-call-args { margin: 0.25rem 0 0.5rem; overflow-wrap: anywhere; white-space: pre-wrap; }
.mcp-call-args > div { display: flex; flex-wrap: wrap; gap: 0.5rem; }
.mcp-call-args dt { font-weight: 600; }
.mcp-call-args dd { margin: 0; }
`;

function plain(v: unknown): string {
  return typeof v === 'string' ? v : JSON.stringify(v);
}

export function McpCallInput({ action }: { action: unknown }) {
  const a = (action ?? {}) as { type?: unknown; server?: unknown; tool?: unknown; input?: unknown };
  if (a.type !== MCP_CALL_ACTION) return null;
  let input: unknown = a.input;
  if (typeof input === 'string') {
    try {
      input = JSON.parse(input);
    } catch {
      // Cut short (a very long input): shown as the text it is.
    }
  }
  const entries = input && typeof input === 'object' && !Array.isArray(input) ? Object.entries(input as Record<string, unknown>) : null;
  return (
    <div className="mcp-call-input" data-testid="mcp-call-input">
      <style>{CSS}</style>
      <p className="muted small">
        The agent would call “{String(a.tool ?? '')}” of “{String(a.server ?? '')}”{entries && !entries.length ? ' with nothing else.' : ' with:'}
      </p>
      {entries ? (
        entries.length > 0 && (
          <dl className="mcp-call-args">
            {entries.map(([k, v]) => (
              <div key={k}>
                <dt>{k}</dt>
                <dd>{plain(v)}</dd>
              </div>
            ))}
          </dl>
        )
      ) : (
        <pre className="mcp-call-args">{plain(input)}</pre>
      )}
    </div>
  );
}
