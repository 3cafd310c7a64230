'use client';
import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { useEffect, useMemo, type ReactNode } from 'react';
import { bus } from '../lib/bus';
import { ViewerDoc } from '../lib/documents';
import { SessionContext, useGql, useLiveState, type Session } from '../lib/hooks';

const NAV = [
  { href: '/', label: 'Studio', short: 'Studio' },
  { href: '/workspace', label: 'Workspace', short: 'Workspace' },
  { href: '/memory', label: 'Memory', short: 'Memory' },
  // Messages and tasks that run later, once or again and again.
  { href: '/schedules', label: 'Schedules', short: 'Later' },
  // Budget, autonomy, the model and the tools of other apps (MCP servers): one place for settings.
  { href: '/settings', label: 'Settings', short: 'Settings' },
];

/** Said once, plainly, for the whole app: no model is configured, so fixed rules stand in for one. */
export function OfflineModelBadge() {
  return (
    <span className="offline-badge" data-testid="offline-badge">
      <Link href="/settings#model" className="badge-label" title="No AI model is set up: Atelier follows fixed rules. Tap to see how to set one up.">
        Offline model
      </Link>
      <span className="badge-text">
        Fixed rules, not an AI model. <Link href="/settings#model">Set up a model</Link>
      </span>
    </span>
  );
}

const LIVE_TEXT = { connecting: 'Connecting…', live: 'Live', reconnecting: 'Reconnecting…', offline: 'Offline — will resume' } as const;

export function LiveIndicator() {
  const state = useLiveState();
  return (
    <span className={`live live-${state}`} role="status" aria-live="polite" data-testid="live-state" data-state={state}>
      <span className="dot" aria-hidden="true" />
      <span className="live-text">{LIVE_TEXT[state]}</span>
    </span>
  );
}

async function signOut() {
  await fetch('/auth/signout', { method: 'POST', headers: { 'x-atelier-csrf': '1' }, credentials: 'same-origin' }).catch(() => {});
  location.assign('/signin');
}

/** What a page looks like while it loads: grey blocks where its content will be, never "nothing here". */
export function PageSkeleton({ label = 'Loading your workspace…' }: { label?: string }) {
  return (
    <div className="page skeleton-page" aria-busy="true" data-testid="skeleton">
      <span className="sr-only" role="status">{label}</span>
      <span className="skeleton-line w30 tall" />
      <span className="skeleton-line w80" />
      <span className="skeleton-line w60" />
      <span className="skeleton-block" />
    </div>
  );
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
          {session && (
            <span className="wsname">
              {' · '}
              {session.workspaceName}
            </span>
          )}
        </div>
        <nav aria-label="Main" className="mainnav">
          {NAV.map((n) => (
            <Link key={n.href} href={n.href} aria-current={pathname === n.href ? 'page' : undefined}>
              <span className="nav-long">{n.label}</span>
              <span className="nav-short">{n.short}</span>
            </Link>
          ))}
        </nav>
        <div className="topright">
          {session?.offlineModel && <OfflineModelBadge />}
          <LiveIndicator />
          {session && <span className="who">{session.userName}</span>}
          <button type="button" className="btn ghost small signout" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main id="main" className="main">
        {session ? children : error ? <p className="error" role="alert">{error}</p> : <PageSkeleton />}
      </main>
    </SessionContext.Provider>
  );
}
