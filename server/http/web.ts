// The web app (Next.js, App Router, in web/) served by this same HTTP server: one URL for the app,
// the API (/graphql), sessions (/auth/*) and generated files (/files/*). Production mode needs a
// build (`npm run web:build`; `npm start` builds when it is missing or stale); ATELIER_WEB=dev runs
// Next's dev server in-process instead, ATELIER_WEB=off serves the API only.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { fromRoot } from '../paths.ts';

export type WebHandler = {
  handle(req: IncomingMessage, res: ServerResponse): Promise<void>;
  upgrade?(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  close(): Promise<void>;
};

export const WEB_DIR = `${fromRoot('web')}/`;

export async function createWebHandler(opts: { dev?: boolean; dir?: string } = {}): Promise<WebHandler> {
  type NextApp = { prepare(): Promise<void>; getRequestHandler(): (req: IncomingMessage, res: ServerResponse) => Promise<void> };
  // Imported by name at run time: Next's global type declarations must not leak into the server's.
  const specifier = 'next';
  const mod = (await import(specifier)) as unknown as { default: ((o: object) => NextApp) | { default: (o: object) => NextApp } };
  const next = typeof mod.default === 'function' ? mod.default : mod.default.default;
  const app = next({ dev: !!opts.dev, dir: opts.dir ?? WEB_DIR, quiet: true });
  await app.prepare();
  const handle = app.getRequestHandler();
  const upgrade = opts.dev ? (app as unknown as { getUpgradeHandler?: () => WebHandler['upgrade'] }).getUpgradeHandler?.() : undefined;
  return {
    handle: (req, res) => handle(req, res),
    upgrade,
    close: async () => {
      await (app as unknown as { close?: () => Promise<void> }).close?.();
    },
  };
}
