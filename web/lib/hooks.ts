'use client';
import { createContext, useCallback, useContext, useEffect, useRef, useState, useSyncExternalStore } from 'react';
import type { TypedDocumentString } from '../gql/graphql';
import { ApiError, describeError, request } from './client';
import { live, type LiveState } from './live';

export type Session = {
  workspaceId: string;
  workspaceName: string;
  userName: string;
  canWrite: boolean;
  canApprove: boolean;
  isOwner: boolean;
  offlineModel: boolean;
};

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const s = useContext(SessionContext);
  if (!s) throw new Error('useSession outside the app shell');
  return s;
}

export function useLiveState(): LiveState {
  return useSyncExternalStore(
    (cb) => live.onChange(cb),
    () => live.state,
    () => 'connecting' as LiveState,
  );
}

/** A query that keeps its last data while reloading (no flashing, no layout jumps). */
export function useGql<TResult, TVars>(doc: TypedDocumentString<TResult, TVars> | null, variables: TVars, key: string) {
  const [data, setData] = useState<TResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [errorCode, setErrorCode] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const vars = useRef(variables);
  vars.current = variables;
  const seq = useRef(0);
  const hasData = useRef(false);
  const reload = useCallback(async () => {
    if (!doc) return;
    const mine = ++seq.current;
    setLoading(true);
    try {
      const d = await request(doc, vars.current);
      if (mine !== seq.current) return;
      hasData.current = true;
      setData(d);
      setError(null);
      setErrorCode(null);
    } catch (e) {
      if (mine !== seq.current) return;
      // Offline with data on screen: keep it; the connection indicator already says so (no banner jump).
      if (e instanceof ApiError && e.code === 'NETWORK' && hasData.current) return;
      setError(describeError(e));
      setErrorCode(e instanceof ApiError ? e.code : null);
    } finally {
      if (mine === seq.current) setLoading(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [doc, key]);
  useEffect(() => {
    setData(null);
    void reload();
  }, [reload]);
  return { data, error, errorCode, loading, reload, setData };
}

/** Calls fn at most once per `ms`, trailing. */
export function useThrottled(fn: () => void, ms: number) {
  const ref = useRef(fn);
  ref.current = fn;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(() => () => { if (timer.current) clearTimeout(timer.current); }, []);
  return useCallback(() => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      ref.current();
    }, ms);
  }, [ms]);
}

export function timeAgo(iso: string): string {
  const s = Math.max(0, (Date.now() - new Date(iso).getTime()) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 86400) return `${Math.round(s / 3600)} h ago`;
  return new Date(iso).toLocaleDateString();
}
