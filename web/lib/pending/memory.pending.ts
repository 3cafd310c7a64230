// Long-term memory API: hand-written documents against schema.graphql, mapped to the view's shape
// (toMemoryView). TODO: move into lib/documents.ts (codegen-typed).
export type MemoryView = {
  id: string;
  subject: string;
  content: string;
  kind: string;
  scope: string;
  origin: string;
  status: string;
  createdAt: string;
  sources: { id: string; text: string; createdAt: string }[];
  versions: { id: string; content: string; status: string; createdAt: string }[];
};

type RawMemory = {
  id: string;
  subjectKey: string;
  content: string;
  kind: string;
  scope: string;
  origin: string;
  status: string;
  createdAt: string;
  evidence: { evidence: { id: string; excerpt: string | null; occurredAt: string; status: string } }[];
  versions: { number: number; content: string | null; value: string | null; status: string; validFrom: string }[];
};

/** The API's shape → the view's. */
export function toMemoryView(m: RawMemory): MemoryView {
  return {
    id: m.id,
    subject: m.subjectKey,
    content: m.content,
    kind: m.kind,
    scope: m.scope,
    origin: m.origin,
    status: m.status,
    createdAt: m.createdAt,
    sources: m.evidence.map((c) => ({ id: c.evidence.id, text: c.evidence.status === 'REVOKED' ? '(source revoked)' : (c.evidence.excerpt ?? '(not shown)'), createdAt: c.evidence.occurredAt })),
    versions: m.versions.map((v) => ({ id: String(v.number), content: v.content ?? v.value ?? '(cleared)', status: v.status, createdAt: v.validFrom })),
  };
}

export const MemoriesQuery = /* GraphQL */ `
  query WebMemories($workspaceId: ID!) {
    workspace(id: $workspaceId) {
      id
      memories(first: 100) {
        edges {
          node {
            id subjectKey content kind scope origin status createdAt
            evidence { evidence { id excerpt occurredAt status } }
            versions { number content value status validFrom }
          }
        }
      }
    }
  }
`;
export type MemoriesResult = { workspace: { id: string; memories: { edges: { node: RawMemory }[] } } };

export const CorrectMemoryMutation = /* GraphQL */ `
  mutation WebCorrectMemory($input: CorrectMemoryInput!) {
    correctMemory(input: $input) { memory { id content } }
  }
`;
export const ForgetMemoryMutation = /* GraphQL */ `
  mutation WebForgetMemory($input: ForgetMemoryInput!) {
    forgetMemory(input: $input) {
      approval { id kind title status choice note quoteCents action createdAt resolvedAt reasons { code message } options { id label objectId } }
    }
  }
`;
