// Trusted documents: the web app sends only the ids of its operations (GraphQL Code Generator's
// persisted documents, web/gql/persisted-documents.json, "sha256:<hex>" → document), never
// documents of its own; the server runs what the id names. Integrators' tokens may still send
// documents of their own unless their workspace switched that off.
//
// Invariants: a cookie (web app) request runs only a trusted document (GraphiQL's, marked by its
// header and only while GraphiQL is served, excepted); a bearer token of a
// workspace with trustedDocumentsOnly runs only trusted documents; an unknown id runs nothing.
import { readFileSync, statSync } from 'node:fs';
import type { PrismaClient } from '../db/client.ts';
import { anyTrustedDocumentsOnly } from '../store/workspace-settings.ts';
import { fromRoot } from '../paths.ts';
import type { Credential } from './session.ts';

/** GraphiQL's own requests carry it (yoga.ts); honoured only while GraphiQL is served. */
export const GRAPHIQL_HEADER = 'x-atelier-graphiql';

export const MANIFEST_PATH = fromRoot('web', 'gql', 'persisted-documents.json');

type Manifest = { documents: Map<string, string>; mtimeMs: number };
let cached: Manifest | null = null;

/** The manifest codegen wrote (re-read when the file changes: a rebuilt web app brings new ids). */
export function trustedDocuments(path = MANIFEST_PATH): Map<string, string> {
  let mtimeMs = -1;
  try {
    mtimeMs = statSync(path).mtimeMs;
  } catch {
    // No web build yet: nothing is trusted, integrators' own documents still run.
  }
  if (cached && cached.mtimeMs === mtimeMs) return cached.documents;
  const documents = new Map<string, string>();
  if (mtimeMs >= 0) {
    for (const [id, doc] of Object.entries(JSON.parse(readFileSync(path, 'utf8')) as Record<string, string>)) documents.set(id, doc);
  }
  cached = { documents, mtimeMs };
  return documents;
}

const HEX = /^[0-9a-f]{64}$/;

/**
 * The trusted-document id a request names: `documentId` ("sha256:<hex>", the GraphQL over HTTP
 * persisted-document form) or Apollo's `extensions.persistedQuery.sha256Hash`. Null: none.
 */
export function documentIdOf(params: { documentId?: unknown; extensions?: unknown }): string | null {
  if (typeof params.documentId === 'string') return params.documentId.startsWith('sha256:') ? params.documentId : `sha256:${params.documentId}`;
  const pq = (params.extensions as { persistedQuery?: { version?: unknown; sha256Hash?: unknown } } | undefined)?.persistedQuery;
  if (pq && typeof pq.sha256Hash === 'string' && HEX.test(pq.sha256Hash)) return `sha256:${pq.sha256Hash}`;
  return null;
}

export const UNKNOWN_DOCUMENT =
  'This document id is not one of the trusted documents of this server. Reload the app (it may be older than the server), or send the document itself with an API token.';
export const COOKIE_NEEDS_TRUSTED = 'The web app sends only trusted documents (by id); to send documents of your own, use an API token (Authorization: Bearer …).';
export const WORKSPACE_NEEDS_TRUSTED =
  "This workspace accepts only trusted documents: its owner switched off documents of your own (workspace settings, trustedDocumentsOnly). Send a trusted document's id instead.";

/**
 * Whether a request that brings a document of its own may run it: never with the web app's cookie;
 * with a token, unless the token's workspace accepts only trusted documents. Null: it may; else the
 * sentence that says why not.
 */
export async function arbitraryDocumentRefusal(
  prisma: PrismaClient,
  cred: Credential | null,
  workspaceIds: Iterable<string>,
  opts: { fromGraphiQL?: boolean } = {},
): Promise<string | null> {
  if (cred?.via === 'cookie' && !opts.fromGraphiQL) return COOKIE_NEEDS_TRUSTED;
  return (await anyTrustedDocumentsOnly(prisma, [...workspaceIds])) ? WORKSPACE_NEEDS_TRUSTED : null;
}
