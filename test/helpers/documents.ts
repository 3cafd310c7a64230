// The GraphQL documents the tests use, typed by GraphQL Code Generator (npm run codegen).
import { graphql } from '../gql/index.ts';

export const ViewerQuery = graphql(`
  query Viewer {
    viewer {
      user { id name }
      scopes
      workspaces { id name slug viewerRole }
    }
  }
`);

export const CreateTask = graphql(`
  mutation CreateTask($input: CreateTaskInput!) {
    createTask(input: $input) { task { id title status lastEventSeq isTerminal } }
  }
`);

export const SignalTask = graphql(`
  mutation SignalTask($input: SignalTaskInput!) {
    signalTask(input: $input) { task { id status statusReason lastEventSeq isTerminal endedAt } }
  }
`);

export const UpdateTask = graphql(`
  mutation UpdateTask($input: UpdateTaskInput!) {
    updateTask(input: $input) { task { id title summary lastEventSeq } }
  }
`);

export const TaskQuery = graphql(`
  query Task($id: ID!) {
    task(id: $id) { id title status lastEventSeq workspace { id } }
  }
`);

export const TaskEventsPage = graphql(`
  query TaskEventsPage($id: ID!, $after: Int, $first: Int) {
    task(id: $id) {
      id
      lastEventSeq
      events(after: $after, first: $first) {
        pageInfo { hasNextPage endCursor }
        edges { cursor node { seq type payload redacted } }
      }
    }
  }
`);

export const WorkspaceTasks = graphql(`
  query WorkspaceTasks($id: ID!, $first: Int, $after: String) {
    workspace(id: $id) {
      id
      tasks(first: $first, after: $after) {
        pageInfo { hasNextPage endCursor }
        edges { cursor node { id title } }
      }
    }
  }
`);

export const NodeQuery = graphql(`
  query Node($id: ID!) {
    node(id: $id) {
      id
      __typename
      ... on Task { title }
      ... on Workspace { name }
    }
  }
`);

export const NodesQuery = graphql(`
  query Nodes($ids: [ID!]!) {
    nodes(ids: $ids) { id __typename }
  }
`);

export const TaskEventsSub = graphql(`
  subscription TaskEventsSub($taskId: ID!, $after: Int) {
    taskEvents(taskId: $taskId, after: $after) {
      seq
      type
      cursor
      redacted
      payload
      actor { kind }
      task { id }
    }
  }
`);

export const WorkspaceEventsSub = graphql(`
  subscription WorkspaceEventsSub($workspaceId: ID, $after: String) {
    workspaceEvents(workspaceId: $workspaceId, after: $after) {
      seq
      type
      cursor
      payload
      task { id }
    }
  }
`);

export const RuntimeInfoQuery = graphql(`
  query RuntimeInfo {
    viewer { runtime { model { provider offline workerModel description } tools embeddingModel } }
  }
`);

export const TaskJournal = graphql(`
  query TaskJournal($id: ID!) {
    task(id: $id) {
      status
      turns {
        number
        status
        generation
        steps { index message model toolCalls { id name status attempts result error } }
      }
      inbox { kind signal text consumedStep }
    }
  }
`);

export const SendMessage = graphql(`
  mutation SendMessage($input: SendMessageInput!) {
    sendMessage(input: $input) {
      duplicate
      message { id text language delivery { state step } }
      route { outcome method reason indexSize task { id title } candidates { title score task { id } } }
      task { id title status }
      card { id prompt status options { id label action task { id } } }
      reply { id text }
    }
  }
`);

export const WithdrawMessage = graphql(`
  mutation WithdrawMessage($messageId: ID!) {
    withdrawMessage(messageId: $messageId) { message { id text delivery { state } } }
  }
`);

export const ReplaceMessage = graphql(`
  mutation ReplaceMessage($messageId: ID!, $text: String!) {
    replaceMessage(messageId: $messageId, text: $text) { message { id text } }
  }
`);

export const ManageTasks = graphql(`
  mutation ArchiveTask($taskId: ID!) { archiveTask(taskId: $taskId) { task { id archivedAt } } }
`);
export const PromoteTask = graphql(`
  mutation PromoteTask($taskId: ID!) { promoteTask(taskId: $taskId) { task { id kind } } }
`);
export const MergeTasks = graphql(`
  mutation MergeTasks($source: ID!, $target: ID!) { mergeTasks(sourceTaskId: $source, targetTaskId: $target) { task { id title } } }
`);
export const RerouteMessage = graphql(`
  mutation RerouteMessage($messageId: ID!, $taskId: ID!) {
    rerouteMessage(messageId: $messageId, taskId: $taskId) { message { id route { outcome method reason task { id } } delivery { state } } }
  }
`);
export const TaskKindList = graphql(`
  query TaskKindList($id: ID!, $lw: Boolean) {
    workspace(id: $id) { tasks(first: 100, includeLightweight: $lw) { edges { node { id kind title } } } }
  }
`);

export const TaskJobs = graphql(`
  query TaskJobs($id: ID!) {
    task(id: $id) {
      status
      jobs { kind status progress quoteCents files { mime name width height } }
      ledger { heldCents chargedCents releasedCents outstandingCents }
    }
  }
`);
