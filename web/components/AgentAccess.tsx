'use client';
// "What the agent may do and reach": the main agent's rights (its ceiling of scopes) and the hosts
// the workspace's outbound calls may go to. Owners change both; everyone else sees the rights
// read-only (the host list is the owners' alone: the API answers FORBIDDEN to anyone else).
import { useEffect, useState, type FormEvent } from 'react';
import { describeError, request } from '../lib/client';
import { AgentAccessDoc, AllowEgressHostDoc, EgressHostsDoc, RevokeEgressHostDoc, UpdateAgentScopesDoc } from '../lib/documents';
import { useGql, useSession } from '../lib/hooks';

/** The rights an owner can give or take, in plain words (the API's scope names beside them). */
const RIGHTS: { scope: string; words: string }[] = [
  { scope: 'tasks:write', words: 'Keep its tasks in order (checklist, notes, questions, finishing)' },
  { scope: 'objects:read', words: 'Read the workspace’s works' },
  { scope: 'objects:write', words: 'Create and change works' },
  { scope: 'jobs:order', words: 'Order paid results (images, video, audio, 3D)' },
  { scope: 'memory:read', words: 'Use what the workspace remembers' },
  { scope: 'memory:write', words: 'Remember new things' },
  { scope: 'agents:delegate', words: 'Hand steps to registered remote agents' },
  { scope: 'mcp:*', words: 'Use tools from other apps (MCP)' },
];

const SOURCE_WORDS: Record<string, string> = { OWNER: 'added by an owner', MCP_SERVER: 'an MCP server', WEBHOOK: 'a webhook', A2A_AGENT: 'a remote agent' };

const CSS = `
.access-rights { list-style: none; padding: 0; margin: 0.5rem 0; }
.access-rights li { padding: 0.3rem 0; }
.access-section .access-rights label { display: flex; flex-direction: row; gap: 0.5rem; align-items: flex-start; }
.access-rights code, .egress-list code { font-size: 0.8em; color: var(--muted, #666); overflow-wrap: anywhere; }
.egress-list { list-style: none; padding: 0; margin: 0.5rem 0; }
.egress-list li { display: flex; flex-wrap: wrap; gap: 0.5rem; justify-content: space-between; align-items: center; border-top: 1px solid var(--line); padding: 0.4rem 0; overflow-wrap: anywhere; }
`;

type Msg = { kind: 'ok' | 'error'; text: string } | null;

function Rights({ workspaceId, canEdit }: { workspaceId: string; canEdit: boolean }) {
  const { data, error, reload } = useGql(AgentAccessDoc, { workspaceId }, workspaceId);
  const main = data?.workspace.agents.find((a) => a.isMain) ?? null;
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<Msg>(null);
  useEffect(() => setChosen(new Set(main?.scopes ?? [])), [main?.version, main?.scopes]);
  if (error && !data) return <p className="error" role="alert">{error}</p>;
  if (!main) return <p className="muted">Loading…</p>;
  // Rights the agent holds that this page has no words for (a single app's tools) stay as they are.
  const others = main.scopes.filter((s) => !RIGHTS.some((r) => r.scope === s));
  const changed = RIGHTS.some((r) => chosen.has(r.scope) !== main.scopes.includes(r.scope));

  async function save(e: FormEvent) {
    e.preventDefault();
    if (!main) return;
    setBusy(true);
    setMsg(null);
    try {
      const scopes = [...RIGHTS.filter((r) => chosen.has(r.scope)).map((r) => r.scope), ...others];
      await request(UpdateAgentScopesDoc, { input: { agentId: main.id, baseVersion: main.version, scopes } });
      setMsg({ kind: 'ok', text: 'Saved. The agent works with these rights from its next step.' });
      await reload();
    } catch (err) {
      setMsg({ kind: 'error', text: describeError(err) });
      await reload();
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="settings-form" onSubmit={(e) => void save(e)} aria-label="What the agent may do">
      <fieldset disabled={!canEdit || busy}>
        <legend>What {main.name} may do</legend>
        <ul className="access-rights">
          {RIGHTS.map((r) => (
            <li key={r.scope}>
              <label>
                <input
                  type="checkbox"
                  checked={chosen.has(r.scope)}
                  onChange={(e) => {
                    const next = new Set(chosen);
                    if (e.target.checked) next.add(r.scope);
                    else next.delete(r.scope);
                    setChosen(next);
                  }}
                />
                <span>
                  {r.words} <code>{r.scope}</code>
                </span>
              </label>
            </li>
          ))}
        </ul>
        {others.length > 0 && <p className="muted small">Also: {others.join(', ')}</p>}
        <p className="muted small">
          When the agent tries something it may not do, the step is refused and you see it on the task’s timeline; if it tries again, a card asks you.
        </p>
      </fieldset>
      {canEdit && (
        <div className="form-actions">
          <button type="submit" className="btn primary" disabled={busy || !changed}>
            {busy ? 'Saving…' : 'Save rights'}
          </button>
          <span className="muted small">Version {main.version}</span>
        </div>
      )}
      {msg && (
        <p className={msg.kind === 'ok' ? 'ok' : 'error'} role={msg.kind === 'ok' ? 'status' : 'alert'}>
          {msg.text}
        </p>
      )}
    </form>
  );
}

function Hosts({ workspaceId }: { workspaceId: string }) {
  const { data, error, reload } = useGql(EgressHostsDoc, { workspaceId }, workspaceId);
  const [host, setHost] = useState('');
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<Msg>(null);
  const hosts = data?.workspace.settings.egressHosts ?? [];

  async function run(f: () => Promise<unknown>, ok: string) {
    setBusy(true);
    setMsg(null);
    try {
      await f();
      setMsg({ kind: 'ok', text: ok });
      await reload();
    } catch (err) {
      setMsg({ kind: 'error', text: describeError(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div>
      <h3>Where outbound calls may go</h3>
      <p className="muted small">
        Tools from other apps, webhooks and remote agents reach only the hosts listed here; anything else is refused and shown on the task. Adding a server,
        webhook or remote agent lists its host.
      </p>
      {error && !data && <p className="error" role="alert">{error}</p>}
      <ul className="egress-list" aria-label="Allowed hosts">
        {hosts.map((h) => (
          <li key={h.id}>
            <span>
              <strong>{h.address}</strong> <span className="muted small">— {SOURCE_WORDS[h.source] ?? h.source}{h.note ? `: ${h.note}` : ''}</span>
            </span>
            <button
              type="button"
              className="btn danger small"
              disabled={busy}
              onClick={() => {
                if (window.confirm(`Stop all calls to ${h.address}?`)) void run(() => request(RevokeEgressHostDoc, { input: { entryId: h.id } }), `${h.address} removed.`);
              }}
            >
              Remove
            </button>
          </li>
        ))}
        {data && !hosts.length && <li className="muted">No hosts yet: nothing the agent’s tools do can reach out.</li>}
      </ul>
      <form
        className="settings-form"
        aria-label="Allow a host"
        onSubmit={(e) => {
          e.preventDefault();
          const h = host.trim();
          void run(() => request(AllowEgressHostDoc, { input: { workspaceId, host: h } }), `${h} allowed.`).then(() => setHost(''));
        }}
      >
        <label>
          <span>Allow a host (e.g. tools.example.com or tools.example.com:8443)</span>
          <input value={host} onChange={(e) => setHost(e.target.value)} required autoCapitalize="none" autoCorrect="off" inputMode="url" disabled={busy} />
        </label>
        <div className="form-actions">
          <button type="submit" className="btn secondary" disabled={busy}>
            Allow
          </button>
        </div>
      </form>
      {msg && (
        <p className={msg.kind === 'ok' ? 'ok' : 'error'} role={msg.kind === 'ok' ? 'status' : 'alert'}>
          {msg.text}
        </p>
      )}
    </div>
  );
}

export function AgentAccess() {
  const session = useSession();
  return (
    <section className="access-section" id="agent-access" aria-labelledby="access-h">
      <style>{CSS}</style>
      <h2 id="access-h">What the agent may do and reach</h2>
      {!session.isOwner && <p className="notice">Only the workspace owner can change the agent’s rights.</p>}
      <Rights workspaceId={session.workspaceId} canEdit={session.isOwner} />
      {session.isOwner && <Hosts workspaceId={session.workspaceId} />}
    </section>
  );
}
