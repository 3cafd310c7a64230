'use client';
// "Tools from other apps (MCP)": the workspace's MCP servers. Owners add a server by its address
// (and a bearer token), choose which tools the agent may use and what a call costs, and decide on
// a server that changed (quarantine: Approve pins the new version, Reject keeps it off). Everyone
// else sees the list read-only.
import { useEffect, useState, type FormEvent } from 'react';
import type { McpToolSafety, WebMcpServerFragment } from '../gql/graphql';
import { ApiError, describeError, request, usd } from '../lib/client';
import { McpServersDoc, RefreshMcpServerDoc, RegisterMcpServerDoc, RemoveMcpServerDoc, ResolveApprovalDoc, UpdateMcpServerDoc } from '../lib/documents';
import { useGql, useSession } from '../lib/hooks';

type Server = WebMcpServerFragment;
type Tool = Server['tools'][number];

const SAFETY_WORDS: Record<McpToolSafety, string> = {
  READ_ONLY: 'only reads',
  IDEMPOTENT: 'safe to repeat',
  AT_MOST_ONCE: 'runs once',
};

/** The safety of a tool in plain words, with "asks before acting" when a person agrees first. */
export function safetyWords(t: Pick<Tool, 'safety' | 'needsApproval' | 'destructive'>): string {
  const words = [SAFETY_WORDS[t.safety]];
  if (t.needsApproval) words.push(t.destructive ? 'asks before acting (can destroy things)' : 'asks before acting');
  return words.join(', ');
}

const STATUS_WORDS: Record<Server['status'], string> = { ACTIVE: 'On', QUARANTINED: 'Changed — waiting for you', DISABLED: 'Off' };

/** This section's layout (kept with the component: it wraps at phone width). */
const CSS = `
.mcp-server { border: 1px solid var(--line); border-radius: 10px; padding: 0.75rem; margin: 0.75rem 0; overflow-wrap: anywhere; }
.mcp-server-head { display: flex; gap: 0.5rem; align-items: center; justify-content: space-between; flex-wrap: wrap; }
.mcp-server-head h3 { margin: 0; }
.mcp-tools { list-style: none; padding: 0; margin: 0.5rem 0; }
.mcp-tool { display: flex; flex-wrap: wrap; gap: 0.5rem; justify-content: space-between; border-top: 1px solid var(--line); padding: 0.5rem 0; }
.mcp-tool-controls { display: flex; flex-wrap: wrap; gap: 0.75rem; align-items: center; }
.mcp-tool-controls .inline { display: inline-flex; gap: 0.35rem; align-items: center; }
.mcp-price { width: 6rem; }
.form-actions.wrap { flex-wrap: wrap; }
`;

const toCents = (s: string): number | null => (s.trim() === '' ? null : Math.round(Number(s) * 100));
const toDollars = (c: number | null | undefined) => (c == null ? '' : (c / 100).toFixed(2));

function AddServerForm({ workspaceId, onAdded }: { workspaceId: string; onAdded: () => Promise<void> }) {
  const [name, setName] = useState('');
  const [url, setUrl] = useState('');
  const [token, setToken] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await request(RegisterMcpServerDoc, { input: { workspaceId, slug: name.trim(), url: url.trim(), ...(token ? { authSecret: token } : {}) } });
      setName('');
      setUrl('');
      setToken('');
      await onAdded();
    } catch (err) {
      setError(describeError(err));
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="settings-form mcp-add" onSubmit={(e) => void submit(e)} aria-label="Add a server">
      <fieldset disabled={busy}>
        <legend>Add a server</legend>
        <label>
          <span>Short name (lowercase, e.g. docs)</span>
          <input value={name} onChange={(e) => setName(e.target.value)} required pattern="[a-z][a-z0-9_]{0,23}" autoCapitalize="none" autoCorrect="off" />
        </label>
        <label>
          <span>Address of the server</span>
          <input type="url" value={url} onChange={(e) => setUrl(e.target.value)} required placeholder="https://tools.example.com/mcp" inputMode="url" />
        </label>
        <label>
          <span>Bearer token (if the server needs one; never shown again)</span>
          <input type="password" value={token} onChange={(e) => setToken(e.target.value)} autoComplete="off" />
        </label>
      </fieldset>
      <div className="form-actions">
        <button type="submit" className="btn primary" disabled={busy}>
          {busy ? 'Connecting…' : 'Add server'}
        </button>
      </div>
      {error && <p className="error" role="alert">{error}</p>}
    </form>
  );
}

function ToolRow({ tool, canEdit, busy, onAllowed, onPrice }: { tool: Tool; canEdit: boolean; busy: boolean; onAllowed: (on: boolean) => void; onPrice: (cents: number | null) => void }) {
  const [price, setPrice] = useState(toDollars(tool.priceCents));
  // The switch moves at once when clicked (the change is saved meanwhile); every reload of the list
  // sets it back to what is stored, so a refused change does not stay shown as made.
  const [on, setOn] = useState(tool.allowed);
  useEffect(() => setOn(tool.allowed), [tool]);
  return (
    <li className="mcp-tool">
      <div>
        <strong>{tool.title ?? tool.toolName}</strong> <span className="chip">{safetyWords(tool)}</span>
        {tool.description && <p className="muted small">{tool.description}</p>}
      </div>
      <div className="mcp-tool-controls">
        <label className="inline">
          <input
            type="checkbox"
            checked={on}
            disabled={!canEdit || busy}
            onChange={(e) => {
              setOn(e.target.checked);
              onAllowed(e.target.checked);
            }}
          />
          <span>{on ? 'Allowed' : 'Not allowed'}</span>
        </label>
        {canEdit ? (
          <label className="inline">
            <span>Price per call (USD)</span>
            <input
              className="mcp-price"
              inputMode="decimal"
              type="number"
              min="0"
              step="0.01"
              value={price}
              placeholder="free"
              disabled={busy}
              onChange={(e) => setPrice(e.target.value)}
              onBlur={() => {
                const cents = toCents(price);
                if (cents !== tool.priceCents) onPrice(cents);
              }}
            />
          </label>
        ) : (
          <span className="muted small">{tool.priceCents == null ? 'Free' : `${usd(tool.priceCents)} per call`}</span>
        )}
      </div>
    </li>
  );
}

function ServerCard({ server, canEdit, reload }: { server: Server; canEdit: boolean; reload: () => Promise<void> }) {
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);

  async function run(work: () => Promise<unknown>, done?: string) {
    setBusy(true);
    setMsg(null);
    try {
      await work();
      if (done) setMsg({ kind: 'ok', text: done });
    } catch (err) {
      setMsg({
        kind: 'error',
        text: err instanceof ApiError && err.code === 'CONFLICT' ? 'Someone changed this server while you were looking; the list now shows their change. Try again.' : describeError(err),
      });
    } finally {
      await reload();
      setBusy(false);
    }
  }

  const update = (input: Record<string, unknown>, done?: string) =>
    run(() => request(UpdateMcpServerDoc, { input: { serverId: server.id, baseVersion: server.version, ...input } }), done);

  const overridesWith = (tool: string, priceCents: number | null) =>
    server.tools
      .filter((t) => t.overridden || t.toolName === tool)
      .map((t) => ({ tool: t.toolName, ...(t.toolName === tool ? (priceCents == null ? {} : { priceCents }) : t.priceCents != null && t.priceCents !== server.priceCentsPerCall ? { priceCents: t.priceCents } : {}) }));

  const allowed = (name: string, on: boolean) => {
    const names = server.tools.filter((t) => (t.toolName === name ? on : t.allowed)).map((t) => t.toolName);
    return update(names.length === server.tools.length ? { allowAllTools: true } : { allowedTools: names });
  };

  const card = server.pendingChange?.approval;
  const decide = (decision: 'APPROVE' | 'REJECT') =>
    run(
      () => request(ResolveApprovalDoc, { input: { approvalId: card!.id, decision, idempotencyKey: `mcp-${server.id}-${server.version}-${decision}` } }),
      decision === 'APPROVE' ? 'Approved: the new version is in use.' : 'Rejected: the server stays off until you remove it or it changes again.',
    );

  return (
    <article className={`mcp-server card status-${server.status.toLowerCase()}`} aria-labelledby={`mcp-${server.slug}`} data-testid={`mcp-server-${server.slug}`}>
      <header className="mcp-server-head">
        <h3 id={`mcp-${server.slug}`}>{server.title}</h3>
        <span className="chip" data-testid="mcp-status">
          {STATUS_WORDS[server.status]}
        </span>
      </header>
      <p className="muted small">
        {server.transport === 'HTTP' ? server.url : server.command} · the agent calls its tools “{server.slug}__…”
        {server.pinnedVersion && ` · version ${server.pinnedVersion.serverVersion || 'unknown'}`}
        {server.hasAuthSecret && ' · token set'}
        {server.trust === 'UNTRUSTED' && ' · not trusted: anything but reading asks first'}
      </p>
      {server.status === 'QUARANTINED' && server.pendingChange && (
        <div className="notice" role="status">
          <p>
            <strong>This server changed since you added it</strong> ({server.pendingChange.summary}). Its tools are not used until you decide.
          </p>
          {canEdit && card?.status === 'PENDING' ? (
            <span className="inline-actions">
              <button type="button" className="btn primary small" disabled={busy} onClick={() => void decide('APPROVE')}>
                Approve the new version
              </button>
              <button type="button" className="btn secondary small" disabled={busy} onClick={() => void decide('REJECT')}>
                Reject
              </button>
            </span>
          ) : (
            <p className="muted small">{card ? 'An owner decides.' : 'Rejected. Remove the server, turn it off, or check again for a newer version.'}</p>
          )}
        </div>
      )}
      <ul className="mcp-tools">
        {server.tools.map((t) => (
          <ToolRow
            key={`${t.toolName}:${t.priceCents ?? ''}`}
            tool={t}
            canEdit={canEdit}
            busy={busy}
            onAllowed={(on) => void allowed(t.toolName, on)}
            onPrice={(cents) => void update({ toolOverrides: overridesWith(t.toolName, cents) }, 'Price saved.')}
          />
        ))}
        {!server.tools.length && <li className="muted">This server offers no tools.</li>}
      </ul>
      {canEdit && (
        <div className="form-actions wrap">
          {server.status !== 'QUARANTINED' && (
            <button type="button" className="btn secondary small" disabled={busy} onClick={() => void update({ status: server.status === 'ACTIVE' ? 'DISABLED' : 'ACTIVE' })}>
              {server.status === 'ACTIVE' ? 'Turn off' : 'Turn on'}
            </button>
          )}
          <button type="button" className="btn secondary small" disabled={busy} onClick={() => void run(() => request(RefreshMcpServerDoc, { input: { serverId: server.id } }), 'Checked.')}>
            Check for changes
          </button>
          <button
            type="button"
            className="btn danger small"
            disabled={busy}
            onClick={() => {
              if (window.confirm(`Remove “${server.title}”? The agent stops using its tools.`)) void run(() => request(RemoveMcpServerDoc, { input: { serverId: server.id } }));
            }}
          >
            Remove
          </button>
        </div>
      )}
      {msg && (
        <p className={msg.kind === 'ok' ? 'ok' : 'error'} role={msg.kind === 'ok' ? 'status' : 'alert'}>
          {msg.text}
        </p>
      )}
      <details className="small">
        <summary>History</summary>
        <ul>
          {server.history.map((h) => (
            <li key={h.version}>
              {new Date(h.createdAt).toLocaleString()} — {h.change} ({h.actor?.name ?? 'Atelier'})
            </li>
          ))}
        </ul>
      </details>
    </article>
  );
}

export function McpServers() {
  const session = useSession();
  const { data, error, reload } = useGql(McpServersDoc, { workspaceId: session.workspaceId }, session.workspaceId);
  const servers = data?.workspace.mcpServers ?? [];
  return (
    <section className="mcp-section" id="mcp" aria-labelledby="mcp-h">
      <style>{CSS}</style>
      <h2 id="mcp-h">Tools from other apps (MCP)</h2>
      <p className="muted">
        Connect a server that speaks MCP and the agent can use its tools. Each tool shows how safe it is: “only reads”, “safe to repeat”, “runs
        once”, or “asks before acting” when a person must agree first. If a server changes its tools, they stay off until an owner approves the change.
      </p>
      {!session.isOwner && <p className="notice">Only the workspace owner can add or change these.</p>}
      {error && !data && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {servers.map((s) => (
        <ServerCard key={`${s.id}:${s.version}`} server={s} canEdit={session.isOwner} reload={reload} />
      ))}
      {data && !servers.length && <p className="muted">No servers yet.</p>}
      {session.isOwner && <AddServerForm workspaceId={session.workspaceId} onAdded={reload} />}
    </section>
  );
}
