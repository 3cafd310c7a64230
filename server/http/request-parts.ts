// What every HTTP entry point (GraphQL, /mcp, /a2a) reads from a request the same way: its body
// within the size limit, the origin clients address, and whether a browser's origin names a host
// this server is known by.
import type { IncomingMessage } from 'node:http';
import type { Config } from '../config.ts';

export class BodyTooLarge extends Error {}

/** The whole body, or BodyTooLarge as soon as it (or its declared length) passes `limit` bytes. */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) return reject(new BodyTooLarge());
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new BodyTooLarge());
        return;
      }
      chunks.push(c);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

export const header = (req: IncomingMessage, name: string): string | null => {
  const v = req.headers[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
};

/** The origin clients address (ATELIER_PUBLIC_URL, else the Host and X-Forwarded-Proto they used). */
export function originOf(config: Pick<Config, 'files'>, req: IncomingMessage): string {
  if (config.files?.publicUrl) return config.files.publicUrl;
  const proto = header(req, 'x-forwarded-proto')?.split(',')[0]?.trim().toLowerCase();
  return `${proto === 'https' ? 'https' : 'http'}://${header(req, 'host') ?? 'localhost'}`;
}

/**
 * DNS rebinding: a page of evil.example whose name resolves to this server sends Host and Origin
 * both evil.example — "its own origin". A browser's request must also name a host this server is
 * known by: a loopback name, ATELIER_PUBLIC_URL's host, or an allowed origin's. (Non-browser
 * clients send no Origin; they are not affected.)
 */
export function knownHostCheck(config: Pick<Config, 'files' | 'allowedOrigins'>): (origin: string) => boolean {
  const known = new Set(['localhost', '127.0.0.1', '[::1]']);
  for (const o of [config.files?.publicUrl, ...(config.allowedOrigins ?? [])]) {
    try {
      if (o) known.add(new URL(o).hostname);
    } catch {
      /* not a URL: the configuration check reports it */
    }
  }
  return (origin) => {
    try {
      return known.has(new URL(origin).hostname);
    } catch {
      return false;
    }
  };
}
