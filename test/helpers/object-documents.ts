// GraphQL documents of the shared workspace tests (typed by codegen like documents.ts).
import { graphql } from '../gql/index.ts';

export const CreateObject = graphql(`
  mutation CreateObject($input: CreateObjectInput!) {
    createObject(input: $input) { replayed summary object { id kind name currentVersion } version { version summary author { kind } } }
  }
`);

export const UpdateObject = graphql(`
  mutation UpdateObject($input: UpdateObjectInput!) {
    updateObject(input: $input) { replayed summary object { id currentVersion } version { version markdown summary author { kind user { id } } } }
  }
`);

export const EditDocument = graphql(`
  mutation EditDocument($input: EditDocumentInput!) {
    editDocument(input: $input) { summary object { id currentVersion } version { version markdown } }
  }
`);

export const EditFlow = graphql(`
  mutation EditFlow($input: EditFlowInput!) {
    editFlow(input: $input) { summary changedByOthers object { id currentVersion } version { version content nodeVersions } }
  }
`);

export const DeleteObject = graphql(`
  mutation DeleteObject($objectId: ID!) {
    deleteObject(objectId: $objectId) { approvalId approvalStatus title object { id deletedAt } }
  }
`);

export const ObjectNode = graphql(`
  query ObjectNode($id: ID!) {
    node(id: $id) {
      ... on WorkspaceObject {
        id kind name currentVersion deletedAt content
        current { version markdown }
        version(n: 1) { version markdown author { kind } }
        versions(first: 50) { edges { node { version summary author { kind task { id } user { id } } } } }
        referencedBy { id }
      }
    }
  }
`);

export const WorkspaceObjects = graphql(`
  query WorkspaceObjects($id: ID!, $kind: ObjectKind) {
    workspace(id: $id) { objects(first: 50, kind: $kind) { edges { node { id kind name currentVersion } } } }
  }
`);

export const TaskObjects = graphql(`
  query TaskObjects($id: ID!) {
    task(id: $id) {
      objects { id kind currentVersion current { file { mime bytes } provenance } }
      changeNotices { fromVersion toVersion summary consumedAt consumedStep object { id } }
      jobs { id status asset { id kind currentVersion } }
    }
  }
`);

export const ObjectChanges = graphql(`
  subscription ObjectChanges($workspaceId: ID!, $after: String) {
    objectChanges(workspaceId: $workspaceId, after: $after) { cursor position kind objectId versionNumber version { version summary } }
  }
`);

export const ObjectChangesWithObject = graphql(`
  subscription ObjectChangesWithObject($workspaceId: ID!) {
    objectChanges(workspaceId: $workspaceId) { versionNumber object { currentVersion } }
  }
`);
