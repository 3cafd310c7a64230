// Every GraphQL document of the web app, typed by GraphQL Code Generator (web/gql, `npm run codegen`).
import { graphql } from '../gql';

export const ViewerDoc = graphql(`
  query WebViewer {
    viewer {
      user { id name email }
      scopes
      workspaces { id name slug viewerRole }
      runtime { model { description offline } }
    }
  }
`);

export const ThreadDoc = graphql(`
  query WebThread($workspaceId: ID!) {
    workspace(id: $workspaceId) {
      id
      mainThread {
        id
        messages(last: 60) {
          edges {
            node {
              id
              role
              text
              createdAt
              delivery { state step }
              route { outcome method reason superseded task { id title kind status } }
              approval { id kind title status choice options { id label task { id title } } }
            }
          }
        }
      }
    }
  }
`);

export const TasksDoc = graphql(`
  query WebTasks($workspaceId: ID!) {
    workspace(id: $workspaceId) {
      id
      tasks(first: 50) {
        edges {
          node {
            id
            title
            status
            statusReason
            kind
            isTerminal
            round
            forkedFrom { step }
            updatedAt
            lastEventSeq
            ledger { chargedCents heldCents outstandingCents }
            checklist { done total }
            jobs { id status }
            approvals(first: 5, statuses: [PENDING]) { edges { node { id kind title } } }
          }
        }
      }
    }
  }
`);

export const ApprovalFields = graphql(`
  fragment WebApproval on Approval {
    id
    kind
    title
    status
    choice
    note
    quoteCents
    action
    createdAt
    resolvedAt
    reasons { code message }
    options { id label objectId }
  }
`);

export const TaskDoc = graphql(`
  query WebTask($id: ID!) {
    task(id: $id) {
      id
      title
      goal
      summary
      status
      statusReason
      kind
      isTerminal
      lastEventSeq
      budgetCapCents
      approvedBudgetCents
      createdAt
      updatedAt
      ledger { chargedCents heldCents releasedCents outstandingCents }
      jobs { id kind status progress prompt quoteCents error createdAt completedAt files { name mime width height bytes } asset { id } }
      approvals(first: 30) { edges { node { ...WebApproval } } }
      round
      rounds { ...WebRound }
      language
      objects { id kind title currentVersion updatedAt current { markdown } }
      followUps(statuses: [PENDING]) { id reason dueAt wakeAt deferred status }
      ...WebForkLine
      forks { ...WebForkLine }
      forkedFrom { step stepTitle edit pickLabel instead seq task { ...WebForkLine forks { ...WebForkLine } } }
    }
  }
`);

/** One line of a task's directions: the original or a fork, with its results and what it cost. */
export const ForkLineFields = graphql(`
  fragment WebForkLine on Task {
    id
    title
    status
    cost { totalCents }
    checklist { items { id title kind count status artifacts } }
    jobs { id kind status progress prompt quoteCents error createdAt completedAt files { name mime width height bytes } asset { id } }
    forkedFrom { step stepTitle edit pickLabel }
  }
`);

/** “Try a different direction from here”: a fork of the task from one of its steps. */
export const ForkTaskDoc = graphql(`
  mutation WebForkTask($input: ForkTaskInput!) {
    forkTask(input: $input) { task { id title } }
  }
`);

/** Cancel a pending follow-up of the agent (the task panel's Cancel). */
export const CancelFollowUpDoc = graphql(`
  mutation WebCancelFollowUp($input: CancelFollowUpInput!) {
    cancelFollowUp(input: $input) { followUp { id status } }
  }
`);

/** A round of a line of work, with its results (the task panel shows the earlier rounds). */
export const RoundFields = graphql(`
  fragment WebRound on Task {
    id
    round
    goal
    status
    statusReason
    summary
    endedAt
    jobs { id kind status prompt createdAt files { name mime width height } asset { id } }
    checklist { items { id title kind count status artifacts } }
  }
`);

export const TaskEventsDoc = graphql(`
  query WebTaskEvents($id: ID!, $after: Int, $first: Int) {
    task(id: $id) {
      id
      events(after: $after, first: $first) {
        edges { node { seq type occurredAt redacted payload actor { kind user { name } } } }
        pageInfo { hasNextPage }
      }
    }
  }
`);

export const TaskEventsSub = graphql(`
  subscription WebTaskEventsLive($taskId: ID!, $after: Int) {
    taskEvents(taskId: $taskId, after: $after) { seq type occurredAt redacted payload actor { kind user { name } } }
  }
`);

export const WorkspaceEventsSub = graphql(`
  subscription WebWorkspaceEvents($workspaceId: ID, $after: String) {
    workspaceEvents(workspaceId: $workspaceId, after: $after) { cursor seq type payload task { id } }
  }
`);

/** A question of the thread answered: the message it asked about is routed by the option picked. */
export const AnswerQuestionDoc = graphql(`
  mutation WebAnswerQuestion($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) {
      approval { id status choice message { id route { outcome reason task { id title } } } }
    }
  }
`);

export const SendMessageDoc = graphql(`
  mutation WebSendMessage($input: SendMessageInput!) {
    sendMessage(input: $input) {
      duplicate
      message { id }
      reply { id text }
      route { outcome reason task { id title } }
      task { id title }
      approval { id }
    }
  }
`);

export const RerouteDoc = graphql(`
  mutation WebReroute($messageId: ID!, $taskId: ID!) {
    rerouteMessage(messageId: $messageId, taskId: $taskId) { message { id route { outcome task { id title } } } }
  }
`);

export const ResolveApprovalDoc = graphql(`
  mutation WebResolveApproval($input: ResolveApprovalInput!) {
    resolveApproval(input: $input) { approval { ...WebApproval } }
  }
`);

export const SignalDoc = graphql(`
  mutation WebSignal($input: SignalTaskInput!) {
    signalTask(input: $input) { task { id status statusReason } }
  }
`);

export const SettingsDoc = graphql(`
  query WebSettings($workspaceId: ID!) {
    workspace(id: $workspaceId) {
      id
      name
      viewerRole
      settings { autonomy perActionFreeCents dailyFreeCents taskBudgetCapCents atBudgetCap timeZone followUpsEnabled quietFromMinute quietToMinute version updatedAt }
      ledgerByDay(days: 7) { day chargedCents heldCents onHoldCents releasedCents }
    }
  }
`);

export const UpdateSettingsDoc = graphql(`
  mutation WebUpdateSettings($input: UpdateWorkspaceSettingsInput!) {
    updateWorkspaceSettings(input: $input) { settings { autonomy perActionFreeCents dailyFreeCents taskBudgetCapCents atBudgetCap timeZone followUpsEnabled quietFromMinute quietToMinute version updatedAt } }
  }
`);

export const MemoriesDoc = graphql(`
  query WebMemories($workspaceId: ID!) {
    workspace(id: $workspaceId) {
      id
      memories(first: 100) {
        edges {
          node {
            id
            subjectKey
            content
            kind
            scope
            origin
            status
            createdAt
            evidence { evidence { id excerpt occurredAt status } }
            versions { number content value status validFrom }
          }
        }
      }
    }
  }
`);

export const CorrectMemoryDoc = graphql(`
  mutation WebCorrectMemory($input: CorrectMemoryInput!) {
    correctMemory(input: $input) { memory { id content } }
  }
`);

export const ForgetMemoryDoc = graphql(`
  mutation WebForgetMemory($input: ForgetMemoryInput!) {
    forgetMemory(input: $input) { approval { ...WebApproval } }
  }
`);

export const ForgetEvidenceDoc = graphql(`
  mutation WebForgetEvidence($input: ForgetEvidenceInput!) {
    forgetEvidence(input: $input) { approval { ...WebApproval } }
  }
`);

export const ObjectCardFields = graphql(`
  fragment WebObjectCard on WorkspaceObject {
    id
    kind
    title
    currentVersion
    updatedAt
    current { file { name url mime width height } provenance }
  }
`);

export const ObjectDetailFields = graphql(`
  fragment WebObjectDetail on WorkspaceObject {
    ...WebObjectCard
    content
    current { markdown }
    versions(first: 50) { edges { node { version createdAt summary author { kind user { name } task { title } } } } }
  }
`);

export const ObjectsDoc = graphql(`
  query WebObjects($workspaceId: ID!, $kind: ObjectKind) {
    workspace(id: $workspaceId) {
      id
      objects(kind: $kind, first: 60) { edges { node { ...WebObjectCard } } }
    }
  }
`);

export const ObjectDoc = graphql(`
  query WebObject($id: ID!) {
    node(id: $id) {
      __typename
      ... on WorkspaceObject { ...WebObjectDetail }
    }
  }
`);

export const UpdateObjectDoc = graphql(`
  mutation WebUpdateObject($input: UpdateObjectInput!) {
    updateObject(input: $input) { object { id currentVersion content } }
  }
`);

// Tools from other apps (MCP servers): the settings page's list and the owner's changes.
export const McpServerFields = graphql(`
  fragment WebMcpServer on McpServer {
    id
    slug
    title
    transport
    url
    command
    trust
    status
    quarantineReason
    version
    hasAuthSecret
    priceCentsPerCall
    pinnedVersion { serverName serverVersion }
    tools { toolName title description allowed safety destructive needsApproval priceCents overridden }
    pendingChange { serverVersion changedTools summary approval { id status } }
    history { version change createdAt actor { name } }
  }
`);

export const McpServersDoc = graphql(`
  query WebMcpServers($workspaceId: ID!) {
    workspace(id: $workspaceId) { id mcpServers { ...WebMcpServer } }
  }
`);

export const RegisterMcpServerDoc = graphql(`
  mutation WebRegisterMcpServer($input: RegisterMcpServerInput!) {
    registerMcpServer(input: $input) { server { ...WebMcpServer } }
  }
`);

export const UpdateMcpServerDoc = graphql(`
  mutation WebUpdateMcpServer($input: UpdateMcpServerInput!) {
    updateMcpServer(input: $input) { server { ...WebMcpServer } }
  }
`);

export const RemoveMcpServerDoc = graphql(`
  mutation WebRemoveMcpServer($input: RemoveMcpServerInput!) {
    removeMcpServer(input: $input) { removedServerId }
  }
`);

export const RefreshMcpServerDoc = graphql(`
  mutation WebRefreshMcpServer($input: RefreshMcpServerInput!) {
    refreshMcpServer(input: $input) { server { ...WebMcpServer } }
  }
`);

// What the agent may do, and where the workspace's outbound calls may go (settings, owners change).
export const AgentAccessDoc = graphql(`
  query WebAgentAccess($workspaceId: ID!) {
    workspace(id: $workspaceId) { id agents { id name isMain scopes version } }
  }
`);

export const EgressHostsDoc = graphql(`
  query WebEgressHosts($workspaceId: ID!) {
    workspace(id: $workspaceId) { id settings { egressHosts { id address source note } } }
  }
`);

export const UpdateAgentScopesDoc = graphql(`
  mutation WebUpdateAgentScopes($input: UpdateAgentPrincipalInput!) {
    updateAgentPrincipal(input: $input) { agent { id scopes version } }
  }
`);

export const AllowEgressHostDoc = graphql(`
  mutation WebAllowEgressHost($input: AllowEgressHostInput!) {
    allowEgressHost(input: $input) { entry { id } }
  }
`);

export const RevokeEgressHostDoc = graphql(`
  mutation WebRevokeEgressHost($input: RevokeEgressHostInput!) {
    revokeEgressHost(input: $input) { entry { id } }
  }
`);

// Schedules: messages and tasks that run later (the /schedules page).
export const ScheduleFields = graphql(`
  fragment WebSchedule on Schedule {
    id kind title text cron runAt timeZone description budgetCapCents paused nextRunAt lastRunAt version
    createdBy { id name }
    runs { slotAt missedSlots task { id title } }
  }
`);

export const SchedulesDoc = graphql(`
  query WebSchedules($workspaceId: ID!) {
    viewer { user { id } }
    workspace(id: $workspaceId) { id settings { timeZone } schedules { ...WebSchedule } }
  }
`);

export const CreateScheduleDoc = graphql(`
  mutation WebCreateSchedule($input: CreateScheduleInput!) {
    createSchedule(input: $input) { schedule { ...WebSchedule } }
  }
`);

export const UpdateScheduleDoc = graphql(`
  mutation WebUpdateSchedule($input: UpdateScheduleInput!) {
    updateSchedule(input: $input) { schedule { ...WebSchedule } }
  }
`);

export const PauseScheduleDoc = graphql(`
  mutation WebPauseSchedule($input: PauseScheduleInput!) {
    pauseSchedule(input: $input) { schedule { ...WebSchedule } }
  }
`);

export const ResumeScheduleDoc = graphql(`
  mutation WebResumeSchedule($input: ResumeScheduleInput!) {
    resumeSchedule(input: $input) { schedule { ...WebSchedule } }
  }
`);

export const DeleteScheduleDoc = graphql(`
  mutation WebDeleteSchedule($input: DeleteScheduleInput!) {
    deleteSchedule(input: $input) { deletedScheduleId }
  }
`);
