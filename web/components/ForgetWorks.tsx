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
        works { objectId name kind version where status redactedInVersion }
      }
    }
  }
`);

export const RedactWorksDoc = graphql(`
  mutation WebRedactWorks($input: RedactWorksInput!) {
    redactWorks(input: $input) { approval { id status works { objectId name kind version where status redactedInVersion } } }
  }
`);

type Card = Extract<NonNullable<WebForgetWorksQuery['node']>, { works: unknown }>;
type Work = Card['works'][number];

const KIND: Record<string, string> = { DOCUMENT: 'document', FLOW: 'flow', IMAGE: 'image', VIDEO: 'video', AUDIO: 'sound', MODEL_3D: '3D model', COLLECTION: 'collection' };

/** "Brand brief v3 (its name)", "Poster 2 (prompt)": where in the work the value is. */
function place(w: Work): string {
  const where = w.where.map((p) => (p === 'NAME' ? 'its name' : w.kind === 'DOCUMENT' ? 'text' : w.kind === 'FLOW' ? 'prompts' : w.kind === 'COLLECTION' ? 'notes' : 'prompt'));
  return where.join(' and ');
}

export function ForgetWorks({ approvalId, refreshKey }: { approvalId: string; refreshKey?: string }) {
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
    <div className="forget-works" data-testid="forget-works" aria-label="Your works that contain it">
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
                {w.name} v{w.version} <span className="muted small">({KIND[w.kind] ?? 'work'}, in {place(w)})</span>
              </label>
            ) : (
              <>
                {w.name} v{w.version} <span className="muted small">({KIND[w.kind] ?? 'work'}, in {place(w)})</span>
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
