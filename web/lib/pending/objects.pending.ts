// Workspace objects: hand-written documents against schema.graphql, mapped to the view's
// shape (toView). TODO: move into lib/documents.ts (codegen-typed) and drop the hand-written types.
export type ObjectKind = 'IMAGE' | 'VIDEO' | 'AUDIO' | 'MODEL_3D' | 'DOCUMENT' | 'COLLECTION' | 'FLOW';
export type ObjectFile = { name: string; mime: string; width?: number | null; height?: number | null };
export type ObjectVersion = { version: number; createdAt: string; note?: string | null; author?: { name: string } | null };
export type WorkspaceObject = {
  id: string;
  kind: ObjectKind;
  name: string;
  currentVersion: number;
  updatedAt?: string;
  content?: unknown;
  file?: ObjectFile | null;
  provenance?: unknown;
  versions?: ObjectVersion[];
  notices?: { id: string; text: string; createdAt: string }[];
};

type RawFile = { path: string; mime: string; width?: number | null; height?: number | null } | null;
type RawVersion = { version: number; createdAt: string; summary: string; author: { kind: string; user: { name: string } | null; task: { title: string } | null } };
type RawObject = {
  id: string;
  kind: ObjectKind;
  name: string;
  currentVersion: number;
  updatedAt?: string;
  content?: unknown;
  current?: { file: RawFile; provenance: unknown; markdown?: string | null } | null;
  versions?: { edges: { node: RawVersion }[] };
};

/** The API's shape → the view's: documents edit as text, files by name, versions as a list. */
export function toView(o: RawObject): WorkspaceObject {
  const f = o.current?.file ?? null;
  return {
    id: o.id,
    kind: o.kind,
    name: o.name,
    currentVersion: o.currentVersion,
    updatedAt: o.updatedAt,
    content: o.kind === 'DOCUMENT' ? (o.current?.markdown ?? (o.content as { markdown?: string } | undefined)?.markdown ?? '') : o.content,
    file: f ? { name: f.path.split('/').pop() ?? '', mime: f.mime, width: f.width, height: f.height } : null,
    provenance: o.current?.provenance ?? null,
    versions: o.versions?.edges.map(({ node: v }) => ({
      version: v.version,
      createdAt: v.createdAt,
      note: v.summary,
      author: { name: v.author.user?.name ?? (v.author.task ? `agent (${v.author.task.title})` : v.author.kind.toLowerCase()) },
    })),
    notices: [],
  };
}

/** Documents are stored as { markdown }; the editor works on text. */
export function toContent(kind: ObjectKind, content: unknown): unknown {
  return kind === 'DOCUMENT' && typeof content === 'string' ? { markdown: content } : content;
}

export const ObjectsQuery = /* GraphQL */ `
  query WebObjects($workspaceId: ID!, $kind: ObjectKind) {
    workspace(id: $workspaceId) {
      id
      objects(kind: $kind, first: 60) {
        edges { node { id kind name currentVersion updatedAt current { file { path mime width height } provenance } } }
      }
    }
  }
`;
export type ObjectsResult = { workspace: { id: string; objects: { edges: { node: RawObject }[] } } };

export const ObjectQuery = /* GraphQL */ `
  query WebObject($id: ID!) {
    node(id: $id) {
      ... on WorkspaceObject {
        id kind name currentVersion updatedAt content
        current { file { path mime width height } provenance markdown }
        versions(first: 50) { edges { node { version createdAt summary author { kind user { name } task { title } } } } }
      }
    }
  }
`;
export type ObjectResult = { node: RawObject | null };

export const UpdateObjectMutation = /* GraphQL */ `
  mutation WebUpdateObject($input: UpdateObjectInput!) {
    updateObject(input: $input) { object { id currentVersion content } }
  }
`;
export type UpdateObjectResult = { updateObject: { object: { id: string; currentVersion: number; content: unknown } } };
export type UpdateObjectVars = { input: { objectId: string; baseVersion: number; content: unknown; idempotencyKey?: string } };
