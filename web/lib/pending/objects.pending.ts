// Workspace objects (issue 7, merged in parallel): these documents are kept OUT of codegen until the
// API is in schema.graphql — move them into lib/documents.ts (graphql(...)) at merge and drop the
// hand-written types below. Names follow the issue brief.
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

export const ObjectsQuery = /* GraphQL */ `
  query WebObjects($workspaceId: ID!, $kind: ObjectKind) {
    workspace(id: $workspaceId) {
      id
      objects(kind: $kind, first: 60) {
        edges { node { id kind name currentVersion updatedAt file { name mime width height } provenance } }
      }
    }
  }
`;
export type ObjectsResult = { workspace: { id: string; objects: { edges: { node: WorkspaceObject }[] } } };

export const ObjectQuery = /* GraphQL */ `
  query WebObject($id: ID!) {
    node(id: $id) {
      ... on WorkspaceObject {
        id kind name currentVersion updatedAt content provenance
        file { name mime width height }
        versions { version createdAt note author { name } }
        notices { id text createdAt }
      }
    }
  }
`;
export type ObjectResult = { node: WorkspaceObject | null };

export const UpdateObjectMutation = /* GraphQL */ `
  mutation WebUpdateObject($input: UpdateObjectInput!) {
    updateObject(input: $input) { object { id currentVersion content } }
  }
`;
export type UpdateObjectResult = { updateObject: { object: { id: string; currentVersion: number; content: unknown } } };
export type UpdateObjectVars = { input: { objectId: string; baseVersion: number; content: unknown; idempotencyKey?: string } };
