// GET /files/<name>: a generated file (server/generation), by either of two credentials.
// - A signed URL (`?ws=&exp=&sig=`, auth/file-urls.ts, handed out as ObjectFile.url): no token or
//   cookie; valid until its expiry, for that file name in that workspace. Expired or altered: 403
//   with a sentence.
// - The same authentication as GraphQL (bearer or session cookie; a GET of a file changes nothing,
//   so no CSRF header is needed — an <img> cannot send one), for a member of the workspace whose job
//   produced the file.
// Either way the name is checked against a strict pattern and only ever used to find a delivered
// job's stored file in the allowed workspaces; the path served is the stored one, so no name can
// reach outside the files directory.
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FILE_NAME, verifyFileUrl } from '../auth/file-urls.ts';
import { authenticateToken } from '../auth/viewer.ts';
import type { Deps } from '../services/deps.ts';
import { isAppError } from '../errors.ts';
import { deliveredFiles } from '../store/files.ts';
import { credentialOf } from './session.ts';

function text(res: ServerResponse, status: number, body: string) {
  res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' });
  res.end(body);
}

/** Which workspaces' files this request may read, and for how long a client may cache what it gets. */
type Access = { workspaceIds: string[]; cacheControl: string };

async function accessOf(deps: Deps, req: IncomingMessage, res: ServerResponse, name: string, query: URLSearchParams): Promise<Access | null> {
  if (query.has('sig') || query.has('exp') || query.has('ws')) {
    const secret = deps.config.files?.urlSecret;
    const check = secret ? verifyFileUrl(secret, name, query) : ({ ok: false, reason: 'invalid' } as const);
    if (!check.ok) {
      text(
        res,
        403,
        check.reason === 'expired'
          ? 'This file link has expired. Ask the API for the file again (its url field) to get a new link.'
          : 'This file link is not valid: it was changed or was not made by this server.',
      );
      return null;
    }
    // Cached no longer than the link is valid.
    const left = Math.max(0, Number(query.get('exp')) - Math.floor(Date.now() / 1000));
    return { workspaceIds: [check.workspaceId], cacheControl: `private, max-age=${Math.min(left, 86_400)}` };
  }
  let viewer;
  try {
    viewer = await authenticateToken(deps.prisma, credentialOf(req.headers)?.token ?? null);
  } catch (e) {
    if (isAppError(e)) {
      text(res, 401, 'Sign in to see this file, or use the signed link the API gives for it (its url field).');
      return null;
    }
    throw e;
  }
  if (!viewer.scopes.has('READ')) {
    text(res, 404, 'Not found');
    return null;
  }
  return { workspaceIds: [...viewer.memberships.keys()], cacheControl: 'private, max-age=86400, immutable' };
}

export async function handleFile(deps: Deps, req: IncomingMessage, res: ServerResponse, name: string, query: URLSearchParams = new URLSearchParams()) {
  if (req.method !== 'GET' && req.method !== 'HEAD') return text(res, 405, 'Use GET.');
  const access = await accessOf(deps, req, res, name, query);
  if (!access) return;
  if (!FILE_NAME.test(name)) return text(res, 404, 'Not found');
  const stem = name.slice(0, name.lastIndexOf('.'));
  const rows = await deliveredFiles(deps.prisma, { workspaceIds: access.workspaceIds, upstreamJobId: stem });
  const file = rows.find((r) => basename(r.path) === name);
  if (!file) return text(res, 404, 'Not found');
  const st = await stat(file.path).catch(() => null);
  if (!st?.isFile()) return text(res, 404, 'Not found');
  res.writeHead(200, {
    'content-type': file.mime,
    'content-length': String(st.size),
    'cache-control': access.cacheControl,
    'x-content-type-options': 'nosniff',
    // SVG "videos" are shown as images; opened directly they must not run anything.
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; img-src data:; sandbox",
  });
  if (req.method === 'HEAD') return res.end();
  createReadStream(file.path).pipe(res);
}
