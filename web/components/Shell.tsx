'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useMemo, type ReactNode } from 'react';
import { bus } from '../lib/bus';
import { ViewerDoc } from '../lib/documents';
import { SessionContext, useGql, useLiveState, type Session } from '../lib/hooks';

const NAV = [
  { href: '/', label: 'Studio' },
  { href: '/workspace', label: 'Workspace' },
  { href: '/memory', label: 'Memory' },
  { href: '/settings', label: 'Budget & autonomy' },
];

const LIVE_TEXT = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', offline: 'Offline — will resume' } as const;

export function LiveIndicator() {
  const state = useLiveState();
  return (
    <span className={`live live-${state}`} role="status" aria-live="polite" data-testid="live-state" data-state={state}>
      <span className="dot" aria-hidden="true" />
      {LIVE_TEXT[state]}
    </span>
  );
}

async function signOut() {
  await fetch('/auth/signout', { method: 'POST', headers: { 'x-atelier-csrf': '1' }, credentials: 'same-origin' }).catch(() => {});
  location.assign('/signin');
}

export function Shell({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const { data, error } = useGql(ViewerDoc, {}, 'viewer');
  const session = useMemo<Session | null>(() => {
    const v = data?.viewer;
    const ws = v?.workspaces[0];
    if (!v || !ws) return null;
    return {
      workspaceId: ws.id,
      workspaceName: ws.name,
      userName: v.user.name,
      canWrite: v.scopes.includes('WRITE') && ws.viewerRole !== 'VIEWER',
      canApprove: v.scopes.includes('APPROVE') && ws.viewerRole !== 'VIEWER',
      isOwner: ws.viewerRole === 'OWNER',
      offlineModel: v.runtime.model.offline,
    };
  }, [data]);
  useEffect(() => {
    if (session) bus.start(session.workspaceId);
  }, [session]);

  return (
    <SessionContext.Provider value={session}>
      <a className="skip" href="#main">Skip to content</a>
      <header className="topbar">
        <div className="brand">
          <span className="logo" aria-hidden="true">◐</span> Atelier
          {session && <span className="wsname">· {session.workspaceName}</span>}
        </div>
        <nav aria-label="Main">
          {NAV.map((n) => (
            <Link key={n.href} href={n.href} aria-current={pathname === n.href ? 'page' : undefined}>
              {n.label}
            </Link>
          ))}
        </nav>
        <div className="topright">
          <LiveIndicator />
          {session && <span className="who">{session.userName}</span>}
          <button type="button" className="btn ghost small" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" className="main">
        {session ? children : error ? <p className="error" role="alert">{error}</p> : <p className="muted pad">Loading your workspace…</p>}
      </main>
    </SessionContext.Provider>
  );
}
