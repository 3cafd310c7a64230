// GET /files/<name>: a generated file (server/generation) for a member of the workspace whose job
// produced it. Same authentication as GraphQL (bearer or session cookie; a GET of a file changes
// nothing, so no CSRF header is needed — an <img> cannot send one). The name is checked against a
// strict pattern and only ever used to find a job's stored file; the path served is the stored one,
// so no name can reach outside the files directory.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticateToken } from '../auth/viewer.ts';
import type { Deps } from '../services/deps.ts';
import { isAppError } from '../errors.ts';
import { deliveredFiles } from '../store/files.ts';
import { credentialOf } from './session.ts';

const NAME = /^[A-Za-z0-9_-]{1,120}\.[A-Za-z0-9]{1,8}$/;

function text(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(body);
}

export async function handleFile(deps: Deps, req: IncomingMessage, res: ServerResponse, name: string) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return text(res, 405, 'Use GET.');
  let viewer;
  try {
    viewer = await authenticateToken(deps.prisma, credentialOf(req.headers)?.token ?? null);
  } catch (e) {
    if (isAppError(e)) return text(res, 401, 'Sign in to see this file.');
    throw e;
  }
  if (!NAME.test(name) || !viewer.scopes.has('READ')) return text(res, 404, 'Not found');
  const stem = name.slice(0, name.lastIndexOf('.'));
  const rows = await deliveredFiles(deps.prisma, { workspaceIds: [...viewer.memberships.keys()], upstreamJobId: stem });
  const file = rows.find((r) => basename(r.path) === name);
  if (!file) return text(res, 404, 'Not found');
  const st = await stat(file.path).catch(() => null);
  if (!st?.isFile()) return text(res, 404, 'Not found');
  res.writeHead(200, {
    'content-type': file.mime,
    'content-length': String(st.size),
    'cache-control': 'private, max-age=86400, immutable',
    'x-content-type-options': 'nosniff',
    // SVG "videos" are shown as images; opened directly they must not run anything.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file.path).pipe(res);
}
