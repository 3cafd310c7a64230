'use client';
// A task's timeline: milestones in plain words, or the raw events behind a toggle; it follows the
// newest entry unless the reader has scrolled up.
import { useEffect, useMemo, useRef, useState } from 'react';
import { milestone, type MilestoneContext, type TaskEventView } from '../lib/timeline';

export function TaskTimeline({ events, stats, ctx }: { events: TaskEventView[]; stats: { duplicatesDropped: number; gapsFilled: number }; ctx: MilestoneContext }) {
  const [raw, setRaw] = useState(false);
  const list = useRef<HTMLOListElement>(null);
  const atBottom = useRef(true);
  const items = useMemo(() => events.map((e) => milestone(e, ctx)).filter((m) => m !== null), [events, ctx]);
  useEffect(() => {
    const el = list.current;
    if (el && atBottom.current) el.scrollTop = el.scrollHeight;
  }, [items.length, raw]);
  const last = events.at(-1)?.seq ?? 0;
  return (
    <section className="timeline" aria-labelledby="timeline-h" data-last-seq={last} data-event-count={events.length} data-dupes={stats.duplicatesDropped}>
      <div className="section-head">
        <h3 id="timeline-h">Timeline</h3>
        <label className="toggle">
          <input type="checkbox" checked={raw} onChange={(e) => setRaw(e.target.checked)} /> Raw events
        </label>
      </div>
      <ol
        ref={list}
        className={raw ? 'raw-events' : 'milestones'}
        // A scrolling list a keyboard can reach and scroll.
        tabIndex={0}
        aria-label={raw ? 'Event log' : 'Milestones'}
        onScroll={(e) => {
          const el = e.currentTarget;
          atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
        }}
      >
        {raw
          ? events.map((e) => (
              <li key={e.seq} data-seq={e.seq}>
                <code>
                  #{e.seq} {e.type} · {e.actor.kind.toLowerCase()}
                </code>
                {e.redacted ? <span className="muted"> (private)</span> : <pre>{JSON.stringify(e.payload, null, 1)}</pre>}
              </li>
            ))
          : items.map((m) => (
              <li key={m.seq} className={`tone-${m.tone}`} data-seq={m.seq} data-testid="milestone">
                <span className="when">{new Date(m.at).toLocaleTimeString()}</span> {m.text}
              </li>
            ))}
      </ol>
    </section>
  );
}
