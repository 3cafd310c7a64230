'use client';
import { useRef, useState } from 'react';
import type { WebApprovalFragment } from '../gql/graphql';
import { ApiError, describeError, newKey, request, usd } from '../lib/client';
import { ResolveApprovalDoc } from '../lib/documents';
import { useSession } from '../lib/hooks';

export type Thumb = { src: string; mime: string; label?: string };

type PlanStep = { id?: string; title?: string; kind?: string; count?: number; estimateCents?: number };

const KIND_TITLE: Record<string, string> = {
  PLAN: 'Approve the plan',
  PAID_ACTION: 'Approve a price',
  IRREVERSIBLE: 'Confirm — this cannot be undone',
  CHECKPOINT: 'Your call',
};

/** One approval card: one click resolves it (with an idempotency key, kept across retries). */
export function ApprovalCard({ approval, thumbFor, onResolved }: { approval: WebApprovalFragment; thumbFor: (objectId: string) => Thumb | null; onResolved: () => void }) {
  const session = useSession();
  const key = useRef<string>(newKey());
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const action = (approval.action ?? {}) as { type?: string; kind?: string; steps?: PlanStep[]; prompt?: string };
  const checkpointKind = approval.kind === 'CHECKPOINT' ? (action.kind ?? (approval.options.length ? 'CHOOSE' : 'CONFIRM')) : null;
  const pending = approval.status === 'PENDING';

  async function resolve(decision: 'APPROVE' | 'REJECT', choice?: string) {
    setBusy(choice ?? decision);
    setError(null);
    try {
      await request(ResolveApprovalDoc, {
        input: { approvalId: approval.id, decision, choice: choice ?? null, note: note.trim() || null, idempotencyKey: key.current },
      });
      onResolved();
    } catch (e) {
      if (e instanceof ApiError && e.code === 'CONFLICT') {
        setError(
          e.extensions.reason === 'APPROVAL_SUPERSEDED'
            ? `${e.message}.`
            : 'This was already decided (perhaps in another window). Showing the current state.',
        );
        onResolved();
      } else setError(describeError(e));
    } finally {
      setBusy(null);
    }
  }

  const can = session.canApprove && pending;
  const label = `${KIND_TITLE[approval.kind] ?? 'Decision'}: ${approval.title}`;

  return (
    <section className={`card approval approval-${approval.kind.toLowerCase()}`} aria-label={label} data-testid={`approval-${approval.kind}`} data-status={approval.status}>
      <header className="card-head">
        <span className="card-kind">{KIND_TITLE[approval.kind] ?? approval.kind}</span>
        {approval.quoteCents != null && <span className="price">{usd(approval.quoteCents)}</span>}
      </header>
      <h4 className="card-title">{approval.title}</h4>
      {approval.reasons.length > 0 && (
        <ul className="reasons">
          {approval.reasons.map((r) => (
            <li key={r.code}>{r.message}</li>
          ))}
        </ul>
      )}
      {approval.kind === 'PLAN' && Array.isArray(action.steps) && (
        <ol className="plan-steps">
          {action.steps.map((s, i) => (
            <li key={s.id ?? i}>
              <span>{s.title}</span>
              <span className="muted">
                {s.count && s.count > 1 ? ` ×${s.count}` : ''} {s.estimateCents ? `· ${usd(s.estimateCents)}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
      {checkpointKind === 'CHOOSE' && (
        <div className="candidates" role="group" aria-label="Candidates">
          {approval.options.map((o) => {
            const thumb = o.objectId ? thumbFor(o.objectId) : null;
            const chosen = approval.choice === o.id;
            return (
              <button
                key={o.id}
                type="button"
                className={`candidate${chosen ? ' chosen' : ''}`}
                disabled={!can || !!busy}
                aria-pressed={chosen}
                onClick={() => void resolve('APPROVE', o.id)}
                data-testid="candidate"
              >
                <span className="thumb">
                  {thumb && thumb.mime.startsWith('image/') ? <img src={thumb.src} alt="" width={120} height={120} /> : <span className="thumb-missing" aria-hidden="true">◻</span>}
                </span>
                <span className="cand-label">{busy === o.id ? 'Choosing…' : chosen ? `Chosen: ${o.label}` : `Pick ${o.label}`}</span>
              </button>
            );
          })}
        </div>
      )}
      {pending && (checkpointKind === 'ADJUST' || approval.kind !== 'CHECKPOINT') && (
        <label className="note">
          <span>{checkpointKind === 'ADJUST' ? 'What should change?' : 'Note (optional)'}</span>
          <input value={note} onChange={(e) => setNote(e.target.value)} disabled={!can} />
        </label>
      )}
      {pending && checkpointKind !== 'CHOOSE' && (
        <div className="card-actions">
          <button type="button" className={`btn ${approval.kind === 'IRREVERSIBLE' ? 'danger' : 'primary'}`} disabled={!can || !!busy} onClick={() => void resolve('APPROVE')}>
            {busy === 'APPROVE'
              ? 'Saving…'
              : approval.kind === 'PLAN'
                ? 'Approve plan'
                : approval.kind === 'PAID_ACTION'
                  ? `Approve ${usd(approval.quoteCents)}`
                  : approval.kind === 'IRREVERSIBLE'
                    ? 'Yes, do it'
                    : checkpointKind === 'ADJUST'
                      ? 'Send'
                      : 'Continue'}
          </button>
          <button type="button" className="btn secondary" disabled={!can || !!busy} onClick={() => void resolve('REJECT')}>
            {busy === 'REJECT' ? 'Saving…' : approval.kind === 'IRREVERSIBLE' ? 'Keep it' : 'Decline'}
          </button>
        </div>
      )}
      {pending && checkpointKind === 'CHOOSE' && (
        <div className="card-actions">
          <button type="button" className="btn ghost small" disabled={!can || !!busy} onClick={() => void resolve('REJECT')}>
            None of these
          </button>
        </div>
      )}
      {!pending && (
        <p className="resolved" data-testid="approval-resolved">
          {approval.status === 'APPROVED'
            ? 'Approved'
            : approval.status === 'REJECTED'
              ? 'Declined'
              : approval.status === 'SUPERSEDED'
                ? (approval.note ?? 'Set aside by your later instruction')
                : 'Withdrawn'}
          {approval.choice ? ` — ${approval.options.find((o) => o.id === approval.choice)?.label ?? approval.choice}` : ''}
        </p>
      )}
      {!session.canApprove && pending && <p className="muted">You can see this card, but only members who may approve can decide.</p>}
      {error && <p className="error" role="alert">{error}</p>}
    </section>
  );
}
