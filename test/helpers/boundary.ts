// The app and the request helpers the API-boundary tests share (test/boundary-*.test.ts).
import { after, before } from 'node:test';
import { startTestApp, type TestApp } from './app.ts';
import { toGlobalId } from './clients.ts';
import { webDocumentId } from './trusted.ts';

export let t: TestApp;
export const OTHER = 'http://127.0.0.1:1'; // another port of the same host: another origin
export const LISTED = 'https://studio.example.test';

export type Gql = { status: number; headers: Headers; body: { data?: any; errors?: { message: string; extensions?: Record<string, any> }[] } };

export async function post(query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}, token?: string | null): Promise<Gql> {
  const res = await fetch(`${t.url}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers },
    // A bare operation name (WebViewer, …) is the web app's trusted document, sent by id as it does.
    body: JSON.stringify(/^Web\w+$/.test(query) ? { documentId: webDocumentId(query), variables } : { query, variables }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Gql['body'] };
}
export const codes = (r: Gql) => (r.body.errors ?? []).map((e) => e.extensions?.code);

export async function sessionCookie(token: string, origin?: string): Promise<{ status: number; cookie: string | null; body: any }> {
  const res = await fetch(`${t.url}/auth/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-atelier-csrf': '1', ...(origin ? { origin } : {}) },
    body: JSON.stringify({ token }),
  });
  const set = res.headers.get('set-cookie');
  const m = set ? /atelier_session=([^;]+)/.exec(set) : null;
  return { status: res.status, cookie: m ? decodeURIComponent(m[1]!) : null, body: await res.json() };
}

export const wsId = () => toGlobalId('Workspace', t.a.workspaceId);

/** One app per test file, with a listed origin, fast WebSocket re-authentication and a roomy rate limit. */
export function useBoundaryApp(): void {
  before(async () => {
    t = await startTestApp('boundary', { allowedOrigins: [LISTED], wsReauthMs: 200, rateLimitPerMinute: 100_000 });
  });
  after(async () => {
    await t.close();
  });
}
