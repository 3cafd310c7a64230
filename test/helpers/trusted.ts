// The web app's trusted documents (codegen's web/gql/persisted-documents.json): tests that act as
// the web app — the session cookie — send these by id, as the web app does.
import { readFileSync } from 'node:fs';
import { MANIFEST_PATH } from '../../server/http/trusted-documents.ts';

/** "sha256:…" id of the web app's operation with this name (e.g. WebViewer). */
export function webDocumentId(operationName: string): string {
  const manifest = JSON.parse(readFileSync(MANIFEST_PATH, 'utf8')) as Record<string, string>;
  const found = Object.entries(manifest).find(([, doc]) => new RegExp(`\\b(query|mutation|subscription) ${operationName}\\b`).test(doc));
  if (!found) throw new Error(`the web app has no operation ${operationName} (run npm run codegen)`);
  return found[0];
}

/** The same id as Apollo's persisted-query extension (what the web app sends over a socket). */
export const persistedQueryExtension = (operationName: string) => ({
  persistedQuery: { version: 1, sha256Hash: webDocumentId(operationName).replace(/^sha256:/, '') },
});
