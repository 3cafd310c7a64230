'use client';
// "Works stay the person's": on a forget card, the works whose current name or content contains
// what is being forgotten ("Also appears in: Brand brief v3, Poster 2 prompt"). While the card waits,
// the list only informs; once the forgetting is approved, the person who asked picks the works to
// remove it from and confirms with one click (redactWorks, with an idempotency key kept across
// retries) — or leaves them all as they are. Nothing in a work changes without that click.
import { useCallback, useEffect, useRef, useState } from 'react';
import { graphql } from '../gql';
import type { WebForgetWorksQuery } from '../gql/graphql';
import { ApiError, describeError, newKey, request } from '../lib/client';
import { useSession } from '../lib/hooks';

export const ForgetWorksDoc = graphql(`
  query WebForgetWorks($id: ID!) {
    node(id: $id) {
      ... on Approval {
        id
        status
        title
        works { ...WebForgetWork }
      }
    }
  }
`);

export const ForgetWorkFields = graphql(`
  fragment WebForgetWork on ForgetWork {
    objectId
    title
    kind
    version
    where
    status
    redactedInVersion
    object { id current { file { url mime } } }
  }
`);

/** An approved forget card whose works still wait for the person's choice (the Memory view offers them again). */
export const OpenForgetCardsDoc = graphql(`
  query WebOpenForgetCards($workspaceId: ID!) {
    workspace(id: $workspaceId) {
      id
      approvals(statuses: [APPROVED], first: 100) { edges { node { id action works { status } } } }
    }
  }
`);

export const RedactWorksDoc = graphql(`
  mutation WebRedactWorks($input: RedactWorksInput!) {
    redactWorks(input: $input) { approval { id status title works { ...WebForgetWork } } }
  }
`);

type Card = Extract<NonNullable<WebForgetWorksQuery['node']>, { works: unknown }>;
type Work = Card['works'][number];

const KIND: Record<string, string> = { DOCUMENT: 'document', FLOW: 'flow', IMAGE: 'image', VIDEO: 'video', AUDIO: 'sound', MODEL_3D: '3D model', COLLECTION: 'collection' };

/** A work as it reads on the card: a small picture for an image, its name (whole on hover), its kind and version. */
function WorkLabel({ w }: { w: Work }) {
  const file = w.object?.current.file;
  return (
    <>
      {w.kind === 'IMAGE' && file?.url && file.mime.startsWith('image/') && <img className="forget-work-thumb" src={file.url} alt="" width={32} height={32} loading="lazy" />}
      <span className="forget-work-name" title={w.title}>
        {w.title}
      </span>{' '}
      v{w.version} <span className="muted small">({KIND[w.kind] ?? 'work'}, in {place(w)})</span>
    </>
  );
}

/** "Brand brief v3 (its name)", "Poster 2 (prompt)": where in the work the value is. */
function place(w: Work): string {
  const where = w.where.map((p) => (p === 'NAME' ? 'its name' : w.kind === 'DOCUMENT' ? 'text' : w.kind === 'FLOW' ? 'prompts' : w.kind === 'COLLECTION' ? 'notes' : 'prompt'));
  return where.join(' and ');
}

export function ForgetWorks({ approvalId, refreshKey, showTitle = false }: { approvalId: string; refreshKey?: string; showTitle?: boolean }) {
  const session = useSession();
  const [card, setCard] = useState<Card | null>(null);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  const [busy, setBusy] = useState<'REDACT' | 'KEEP' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const key = useRef(newKey());

  const load = useCallback(async () => {
    try {
      const d = await request(ForgetWorksDoc, { id: approvalId });
      const c = d.node && 'works' in d.node ? (d.node as Card) : null;
      setCard(c);
      setChosen(new Set(c?.works.filter((w) => w.status === 'OFFERED').map((w) => w.objectId) ?? []));
    } catch (e) {
      // A server without this part yet shows the card as before.
      if (!(e instanceof ApiError && e.code === 'UNAVAILABLE')) setError(describeError(e));
    }
  }, [approvalId]);
  useEffect(() => void load(), [load, refreshKey]);

  if (!card || !card.works.length || card.status === 'REJECTED' || card.status === 'SUPERSEDED') return error ? <p className="error" role="alert">{error}</p> : null;
  const open = card.status === 'APPROVED' && card.works.some((w) => w.status === 'OFFERED');

  async function choose(ids: string[], what: 'REDACT' | 'KEEP') {
    setBusy(what);
    setError(null);
    try {
      const r = await request(RedactWorksDoc, { input: { approvalId, objectIds: ids, idempotencyKey: key.current } });
      setCard(r.redactWorks.approval as Card);
    } catch (e) {
      setError(describeError(e));
      if (e instanceof ApiError && e.code === 'CONFLICT') void load();
    } finally {
      setBusy(null);
    }
  }

  return (
    <div className={`forget-works${showTitle ? ' card' : ''}`} data-testid="forget-works" data-approval={approvalId} aria-label="Your works that contain it">
      {showTitle && <h2 className="forget-works-title">{card.title}</h2>}
      <p className="forget-works-lead">
        {card.status === 'PENDING'
          ? 'Also appears in:'
          : open
            ? 'Forgotten. It also appears in these works of yours — remove it from the ones you choose (each gets a new version; older versions that contain it are hidden):'
            : 'Forgotten. Your works that contained it:'}
      </p>
      <ul className="forget-works-list">
        {card.works.map((w) => (
          <li key={w.objectId} data-testid="forget-work" data-status={w.status}>
            {open && w.status === 'OFFERED' ? (
              <label>
                <input
                  type="checkbox"
                  checked={chosen.has(w.objectId)}
                  disabled={!!busy}
                  onChange={(e) => {
                    const next = new Set(chosen);
                    if (e.target.checked) next.add(w.objectId);
                    else next.delete(w.objectId);
                    setChosen(next);
                  }}
                />{' '}
                <WorkLabel w={w} />
              </label>
            ) : (
              <>
                <WorkLabel w={w} />
                {w.status === 'REDACTED' && <span className="small"> — removed{w.redactedInVersion ? ` (now v${w.redactedInVersion})` : ''}</span>}
                {w.status === 'KEPT' && <span className="small muted"> — left as it is</span>}
              </>
            )}
          </li>
        ))}
      </ul>
      {open && (
        <div className="card-actions">
          <button type="button" className="btn primary small" disabled={!!busy || !chosen.size || !session.canWrite} onClick={() => void choose([...chosen], 'REDACT')}>
            {busy === 'REDACT' ? 'Removing…' : `Remove it from ${chosen.size === 1 ? 'this work' : `${chosen.size} works`}`}
          </button>
          <button type="button" className="btn ghost small" disabled={!!busy || !session.canWrite} onClick={() => void choose([], 'KEEP')}>
            {busy === 'KEEP' ? 'Saving…' : 'Leave them as they are'}
          </button>
        </div>
      )}
      {error && <p className="error" role="alert">{error}</p>}
    </div>
  );
}
