// The object types of the schema, declared by name and backing type only. Each is implemented in
// its own file under ./types; a type file imports the refs of the types its fields point at from
// here, never from another type file, so types that point at each other (a task and its workspace,
// a message and its route's task) need no import cycle.
import type { EgressHostRow } from '../services/egress/manage-hosts.ts';
import type { RemoteAgentRow } from '../services/a2a/remote-agents.ts';
import type { ScheduleRow, ScheduleRunRow } from '../services/schedules/list-schedules.ts';
import type { FollowUpRow } from '../services/follow-ups/list-follow-ups.ts';
import type { DerivationRow } from '../services/objects/derivations.ts';
import type { Impact } from '../domain/production-graph.ts';
import type {
  Card,
  ChangeNotice,
  GenerationJob,
  InboxItem,
  Message,
  MemoryEvidence,
  RouteDecision,
  Task,
  Thread,
  ToolCall,
  User,
  Workspace,
  WorkspaceObject,
  WorkspaceSettings,
} from '../db/generated/client.ts';
import type { Viewer } from '../auth/viewer.ts';
import type { Checklist, ChecklistItem } from '../domain/checklist.ts';
import type { TaskCost, WorkspaceCostSummary } from '../services/costs/get-costs.ts';
import type { EventRow } from '../services/events/event-view.ts';
import type { ApprovalOrQuestion } from '../services/approvals/load-approvals.ts';
import type { LedgerDay } from '../services/ledger/ledger-by-day.ts';
import type { LedgerSummary } from '../services/ledger/task-ledger.ts';
import type { MemoryUseView, MemoryView, ProfileView, VersionView } from '../services/memory/browse-memories.ts';
import type { RetrievedEpisode } from '../services/memory/episodes.ts';
import type { Delivery } from '../services/messages/message-details.ts';
import type { ForgetWorkView } from '../services/memory/works.ts';
import type { ReadableVersion, Withheld } from '../services/objects/object-versions.ts';
import type { ModelInfo, ProcessRow, RuntimeInfo } from '../services/runtime/describe-runtime.ts';
import type { TaskLine } from '../services/tasks/task-line.ts';
import type { ForkPoint } from '../services/tasks/task-forks.ts';
import type { DeliveryRow, EndpointRow } from '../services/webhooks/list-webhooks.ts';
import type { McpPin, McpServerView, PinnedTool } from '../services/mcp/list-servers.ts';
import type { McpServerVersion } from '../db/generated/client.ts';
import type { AgentPrincipalView } from '../services/agents/list-agents.ts';
import type { PrincipalChangeRow } from '../services/agents/list-agents.ts';
import type { StepWithCalls, TurnWithSteps } from '../services/tasks/task-journal.ts';
import { builder } from './builder.ts';

// Shapes stored as JSON on their rows, as the API reads them.
export type RouteCandidate = { taskId: string; title: string; score: number };
export type CardOption = { id: string; label: string; taskId: string | null; action: string };
export type ApprovalReason = { code: string; message: string };
export type ApprovalOption = { id: string; label: string; objectId?: string | null; taskId?: string | null };
// A stored file with the workspace it belongs to (set by the parent resolver): its signed URL names both.
export type GeneratedFile = { mime: string; bytes: number; width?: number; height?: number; path: string; workspaceId: string };
export type ObjectFile = { path: string; mime: string; bytes: number; width?: number; height?: number; workspaceId: string };
export type ObjectAuthor = { kind: 'USER' | 'AGENT' | 'SYSTEM'; userId: string | null; taskId: string | null };
export type EventActor = { kind: EventRow['actorKind']; id: string | null; workerId?: string | null; workspaceId?: string; version?: number | null; run?: string | null };
export type PayloadRef = { hash: string; size: number; schema: string };

// People and places.
export const UserRef = builder.objectRef<User>('User');
export const ViewerRef = builder.objectRef<Viewer>('Viewer');
export const WorkspaceRef = builder.objectRef<Workspace>('Workspace');
export const WorkspaceSettingsRef = builder.objectRef<WorkspaceSettings>('WorkspaceSettings');
export const WorkspaceCostSummaryRef = builder.objectRef<WorkspaceCostSummary>('WorkspaceCostSummary');

// The main thread and routing.
export const ThreadRef = builder.objectRef<Thread>('Thread');
export const MessageRef = builder.objectRef<Message>('Message');
export const MessageDeliveryRef = builder.objectRef<Delivery>('MessageDelivery');
export const RouteDecisionRef = builder.objectRef<RouteDecision>('RouteDecision');
export const RouteCandidateRef = builder.objectRef<RouteCandidate>('RouteCandidate');
export const CardRef = builder.objectRef<Card>('Card');
export const CardOptionRef = builder.objectRef<CardOption>('CardOption');

// Tasks, their log and their journal.
export const TaskRef = builder.objectRef<Task>('Task');
export const TaskLineRef = builder.objectRef<TaskLine>('TaskLine');
export const TaskForkPointRef = builder.objectRef<ForkPoint>('TaskForkPoint');
// An interface: one object type per event type implements it (types/task-event-kinds.ts).
export const TaskEventRef = builder.interfaceRef<EventRow>('TaskEvent');
export const EventToolCallRef = builder.objectRef<{ id: string; name: string }>('EventToolCall');
export const EventFileRef = builder.objectRef<{ mime: string; bytes: number }>('EventFile');
export const EventActorRef = builder.objectRef<EventActor>('EventActor');
export const PayloadRefRef = builder.objectRef<PayloadRef>('PayloadRef');
export const TurnRef = builder.objectRef<TurnWithSteps>('Turn');
export const StepRef = builder.objectRef<StepWithCalls>('Step');
export const ToolCallRef = builder.objectRef<ToolCall>('ToolCall');
export const InboxItemRef = builder.objectRef<InboxItem>('InboxItem');
export const ChecklistRef = builder.objectRef<Checklist>('Checklist');
export const ChecklistItemRef = builder.objectRef<ChecklistItem>('ChecklistItem');
export const TaskCostRef = builder.objectRef<TaskCost>('TaskCost');

// Generations and money.
export const GenerationJobRef = builder.objectRef<GenerationJob>('GenerationJob');
export const GeneratedFileRef = builder.objectRef<GeneratedFile>('GeneratedFile');
export const LedgerSummaryRef = builder.objectRef<LedgerSummary>('LedgerSummary');
export const LedgerDayRef = builder.objectRef<LedgerDay>('LedgerDay');

// Approvals.
export const ApprovalRef = builder.objectRef<ApprovalOrQuestion>('Approval');
export const ApprovalReasonRef = builder.objectRef<ApprovalReason>('ApprovalReason');
export const ApprovalOptionRef = builder.objectRef<ApprovalOption>('ApprovalOption');

// The shared workspace.
export const WorkspaceObjectRef = builder.objectRef<WorkspaceObject>('WorkspaceObject');
export const ObjectVersionRef = builder.objectRef<ReadableVersion>('ObjectVersion');
/** Content read as withheld because what it relied on was forgotten (store/sealing). */
export const WithheldRef = builder.objectRef<{ reason: 'FORGOTTEN_MEMORY'; message: string }>('Withheld');
export const ObjectVersionWithheldRef = builder.objectRef<Withheld>('ObjectVersionWithheld');
export const ObjectAuthorRef = builder.objectRef<ObjectAuthor>('ObjectAuthor');
export const ObjectFileRef = builder.objectRef<ObjectFile>('ObjectFile');
export const ChangeNoticeRef = builder.objectRef<ChangeNotice>('ChangeNotice');

// Long-term memory.
export const MemoryRef = builder.objectRef<MemoryView>('Memory');
export const MemoryVersionRef = builder.objectRef<VersionView>('MemoryVersion');
export const MemoryCitationRef = builder.objectRef<VersionView['links'][number]>('MemoryCitation');
export const MemoryEvidenceRef = builder.objectRef<MemoryEvidence>('MemoryEvidence');
export const MemoryUseRef = builder.objectRef<MemoryUseView>('MemoryUse');
export const MemoryEpisodeRef = builder.objectRef<RetrievedEpisode>('MemoryEpisode');
export const ForgetWorkRef = builder.objectRef<ForgetWorkView>('ForgetWork');
export const MemoryProfileRef = builder.objectRef<ProfileView>('MemoryProfile');
export const MemoryProfileEntryRef = builder.objectRef<ProfileView['entries'][number]>('MemoryProfileEntry');

// The runtime serving the API.
export const RuntimeInfoRef = builder.objectRef<RuntimeInfo>('RuntimeInfo');
export const ModelInfoRef = builder.objectRef<ModelInfo>('ModelInfo');
export const RuntimeProcessRef = builder.objectRef<ProcessRow>('RuntimeProcess');

// Webhooks.
export const WebhookEndpointRef = builder.objectRef<EndpointRow>('WebhookEndpoint');
export const WebhookSigningSecretRef = builder.objectRef<EndpointRow['secrets'][number]>('WebhookSigningSecret');
export const WebhookDeliveryRef = builder.objectRef<DeliveryRow>('WebhookDelivery');
export const WebhookDeliveryAttemptRef = builder.objectRef<DeliveryRow['attemptLog'][number]>('WebhookDeliveryAttempt');

// MCP servers (tools from other apps).
export const McpServerRef = builder.objectRef<McpServerView>('McpServer');
export const EgressHostRef = builder.objectRef<EgressHostRow>('EgressHost');
// What a change to some steps of a plan would do to the rest.
export const PlanImpactRef = builder.objectRef<Impact>('PlanImpact');
export const StaleStepRef = builder.objectRef<Impact['stale'][number]>('StaleStep');
// What an object version was made from (object dependencies).
export const ObjectDerivationRef = builder.objectRef<DerivationRow>('ObjectDerivation');
// Remote A2A agents the workspace's agent may delegate to.
export const RemoteAgentRef = builder.objectRef<RemoteAgentRow>('RemoteAgent');
// Schedules: messages and tasks that run later, once or again and again.
export const ScheduleRef = builder.objectRef<ScheduleRow>('Schedule');
export const ScheduleRunRef = builder.objectRef<ScheduleRunRow>('ScheduleRun');
// Follow-ups: wakes the agent asked for (follow_up_at).
export const FollowUpRef = builder.objectRef<FollowUpRow>('FollowUp');
export const McpToolRef = builder.objectRef<{ tool: PinnedTool; server: McpServerView }>('McpTool');
export const McpServerChangeRef = builder.objectRef<McpServerVersion>('McpServerChange');
export const McpPinnedVersionRef = builder.objectRef<McpPin>('McpPinnedVersion');
export const McpPendingChangeRef = builder.objectRef<{ server: McpServerView; observed: McpPin }>('McpPendingChange');

// Agent principals (who the agent acts as, with which rights).
export const AgentPrincipalRef = builder.objectRef<AgentPrincipalView>('AgentPrincipal');
export const AgentPrincipalChangeRef = builder.objectRef<PrincipalChangeRow>('AgentPrincipalChange');
export const EventAgentRef = builder.objectRef<{ id: string; version: number | null }>('EventAgent');
