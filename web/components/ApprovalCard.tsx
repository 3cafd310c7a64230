'use client';
import { useRef, useState, type ReactNode } from 'react';
import type { WebApprovalFragment } from '../gql/graphql';
import { ApiError, describeError, newKey, request, usd } from '../lib/client';
import { ResolveApprovalDoc } from '../lib/documents';
import { useSession } from '../lib/hooks';
import { ForgetWorks } from './ForgetWorks';
import { McpCallInput } from './McpCallInput';

export type Thumb = { src: string | null; mime: string; name?: string; label?: string };
export type CardDocument = { name: string; markdown: string };

/** A card's title without the tag a template model puts before its words. */
const cleanTitle = (t: string) => t.replace(/^\[[^\]]{1,40}\]\s*/, '');

/** A cube: the figure of a 3D model that has no picture of its own. */
function ModelFigure({ name }: { name: string }) {
  return (
    <span className="media-figure figure-3d" role="img" aria-label={`3D model: ${name}`}>
      <svg viewBox="0 0 64 64" width="56" height="56" aria-hidden="true" focusable="false">
        <path d="M32 6 56 19v26L32 58 8 45V19Z" fill="none" stroke="currentColor" strokeWidth="3" strokeLinejoin="round" />
        <path d="M8 19l24 13 24-13M32 32v26" fill="none" stroke="currentColor" strokeWidth="3" strokeLinejoin="round" />
      </svg>
      <span className="figure-name">{name}</span>
    </span>
  );
}

/**
 * A result as it can be seen or heard: a picture, a player, a 3D model's figure with its name, or —
 * while it is not there yet — a figure naming what it will be. Never an empty box.
 */
export function Media({ thumb, label, big = false }: { thumb: Thumb | null; label: string; big?: boolean }) {
  const size = big ? 256 : 160;
  if (!thumb?.src) {
    return (
      <span className="media-figure figure-pending" role="img" aria-label={`${label} (not ready yet)`}>
        <span aria-hidden="true" className="figure-glyph">◌</span>
        <span className="figure-name">{label}</span>
      </span>
    );
  }
  const { src, mime } = thumb;
  if (mime.startsWith('image/')) return <img className="media-img" src={src} alt={thumb.name ? `${label}: ${thumb.name}` : label} width={size} height={size} loading="lazy" />;
  if (mime.startsWith('audio/'))
    return (
      <span className="media-audio">
        <span className="media-figure figure-audio" aria-hidden="true">
          <span className="figure-glyph">♪</span>
          <span className="figure-name">{label}</span>
        </span>
        <audio controls preload="metadata" src={src} aria-label={`Play ${label}`} />
      </span>
    );
  if (mime.startsWith('video/')) return <video className="media-video" controls preload="metadata" src={src} aria-label={`Play ${label}`} width={size} />;
  if (mime.includes('gltf') || mime.startsWith('model/'))
    return (
      <span className="media-3d">
        <ModelFigure name={thumb.name ?? label} />
        <a className="file-link" href={src} download>
          Download {label} (glTF)
        </a>
      </span>
    );
  return (
    <a className="file-link" href={src} download>
      Download {label} ({mime})
    </a>
  );
}

/** A document (a storyboard, a brief) shown where it is to be confirmed: headings, lists and paragraphs. */
function DocumentView({ doc }: { doc: CardDocument }) {
  const lines = doc.markdown.split('\n');
  const out: ReactNode[] = [];
  let list: string[] = [];
  const flush = () => {
    if (list.length) out.push(<ul key={`l${out.length}`}>{list.map((l, i) => <li key={i}>{l}</li>)}</ul>);
    list = [];
  };
  lines.forEach((raw, i) => {
    const line = raw.trim();
    const item = line.match(/^(?:[-*]|\d+[.)])\s+(.*)$/);
    if (item) return void list.push(item[1]!.replace(/\*\*/g, ''));
    flush();
    if (!line) return;
    const h = line.match(/^(#{1,6})\s+(.*)$/);
    if (h && !(out.length === 0 && h[2]!.trim() === doc.name.trim())) out.push(<p key={i} className="doc-heading">{h[2]}</p>);
    else if (h) return;
    else out.push(<p key={i}>{line.replace(/\*\*/g, '')}</p>);
  });
  flush();
  return (
    <div className="card-document" data-testid="card-document" role="document" aria-label={doc.name} tabIndex={0}>
      <p className="doc-name">{doc.name}</p>
      {out}
    </div>
  );
}

type PlanStep = { id?: string; title?: string; kind?: string; count?: number; estimateCents?: number };

/** "3 images", "4 video shots": how many things a step makes, in words (not "×3"). */
const THINGS: Record<string, [string, string]> = {
  IMAGE: ['image', 'images'],
  VIDEO: ['video shot', 'video shots'],
  AUDIO: ['sound', 'sounds'],
  MODEL_3D: ['3D model', '3D models'],
  DOCUMENT: ['document', 'documents'],
};
function countOf(n: number, kind?: string): string {
  const [one, many] = THINGS[(kind ?? '').toUpperCase()] ?? ['item', 'items'];
  return `${n} ${n === 1 ? one : many}`;
}

const KIND_TITLE: Record<string, string> = {
  PLAN: 'Approve the plan',
  PAID_ACTION: 'Approve a price',
  IRREVERSIBLE: 'Confirm — this cannot be undone',
  CHECKPOINT: 'Your call',
  BUDGET_CAP: 'The task reached its budget cap',
};

/** One approval card: one click resolves it (with an idempotency key, kept across retries). */
export function ApprovalCard({
  approval,
  thumbFor,
  documents = [],
  onResolved,
  title: titleInWords,
}: {
  approval: WebApprovalFragment;
  /** The card's title as this view words it (e.g. what forgetting a source does and does not remove). */
  title?: string;
  thumbFor: (objectId: string) => Thumb | null;
  documents?: CardDocument[];
  onResolved: () => void;
}) {
  const session = useSession();
  const key = useRef<string>(newKey());
  const [busy, setBusy] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState('');
  const [noneOpen, setNoneOpen] = useState(false);
  const action = (approval.action ?? {}) as { type?: string; kind?: string; steps?: PlanStep[]; prompt?: string; toCents?: number };
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
  const title = titleInWords ?? cleanTitle(approval.title);
  const label = `${KIND_TITLE[approval.kind] ?? 'Decision'}: ${title}`;

  return (
    <section className={`card approval approval-${approval.kind.toLowerCase()}`} aria-label={label} data-testid={`approval-${approval.kind}`} data-status={approval.status} data-id={approval.id}>
      <header className="card-head">
        <span className="card-kind">{KIND_TITLE[approval.kind] ?? approval.kind}</span>
        {approval.quoteCents != null && <span className="price">{usd(approval.quoteCents)}</span>}
      </header>
      <h4 className="card-title">{title}</h4>
      {approval.reasons.length > 0 && (
        <ul className="reasons">
          {approval.reasons.map((r) => (
            <li key={r.code}>{r.message}</li>
          ))}
        </ul>
      )}
      {approval.kind === 'PLAN' && Array.isArray(action.steps) && (
        <table className="plan-steps" data-testid="plan-steps">
          <caption className="sr-only">The plan&apos;s steps and their prices</caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              <th scope="col" className="num">
                Price
              </th>
            </tr>
          </thead>
          <tbody>
            {action.steps.map((s, i) => (
              <tr key={s.id ?? i}>
                <td>
                  <span className="step-n">{i + 1}.</span> {s.title}
                  {s.count && s.count > 1 ? <span className="muted"> — {countOf(s.count, s.kind)}</span> : null}
                </td>
                <td className="num">{s.estimateCents ? usd(s.estimateCents) : <span className="muted">free</span>}</td>
              </tr>
            ))}
          </tbody>
          {approval.quoteCents != null && (
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <td className="num">{usd(approval.quoteCents)}</td>
              </tr>
            </tfoot>
          )}
        </table>
      )}
      <McpCallInput action={approval.action} />
      {checkpointKind === 'CONFIRM' && documents.length > 0 && <DocumentView doc={documents[0]!} />}
      {pending && (action.type === 'FORGET_MEMORY' || action.type === 'FORGET_EVIDENCE') && <ForgetWorks approvalId={approval.id} />}
      {checkpointKind === 'CHOOSE' && (
        <ul className="candidates" aria-label="Candidates" data-testid="candidates">
          {approval.options.map((o) => {
            const thumb = o.objectId ? thumbFor(o.objectId) : null;
            const chosen = approval.choice === o.id;
            return (
              <li
                key={o.id}
                className={`candidate${chosen ? ' chosen' : ''}${pending && can ? ' can-pick' : ''}`}
                data-testid="candidate"
                data-chosen={chosen || undefined}
                // A click on the picture picks too (the Pick button is the keyboard's way); players and links keep their clicks.
                onClick={(e) => {
                  if (pending && can && !busy && !(e.target as HTMLElement).closest('audio,video,a,button')) void resolve('APPROVE', o.id);
                }}
              >
                <Media thumb={thumb} label={o.label} />
                <span className="cand-label">
                  {chosen && <span className="chosen-badge">✓ Chosen</span>} {o.label}
                </span>
                {pending && (
                  <button type="button" className="btn primary small pick" disabled={!can || !!busy} onClick={() => void resolve('APPROVE', o.id)} aria-label={`Pick ${o.label}`}>
                    {busy === o.id ? 'Choosing…' : 'Pick'}
                  </button>
                )}
              </li>
            );
          })}
        </ul>
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
                  : approval.kind === 'BUDGET_CAP'
                    ? `Raise the cap to ${usd(Number(action.toCents ?? 0))} and go on`
                  : approval.kind === 'IRREVERSIBLE'
                    ? 'Yes, do it'
                    : checkpointKind === 'ADJUST'
                      ? 'Send'
                      : checkpointKind === 'IMPACT'
                        ? `Make again for ${usd(approval.quoteCents)}`
                        : 'Continue'}
          </button>
          <button type="button" className="btn secondary" disabled={!can || !!busy} onClick={() => void resolve('REJECT')}>
            {busy === 'REJECT' ? 'Saving…' : approval.kind === 'IRREVERSIBLE' ? 'Keep it' : approval.kind === 'BUDGET_CAP' ? 'Stop the task here' : checkpointKind === 'IMPACT' ? 'Keep them as they are' : 'Decline'}
          </button>
        </div>
      )}
      {pending && checkpointKind === 'CHOOSE' && (
        <div className="card-actions none-of-these">
          {noneOpen ? (
            <form
              className="signal-form"
              onSubmit={(e) => {
                e.preventDefault();
                void resolve('REJECT');
              }}
            >
              <label>
                <span>None of these — what should change? (optional)</span>
                <input autoFocus value={note} onChange={(e) => setNote(e.target.value)} disabled={!can} placeholder="e.g. warmer colours, bolder type" />
              </label>
              <button type="submit" className="btn primary small" disabled={!can || !!busy}>
                {busy === 'REJECT' ? 'Saving…' : 'Make new candidates'}
              </button>
              <button type="button" className="btn ghost small" onClick={() => setNoneOpen(false)}>
                Back
              </button>
            </form>
          ) : (
            <button type="button" className="btn ghost small" disabled={!can || !!busy} onClick={() => setNoneOpen(true)}>
              None of these
            </button>
          )}
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
          {approval.choice ? `: ${approval.options.find((o) => o.id === approval.choice)?.label ?? approval.choice}` : ''}
        </p>
      )}
      {!session.canApprove && pending && <p className="muted">You can see this card, but only members who may approve can decide.</p>}
      {error && <p className="error" role="alert">{error}</p>}
    </section>
  );
}
