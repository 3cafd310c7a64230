// The signed URL of a stored file as the ObjectFile and GeneratedFile types show it (url and
// urlExpiresAt): made once per file per request, so the two fields always describe the same link.
import { FILE_NAME, signFileUrl } from '../auth/file-urls.ts';
import { fileNameOf } from '../domain/file-names.ts';
import type { ObjectRef } from '@pothos/core';
import { builder } from './builder.ts';
import type { Context } from './context.ts';

type SchemaTypesOf = typeof builder extends { objectRef: (name: string) => ObjectRef<infer T, never> } ? T : never;

export type FileLink = { url: string; expiresAt: Date };

const made = new WeakMap<object, FileLink | null>();

/**
 * `file` is the parent object both fields receive. Null for a name the file route never serves (a
 * media object created through the API with a file that no job delivered may carry any name).
 */
export function fileLink(ctx: Context, file: { path: string; workspaceId: string }): FileLink | null {
  if (made.has(file)) return made.get(file)!;
  const name = fileNameOf(file.path);
  const secret = ctx.deps.config.files?.urlSecret;
  let link: FileLink | null = null;
  if (secret && FILE_NAME.test(name)) {
    const signed = signFileUrl({ secret, ttlSeconds: ctx.deps.config.files?.urlTtlSeconds ?? 900 }, { workspaceId: file.workspaceId, name });
    link = { url: `${ctx.publicUrl ?? ''}${signed.path}`, expiresAt: signed.expiresAt };
  }
  made.set(file, link);
  return link;
}

/** `url` and `urlExpiresAt` on a type whose objects are stored files (ObjectFile, GeneratedFile). */
export function addFileLinkFields<T extends { path: string; workspaceId: string }>(ref: ObjectRef<SchemaTypesOf, T>): void {
  builder.objectFields(ref, (t) => ({
    url: t.string({
      nullable: true,
      description:
        'A signed, short-lived absolute URL of the file: GET it without a token or cookie (an <img>, a download link, curl) until `urlExpiresAt`; then ask for the file again. Null when the server cannot serve this file by name.',
      resolve: (f, _a, ctx) => fileLink(ctx, f)?.url ?? null,
    }),
    urlExpiresAt: t.field({
      type: 'DateTime',
      nullable: true,
      description: 'When `url` stops working (403). Null when `url` is.',
      resolve: (f, _a, ctx) => fileLink(ctx, f)?.expiresAt ?? null,
    }),
  }));
}
