'use client';
import { useState, type FormEvent } from 'react';

export function SignIn() {
  const [token, setToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const res = await fetch('/auth/session', {
        method: 'POST',
        credentials: 'same-origin',
        headers: { 'content-type': 'application/json', 'x-atelier-csrf': '1' },
        body: JSON.stringify({ token }),
      });
      const body = (await res.json().catch(() => ({}))) as { ok?: boolean; message?: string };
      if (!res.ok || !body.ok) throw new Error(body.message ?? 'Signing in did not work. Please try again.');
      // Read at submit time, so the form itself renders on the server (visible before any script runs).
      const next = new URLSearchParams(location.search).get('next');
      location.assign(next && next.startsWith('/') && !next.startsWith('//') ? next : '/');
    } catch (err) {
      setError(err instanceof TypeError ? 'Atelier cannot be reached. Is the server running?' : (err as Error).message);
      setBusy(false);
    }
  }

  return (
    <form className="signin-card" onSubmit={submit}>
      <h1>
        <span aria-hidden="true">◐</span> Atelier
      </h1>
      <p>Sign in with your access token. On the first start, <code>npm start</code> printed the owner token; <code>npm run atelier -- token</code> makes a new one.</p>
      <label htmlFor="token">Access token</label>
      <input
        id="token"
        name="token"
        type="password"
        autoComplete="current-password"
        placeholder="atl_…"
        value={token}
        onChange={(e) => setToken(e.target.value)}
        required
        aria-describedby={error ? 'signin-error' : undefined}
      />
      <button type="submit" className="btn primary" disabled={busy || !token.trim()}>
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
      {error && (
        <p id="signin-error" className="error" role="alert">
          {error}
        </p>
      )}
      <p className="muted small">The token is exchanged for a session that stays on this browser (httpOnly cookie, 30 days). Your token itself is not stored.</p>
    </form>
  );
}
