// Long-term memory API (merged in parallel): kept OUT of codegen until Workspace.memories,
// correctMemory and forgetMemory are in schema.graphql; move into lib/documents.ts at merge.
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

export const MemoriesQuery = /* GraphQL */ `
  query WebMemories($workspaceId: ID!) {
    workspace(id: $workspaceId) {
      id
      memories(first: 100) {
        edges {
          node {
            id subject content kind scope origin status createdAt
            sources { id text createdAt }
            versions { id content status createdAt }
          }
        }
      }
    }
  }
`;
export type MemoriesResult = { workspace: { id: string; memories: { edges: { node: MemoryView }[] } } };

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
