'use client';
// Workspace objects: gallery with versions and provenance, a document editor and a flow view that
// save with their base version and show a conflict (reload or merge) instead of overwriting.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ObjectKind, WebObjectCardFragment, WebObjectDetailFragment } from '../gql/graphql';
import { ApiError, describeError, newKey, request } from '../lib/client';
import { useBusVersion } from '../lib/bus';
import { ObjectDoc, ObjectsDoc, UpdateObjectDoc } from '../lib/documents';
import { useSession, useThrottled } from '../lib/hooks';

const KINDS: { value: ObjectKind | null; label: string }[] = [
  { value: null, label: 'All' },
  { value: 'IMAGE', label: 'Images' },
  { value: 'VIDEO', label: 'Video' },
  { value: 'AUDIO', label: 'Audio' },
  { value: 'MODEL_3D', label: '3D' },
  { value: 'DOCUMENT', label: 'Documents' },
  { value: 'FLOW', label: 'Flows' },
  { value: 'COLLECTION', label: 'Collections' },
];

const KIND_WORD: Partial<Record<ObjectKind, string>> = { IMAGE: 'Image', VIDEO: 'Video', AUDIO: 'Audio', MODEL_3D: '3D model', DOCUMENT: 'Document', FLOW: 'Flow', COLLECTION: 'Collection' };

/** A document's text: the current version's markdown, else the stored { markdown }. */
const documentText = (o: WebObjectDetailFragment) => o.current.markdown ?? (o.content as { markdown?: string } | null)?.markdown ?? '';

/** What an editor works on: documents as text, everything else as stored. */
const editable = (o: WebObjectDetailFragment): unknown => (o.kind === 'DOCUMENT' ? documentText(o) : o.content);

/** Documents are stored as { markdown }; the editor works on text. */
const toContent = (kind: ObjectKind, content: unknown): unknown => (kind === 'DOCUMENT' && typeof content === 'string' ? { markdown: content } : content);

type VersionAuthor = WebObjectDetailFragment['versions']['edges'][number]['node']['author'];

const authorName = (a: VersionAuthor) => a.user?.name ?? (a.task ? `agent (${a.task.title})` : a.kind.toLowerCase());

function provenanceText(p: unknown): string {
  if (!p || typeof p !== 'object') return 'made here';
  const o = p as { taskTitle?: string; task?: { title?: string }; source?: string; prompt?: string; derivedFrom?: string };
  return [o.task?.title ?? o.taskTitle ? `from task “${o.task?.title ?? o.taskTitle}”` : null, o.prompt ? `prompt “${o.prompt.slice(0, 80)}”` : null, o.derivedFrom ? `derived from ${o.derivedFrom}` : null, o.source ?? null]
    .filter(Boolean)
    .join(' · ') || 'made here';
}

type Conflict = { current: number; theirs: unknown; mine: unknown; message: string };

function useSave(obj: WebObjectDetailFragment, onSaved: () => void) {
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const save = useCallback(
    async (content: unknown, baseVersion: number) => {
      setBusy(true);
      setError(null);
      try {
        await request(UpdateObjectDoc, { input: { objectId: obj.id, baseVersion, content: toContent(obj.kind, content), idempotencyKey: newKey() } });
        setConflict(null);
        onSaved();
        return true;
      } catch (e) {
        if (e instanceof ApiError && e.code === 'CONFLICT') {
          const fresh = await request(ObjectDoc, { id: obj.id }).catch(() => null);
          const theirs = fresh?.node?.__typename === 'WorkspaceObject' ? fresh.node : null;
          setConflict({
            current: (e.extensions.currentVersion as number | undefined) ?? theirs?.currentVersion ?? baseVersion,
            theirs: theirs ? editable(theirs) : e.extensions.currentContent,
            mine: content,
            message: e.message,
          });
        } else setError(describeError(e));
        return false;
      } finally {
        setBusy(false);
      }
    },
    [obj.id, onSaved],
  );
  return { save, conflict, setConflict, error, busy };
}

function ConflictBox({ c, onReload, onMerge }: { c: Conflict; onReload: () => void; onMerge: () => void }) {
  return (
    <div className="conflict" role="alert" data-testid="conflict">
      <p>
        <strong>Someone else saved a newer version (v{c.current}) while you were editing.</strong> Nothing was overwritten.
      </p>
      <div className="conflict-sides">
        <div>
          <h5>Theirs (v{c.current})</h5>
          <pre>{typeof c.theirs === 'string' ? c.theirs : JSON.stringify(c.theirs, null, 2)}</pre>
        </div>
        <div>
          <h5>Yours</h5>
          <pre>{typeof c.mine === 'string' ? c.mine : JSON.stringify(c.mine, null, 2)}</pre>
        </div>
      </div>
      <div className="inline-actions">
        <button type="button" className="btn secondary small" onClick={onReload}>
          Reload theirs (drop mine)
        </button>
        <button type="button" className="btn primary small" onClick={onMerge}>
          Merge: edit on top of theirs
        </button>
      </div>
    </div>
  );
}

function DocumentEditor({ obj, reload }: { obj: WebObjectDetailFragment; reload: () => void }) {
  const [text, setText] = useState(() => documentText(obj));
  const [base, setBase] = useState(obj.currentVersion);
  const { save, conflict, setConflict, error, busy } = useSave(obj, reload);
  return (
    <section className="doc-editor" aria-label={`Edit ${obj.title}`}>
      <label htmlFor="doc-text">Document (editing version {base})</label>
      <textarea id="doc-text" rows={14} value={text} onChange={(e) => setText(e.target.value)} />
      <div className="form-actions">
        <button type="button" className="btn primary" disabled={busy} onClick={() => void save(text, base).then((ok) => ok && setBase(base + 1))}>
          {busy ? 'Saving…' : 'Save'}
        </button>
      </div>
      {error && <p className="error" role="alert">{error}</p>}
      {conflict && (
        <ConflictBox
          c={conflict}
          onReload={() => {
            setText(typeof conflict.theirs === 'string' ? conflict.theirs : '');
            setBase(conflict.current);
            setConflict(null);
          }}
          onMerge={() => {
            const theirs = typeof conflict.theirs === 'string' ? conflict.theirs : '';
            setText(`${theirs}\n\n<<<<<<< yours\n${text}\n>>>>>>>`);
            setBase(conflict.current);
            setConflict(null);
          }}
        />
      )}
    </section>
  );
}

type FlowNode = { id: string; type?: string; label?: string; params?: Record<string, unknown> };
type Flow = { nodes: FlowNode[]; edges?: { from: string; to: string }[] };

function FlowView({ obj, reload }: { obj: WebObjectDetailFragment; reload: () => void }) {
  const flow = ((obj.content as Flow | null) ?? { nodes: [] }) as Flow;
  const [nodes, setNodes] = useState<FlowNode[]>(flow.nodes ?? []);
  const [base, setBase] = useState(obj.currentVersion);
  const { save, conflict, setConflict, error, busy } = useSave(obj, reload);
  return (
    <section className="flow" aria-label={`Flow ${obj.title}`}>
      <ol className="flow-nodes">
        {nodes.map((n, i) => (
          <li key={n.id} className="flow-node">
            <strong>{n.label ?? n.type ?? n.id}</strong>
            <label>
              <span className="sr-only">Parameters of {n.label ?? n.id}</span>
              <textarea
                rows={3}
                defaultValue={JSON.stringify(n.params ?? {}, null, 1)}
                onBlur={(e) => {
                  try {
                    const params = JSON.parse(e.target.value) as Record<string, unknown>;
                    setNodes(nodes.map((x, j) => (j === i ? { ...x, params } : x)));
                  } catch {
                    e.target.setCustomValidity('Not valid JSON');
                    e.target.reportValidity();
                  }
                }}
              />
            </label>
            {flow.edges?.filter((ed) => ed.from === n.id).map((ed) => (
              <span key={ed.to} className="muted small">
                → {ed.to}
              </span>
            ))}
          </li>
        ))}
      </ol>
      <button type="button" className="btn primary" disabled={busy} onClick={() => void save({ ...flow, nodes }, base).then((ok) => ok && setBase(base + 1))}>
        {busy ? 'Saving…' : 'Save flow'}
      </button>
      {error && <p className="error" role="alert">{error}</p>}
      {conflict && (
        <ConflictBox
          c={conflict}
          onReload={() => {
            setNodes(((conflict.theirs as Flow | null)?.nodes ?? []) as FlowNode[]);
            setBase(conflict.current);
            setConflict(null);
          }}
          onMerge={() => {
            // Per node: theirs where I did not change a node, mine where I did.
            const theirs = ((conflict.theirs as Flow | null)?.nodes ?? []) as FlowNode[];
            const original = flow.nodes ?? [];
            setNodes(theirs.map((t) => {
              const mine = nodes.find((n) => n.id === t.id);
              const orig = original.find((n) => n.id === t.id);
              return mine && JSON.stringify(mine) !== JSON.stringify(orig) ? mine : t;
            }));
            setBase(conflict.current);
            setConflict(null);
          }}
        />
      )}
    </section>
  );
}

export function Workspace() {
  const session = useSession();
  const [kind, setKind] = useState<ObjectKind | null>(null);
  const [objects, setObjects] = useState<WebObjectCardFragment[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [selected, setSelected] = useState<string | null>(null);
  const [detail, setDetail] = useState<WebObjectDetailFragment | null>(null);
  const version = useBusVersion();
  const detailRef = useRef<HTMLElement>(null);
  const scrollToDetail = useRef(false);
  useEffect(() => {
    if (detail && scrollToDetail.current) {
      scrollToDetail.current = false;
      detailRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
    }
  }, [detail]);

  const load = useCallback(async () => {
    try {
      const d = await request(ObjectsDoc, { workspaceId: session.workspaceId, kind });
      setObjects(d.workspace.objects.edges.map((e) => e.node));
      setError(null);
    } catch (e) {
      setError(describeError(e));
    }
  }, [session.workspaceId, kind]);
  const loadDetail = useCallback(async () => {
    if (!selected) return setDetail(null);
    try {
      const d = await request(ObjectDoc, { id: selected });
      setDetail(d.node?.__typename === 'WorkspaceObject' ? d.node : null);
    } catch (e) {
      setError(describeError(e));
    }
  }, [selected]);
  const refresh = useThrottled(() => void load(), 500);
  useEffect(() => void load(), [load]);
  useEffect(() => refresh(), [version, refresh]);
  useEffect(() => void loadDetail(), [loadDetail]);

  return (
    <div className="page workspace">
      <h1>Workspace</h1>
      <div className="tabs" role="tablist" aria-label="Kinds">
        {KINDS.map((k) => (
          <button key={k.label} role="tab" aria-selected={kind === k.value} className={`tab${kind === k.value ? ' active' : ''}`} onClick={() => setKind(k.value)}>
            {k.label}
          </button>
        ))}
      </div>
      {error && <p className="notice" role="alert">{error}</p>}
      <div className={`ws-grid${detail ? ' with-detail' : ''}`}>
        <ul className="gallery" aria-label="Assets" aria-busy={objects === null && !error ? true : undefined}>
          {objects === null &&
            !error &&
            [0, 1, 2, 3, 4, 5].map((i) => (
              <li key={i} data-testid="skeleton">
                <span className="asset skeleton-card">
                  <span className="thumb skeleton-thumb" />
                  <span className="skeleton-line w80" />
                  <span className="skeleton-line w40 thin" />
                </span>
              </li>
            ))}
          {objects?.length === 0 && <li className="muted">Nothing here yet.</li>}
          {objects?.map((o) => (
            <li key={o.id}>
              <button
                type="button"
                className={`asset${selected === o.id ? ' selected' : ''}`}
                onClick={() => {
                  setSelected(o.id);
                  // On a phone the detail is below the gallery: bring it into view once it loads.
                  if (window.matchMedia('(max-width: 720px)').matches) scrollToDetail.current = true;
                }}
                aria-current={selected === o.id ? 'true' : undefined}
              >
                <span className="thumb">
                  {o.current.file?.url && o.current.file.mime.startsWith('image/') ? <img src={o.current.file.url} alt="" width={140} height={140} /> : <span aria-hidden="true">{o.kind === 'DOCUMENT' ? '¶' : o.kind === 'FLOW' ? '⇶' : '◻'}</span>}
                </span>
                <span className="asset-name">{o.title}</span>
                <span className="muted small">
                  {KIND_WORD[o.kind] ?? o.kind.toLowerCase()} · version {o.currentVersion}
                </span>
              </button>
            </li>
          ))}
        </ul>
        {detail && (
          <section className="asset-detail" aria-label={detail.title} ref={detailRef}>
            <h2>{detail.title}</h2>
            <p className="muted">
              Version {detail.currentVersion} · {provenanceText(detail.current.provenance)}
            </p>
            {detail.kind === 'DOCUMENT' && <DocumentEditor key={`${detail.id}:${detail.currentVersion}`} obj={detail} reload={() => void loadDetail()} />}
            {detail.kind === 'FLOW' && <FlowView key={`${detail.id}:${detail.currentVersion}`} obj={detail} reload={() => void loadDetail()} />}
            {detail.current.file?.url && detail.current.file.mime.startsWith('image/') && <img className="preview" src={detail.current.file.url} alt={detail.title} />}
            <h3>Versions</h3>
            {/* Newest first, each named by its own number (no list ordinal to contradict it). */}
            <ul className="versions" data-testid="object-versions">
              {[...detail.versions.edges]
                .sort((a, b) => b.node.version - a.node.version)
                .map(({ node: v }) => (
                  <li key={v.version}>
                    v{v.version} · {new Date(v.createdAt).toLocaleString()} · {authorName(v.author)} {v.summary ? `· ${v.summary}` : ''}
                  </li>
                ))}
            </ul>
          </section>
        )}
      </div>
    </div>
  );
}
