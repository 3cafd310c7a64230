'use client';
// What the agent remembers, with sources and history; correct a memory, or forget it (an
// irreversible action: the server answers with an approval card that a person confirms).
import { useCallback, useEffect, useState } from 'react';
import type { WebApprovalFragment, WebMemoriesQuery } from '../gql/graphql';
import { describeError, newKey, request } from '../lib/client';
import { CorrectMemoryDoc, ForgetEvidenceDoc, ForgetMemoryDoc, MemoriesDoc } from '../lib/documents';
import { useSession } from '../lib/hooks';
import { ApprovalCard } from './ApprovalCard';
import { ForgetWorks, OpenForgetCardsDoc } from './ForgetWorks';

type MemoryNode = WebMemoriesQuery['workspace']['memories']['edges'][number]['node'];
type Source = MemoryNode['evidence'][number]['evidence'];

/** A revoked source keeps no text; someone else's source is not shown to this viewer. */
const sourceText = (s: Source) => (s.status === 'REVOKED' ? '(source revoked)' : (s.excerpt ?? '(not shown)'));

const KIND: Record<string, string> = { BRAND_RULE: 'A brand rule', FACT: 'A fact', PREFERENCE: 'A preference', WORKFLOW_HABIT: 'A way you like to work' };
const SCOPE: Record<string, string> = { WORKSPACE: 'for everyone in this workspace', USER: 'just for you', TASK: 'for one task' };
const STATUS: Record<string, string> = { CURRENT: '', SUPERSEDED: 'replaced by a newer version', FORGOTTEN: 'forgotten' };
const VERSION: Record<string, string> = { CURRENT: 'current', SUPERSEDED: 'earlier', FORGOTTEN: 'forgotten' };
const AREA: Record<string, string> = {
  brand: 'Brand',
  preference: 'You prefer',
  preferences: 'You prefer',
  pref: 'You prefer',
  avoid: 'You avoid',
  habit: 'How you work',
  workflow: 'How you work',
  user: 'About you',
  person: 'About you',
  company: 'Your company',
  project: 'Project',
  fact: 'Fact',
};

/** "preference.layouts" → "You prefer: layouts"; "brand.primary_color" → "Brand: primary color". */
export function memoryTitle(subjectKey: string): string {
  const [head = '', ...rest] = subjectKey.split(/[.:/]/).filter(Boolean);
  const words = (s: string) => s.replace(/[_-]+/g, ' ').replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().trim();
  const area = AREA[head.toLowerCase()];
  const subject = words(rest.join(' '));
  if (area && subject) return `${area}: ${subject}`;
  const all = words([head, ...rest].join(' '));
  return all.charAt(0).toUpperCase() + all.slice(1);
}

/** "A brand rule for everyone in this workspace · you said so". */
function memoryMeta(m: MemoryNode): string {
  const kind = KIND[m.kind] ?? 'Remembered';
  const scope = SCOPE[m.scope] ?? '';
  const origin = m.origin === 'USER_STATED' ? 'you said so' : 'inferred from what you did';
  const status = STATUS[m.status] ?? m.status.toLowerCase().replace(/_/g, ' ');
  return [`${kind} ${scope}`.trim(), origin, status].filter(Boolean).join(' · ');
}

function MemoryItem({ m, reload, onDecided }: { m: MemoryNode; reload: () => void; onDecided: (approvalId: string) => void }) {
  const [editing, setEditing] = useState(false);
  const [text, setText] = useState(m.content);
  const [approval, setApproval] = useState<WebApprovalFragment | null>(null);
  /** Set when the card is about one source: it forgets what was remembered from it, not the message. */
  const [source, setSource] = useState<Source | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function correct() {
    setBusy(true);
    setError(null);
    try {
      await request(CorrectMemoryDoc, { input: { memoryId: m.id, value: text, idempotencyKey: newKey() } });
      setEditing(false);
      reload();
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }
  async function forget() {
    setBusy(true);
    setError(null);
    try {
      const r = await request(ForgetMemoryDoc, { input: { memoryId: m.id } });
      setSource(null);
      setApproval(r.forgetMemory.approval);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }
  async function forgetSource(s: Source) {
    setBusy(true);
    setError(null);
    try {
      const r = await request(ForgetEvidenceDoc, { input: { evidenceId: s.id } });
      setSource(s);
      setApproval(r.forgetEvidence.approval);
    } catch (e) {
      setError(describeError(e));
    } finally {
      setBusy(false);
    }
  }
  return (
    <li className="memory" data-testid="memory">
      <div className="memory-head">
        <h2 className="memory-title">{memoryTitle(m.subjectKey)}</h2>
        <span className="muted small">{memoryMeta(m)}</span>
      </div>
      {editing ? (
        <div className="memory-edit">
          <label>
            <span className="sr-only">Corrected memory</span>
            <textarea rows={2} value={text} onChange={(e) => setText(e.target.value)} />
          </label>
          <button type="button" className="btn primary small" disabled={busy || !text.trim()} onClick={() => void correct()}>
            Save correction
          </button>
          <button type="button" className="btn ghost small" onClick={() => setEditing(false)}>
            Cancel
          </button>
        </div>
      ) : (
        <p>{m.content}</p>
      )}
      <details>
        <summary>Sources ({m.evidence.length}) and history ({m.versions.length})</summary>
        <ul className="sources">
          {m.evidence.map(({ evidence: s }) => (
            <li key={s.id} data-testid="memory-source">
              “{sourceText(s)}” <span className="muted small">{new Date(s.occurredAt).toLocaleString()}</span>
              {s.status !== 'REVOKED' && s.excerpt != null && !approval && (
                <>
                  {' '}
                  <button type="button" className="btn ghost small" disabled={busy} onClick={() => void forgetSource(s)}>
                    Forget this message…
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
        <ol className="versions">
          {m.versions.map((v) => (
            <li key={v.number}>
              {v.content ?? v.value ?? '(cleared)'} <span className="muted small">({VERSION[v.status] ?? v.status.toLowerCase()}, {new Date(v.validFrom).toLocaleDateString()})</span>
            </li>
          ))}
        </ol>
      </details>
      {!editing && !approval && (
        <div className="inline-actions">
          <button type="button" className="btn secondary small" onClick={() => setEditing(true)}>
            Correct
          </button>
          <button type="button" className="btn ghost small" disabled={busy} onClick={() => void forget()}>
            Forget…
          </button>
        </div>
      )}
      {approval && (
        <ApprovalCard
          approval={approval}
          title={source ? `Forget what was remembered from your message of ${new Date(source.occurredAt).toLocaleDateString()} — the message itself stays in the chat` : undefined}
          thumbFor={() => null}
          onResolved={() => {
            // The works that contain it are offered after the memory is gone (the page shows them).
            onDecided(approval.id);
            setApproval(null);
            setSource(null);
            reload();
          }}
        />
      )}
      {error && <p className="error" role="alert">{error}</p>}
    </li>
  );
}

export function Memory() {
  const session = useSession();
  const [items, setItems] = useState<MemoryNode[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  /** Forget cards decided on this page: their works, if any, are offered here (ForgetWorks). */
  const [decided, setDecided] = useState<string[]>([]);
  /** Approved forget cards whose works still wait for a choice: offered again after a reload. */
  const [open, setOpen] = useState<string[]>([]);
  const load = useCallback(async () => {
    try {
      const d = await request(MemoriesDoc, { workspaceId: session.workspaceId });
      setItems(d.workspace.memories.edges.map((e) => e.node));
      setError(null);
    } catch (e) {
      setError(describeError(e));
    }
    try {
      const c = await request(OpenForgetCardsDoc, { workspaceId: session.workspaceId });
      const waiting = c.workspace.approvals.edges
        .map((e) => e.node)
        .filter((a) => ['FORGET_MEMORY', 'FORGET_EVIDENCE'].includes(String((a.action as { type?: unknown } | null)?.type)) && a.works.some((w) => w.status === 'OFFERED'))
        .map((a) => a.id);
      setOpen((o) => (o.length === waiting.length && o.every((id, i) => id === waiting[i]) ? o : waiting));
    } catch {
      // Without the list the page still shows what is remembered; works chosen on this page stay offered.
    }
  }, [session.workspaceId]);
  useEffect(() => void load(), [load]);
  return (
    <div className="page narrow">
      <h1>Memory</h1>
      <p className="muted">What the agent remembers across tasks, with where it learned it. Correct anything wrong; forgetting removes it and everything derived from it, after you confirm.</p>
      {error && <p className="notice" role="alert">{error}</p>}
      {items === null && !error && (
        <ul className="memories" aria-busy="true" aria-label="Loading what is remembered">
          {[0, 1, 2].map((i) => (
            <li key={i} className="memory skeleton-card" data-testid="skeleton">
              <span className="skeleton-line w40" />
              <span className="skeleton-line w80" />
            </li>
          ))}
        </ul>
      )}
      {[...decided, ...open.filter((id) => !decided.includes(id))].map((id) => (
        <ForgetWorks key={id} approvalId={id} showTitle />
      ))}
      {items?.length === 0 && <p className="muted">Nothing remembered yet.</p>}
      <ul className="memories">
        {items?.map((m) => (
          <MemoryItem key={m.id} m={m} reload={() => void load()} onDecided={(id) => setDecided((d) => (d.includes(id) ? d : [...d, id]))} />
        ))}
      </ul>
    </div>
  );
}
