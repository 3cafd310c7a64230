'use client';
import { useEffect, useRef, useState } from 'react';
import { request } from './client';
import { TaskEventsDoc, TaskEventsSub } from './documents';
import { live } from './live';
import type { TaskEventView } from './timeline';

/**
 * A task's event log, complete and in order: the stored events over HTTP (pages of 500), then the
 * live subscription from the last seq seen. Events are kept by seq, so a replay after a reconnect
 * never doubles one; a gap (seq jumps) is filled from the HTTP log.
 */
export function useTaskEvents(taskId: string | null) {
  const [events, setEvents] = useState<TaskEventView[]>([]);
  const [stats, setStats] = useState({ duplicatesDropped: 0, gapsFilled: 0 });
  const lastSeq = useRef(0);

  useEffect(() => {
    if (!taskId) return;
    let cancelled = false;
    const bySeq = new Map<number, TaskEventView>();
    lastSeq.current = 0;
    setEvents([]);
    let dupes = 0;
    let gaps = 0;
    let frame = 0;
    const flush = () => {
      if (frame) return;
      frame = requestAnimationFrame(() => {
        frame = 0;
        if (cancelled) return;
        setEvents([...bySeq.values()].sort((a, b) => a.seq - b.seq));
        setStats({ duplicatesDropped: dupes, gapsFilled: gaps });
      });
    };
    const advance = () => {
      while (bySeq.has(lastSeq.current + 1)) lastSeq.current++;
    };
    let filling = false;
    const fill = async () => {
      if (filling) return;
      filling = true;
      try {
        for (;;) {
          const d = await request(TaskEventsDoc, { id: taskId, after: lastSeq.current, first: 500 });
          if (cancelled) return;
          for (const edge of d.task.events.edges) if (!bySeq.has(edge.node.seq)) bySeq.set(edge.node.seq, edge.node as TaskEventView);
          advance();
          flush();
          if (!d.task.events.pageInfo.hasNextPage) break;
        }
      } catch {
        /* shown by the connection indicator; the subscription or the next fill catches up */
      } finally {
        filling = false;
      }
    };
    let stop: (() => void) | undefined;
    void fill().then(() => {
      if (cancelled) return;
      stop = live.subscribe(
        TaskEventsSub,
        () => ({ taskId, after: lastSeq.current }),
        (d) => {
          const e = d.taskEvents as TaskEventView;
          if (bySeq.has(e.seq)) {
            dupes++;
            flush();
            return;
          }
          bySeq.set(e.seq, e);
          if (e.seq > lastSeq.current + 1) {
            gaps++;
            void fill();
          }
          advance();
          flush();
        },
      );
    });
    return () => {
      cancelled = true;
      stop?.();
      if (frame) cancelAnimationFrame(frame);
    };
  }, [taskId]);

  return { events, stats, lastSeq };
}
