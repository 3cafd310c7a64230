// Every kind of event a task's log can hold, and who cares about it. Pure data: the append path
// accepts only these types (NewEvent.type), the API exposes them as an enum with one object type
// each, and filters (queries, subscriptions, webhooks) select by type and visibility.
//
// Invariant: a type, once stored, is never removed from this list (old logs must stay readable);
// a renamed concept gets a new type.

/** MILESTONE: what a person following the work cares about. DETAIL: the runtime's internals. */
export type EventVisibility = 'MILESTONE' | 'DETAIL';

/**
 * One typed field of an event's payload: [its GraphQL type, a description, where it sits in the
 * payload when not under its own name (a dotted path)]. Types: scalars (String, Int, Float, Boolean,
 * JSON), `ID:<Type>` (the referenced object's global id), an enum's name, or `[<Object>]` (a list
 * of a shared object type).
 *
 * Invariant: a field name means one thing across all event types — the same GraphQL type
 * everywhere — or a client selecting it from two event types in one query would be refused
 * (fields of one name must merge). So a task kind is `taskKind`, an approval's `approvalKind`, ….
 */
export type PayloadField = readonly [type: string, description: string, path?: string];
export type EventSpec = { visibility: EventVisibility; about: string; fields: Readonly<Record<string, PayloadField>> };

export const EVENT_CATALOG = {
  // The task itself
  TASK_CREATED: { visibility: 'MILESTONE', about: 'The task was created (from a message, by hand, or as the next round of earlier work).', fields: { title: ['String', 'The title it was created with.'], goal: ['String', 'What the work is for, as given.'], status: ['TaskStatus', 'Its status when created.'], taskKind: ['TaskKind', 'Whether it is a quick answer or work that lasts.', 'kind'], language: ['String', 'The language the agent answers in (BCP 47), when known.'], messageId: ['ID:Message', 'The message that started it, when a message did.'] } },
  TASK_UPDATED: { visibility: 'MILESTONE', about: 'The task\'s title, summary or input policy changed.', fields: { title: ['String', 'The new title, when it changed.'], summary: ['String', 'The new summary, when it changed.'], inputPolicy: ['String', 'The new input policy, when it changed.'] } },
  TASK_STATUS_CHANGED: { visibility: 'MILESTONE', about: 'The task moved from one status to another.', fields: { from: ['TaskStatus', 'The status before.'], to: ['TaskStatus', 'The status after.'], transition: ['TaskTransition', 'What moved it.'], reason: ['String', 'Why, in a sentence, when one was given.'] } },
  TASK_DELIVERED: { visibility: 'MILESTONE', about: 'The agent delivered the work of this round.', fields: { jobId: ['ID:GenerationJob', 'The generation whose result completed the work.'], summary: ['String', 'What was delivered, in a sentence.'] } },
  TASK_LANGUAGE_CHANGED: { visibility: 'DETAIL', about: 'The language the agent answers in changed.', fields: { previousLanguage: ['String', 'The language before (BCP 47).', 'from'], language: ['String', 'The language the agent answers in now (BCP 47).'] } },
  TASK_LIMITS_CHANGED: { visibility: 'DETAIL', about: 'The task\'s budget cap or approved budget changed.', fields: { budgetCapCents: ['Int', 'The new hard cap in cents (null: none), when it changed.'], approvedBudgetCents: ['Int', 'The new approved budget in cents, when it changed.'] } },
  TASK_MERGED: { visibility: 'MILESTONE', about: 'This task was merged into another one.', fields: { intoTaskId: ['ID:Task', 'The task this one was merged into.', 'into'], movedMessages: ['Int', 'How many unread messages moved there.'] } },
  TASK_MERGED_IN: { visibility: 'MILESTONE', about: 'Another task was merged into this one.', fields: { fromTaskId: ['ID:Task', 'The task merged into this one.', 'from'], title: ['String', 'Its title.'], summary: ['String', 'Its summary.'], movedMessages: ['Int', 'How many unread messages moved here.'] } },
  TASK_PROMOTED: { visibility: 'DETAIL', about: 'A conversation became a task of its own.', fields: { reason: ['String', 'Why it became a task of its own.'] } },
  TASK_ARCHIVED: { visibility: 'MILESTONE', about: 'The task was archived.', fields: {} },
  TASK_UNARCHIVED: { visibility: 'MILESTONE', about: 'The task was taken out of the archive.', fields: {} },
  // Messages and signals from people
  MESSAGE_RECEIVED: { visibility: 'MILESTONE', about: 'A person\'s message reached the task.', fields: { messageId: ['ID:Message', 'The message.'], inboxItemId: ['ID:InboxItem', 'Where it waits for the agent.'], text: ['String', 'What the person wrote.'], rerouted: ['Boolean', 'True when it was moved here from another task.'], inputPolicy: ['String', 'The input policy the message came with (null: the task\'s own).'] } },
  MESSAGE_WITHDRAWN: { visibility: 'MILESTONE', about: 'A message was withdrawn before the agent acted on it.', fields: { messageId: ['ID:Message', 'The withdrawn message.'] } },
  MESSAGE_REPLACED: { visibility: 'MILESTONE', about: 'A message was replaced by a corrected one.', fields: { messageId: ['ID:Message', 'The corrected message.'], previous: ['String', 'Its text before.'], text: ['String', 'Its text now.'] } },
  MESSAGE_REROUTED: { visibility: 'MILESTONE', about: 'A message was moved to another task.', fields: { messageId: ['ID:Message', 'The message.'], toTaskId: ['ID:Task', 'The task it moved to.', 'to'], wasRead: ['Boolean', 'Whether the agent had already read it here.'] } },
  SIGNAL_RECEIVED: { visibility: 'DETAIL', about: 'A signal (pause, resume, revise, cancel, …) reached the task.', fields: { signal: ['TaskSignal', 'Which signal.'], text: ['String', 'The instruction that came with it, if any.'] } },
  // The agent's turns
  TURN_STARTED: { visibility: 'DETAIL', about: 'A worker began a turn of the agent on this task.', fields: { turn: ['Int', 'The turn number (1, 2, …).'], generation: ['Int', 'How many workers have held this turn; above 1 after a takeover.'], takeover: ['Boolean', 'True when a worker took the turn over from one that stopped.'] } },
  TURN_ENDED: { visibility: 'DETAIL', about: 'The agent\'s turn ended.', fields: { turn: ['Int', 'The turn number.'], outcome: ['TurnOutcome', 'How the turn ended.'], summary: ['String', 'What was delivered, when the turn completed the task.'] } },
  STEP_DECIDED: { visibility: 'DETAIL', about: 'The model decided the next step (text and tool calls).', fields: { turn: ['Int', 'The turn number.'], step: ['Int', 'The step within the turn (0, 1, …).'], message: ['String', 'What the model said (at most 2,000 characters).'], toolCalls: ['[EventToolCall]', 'The tool calls it decided on.'] } },
  MODEL_CALL: { visibility: 'DETAIL', about: 'A model call: which model, tokens and cost.', fields: { turn: ['Int', 'The turn number.'], step: ['Int', 'The step within the turn.'], model: ['String', 'Which model answered.'], costCents: ['Float', 'What the call cost, in cents.'], inputTokens: ['Int', 'Tokens sent.', 'usage.inputTokens'], outputTokens: ['Int', 'Tokens received.', 'usage.outputTokens'] } },
  TOOL_CALL_STARTED: { visibility: 'DETAIL', about: 'A tool call started: the attempt as the audit trail keeps it — which agent (the event\'s actor), in which run, with which right, and its parameters (text replaced by a hash and a length).', fields: { callId: ['ID:ToolCall', 'The tool call.'], tool: ['String', 'The tool\'s name.'], run: ['String', 'The run that made the attempt (<turn>:<generation>).'], allowed: ['Boolean', 'The policy\'s decision (true: the call was allowed to start).', 'decision.allowed'], rule: ['String', 'The policy rule that decided.', 'decision.rule'], scope: ['String', 'The right the call needed.', 'decision.scope'], params: ['JSON', 'The call\'s parameters, sanitised: every text is a hash and its length.'] } },
  TOOL_CALL_DENIED: { visibility: 'MILESTONE', about: 'The agent tried a tool it may not use: the call was refused before anything happened, and the agent was told why.', fields: { callId: ['ID:ToolCall', 'The tool call.'], tool: ['String', 'The tool\'s name.'], run: ['String', 'The run that made the attempt (<turn>:<generation>).'], allowed: ['Boolean', 'Always false: the policy refused the call.', 'decision.allowed'], rule: ['String', 'The policy rule that refused it.', 'decision.rule'], scope: ['String', 'The right the call needed, when it names one.', 'decision.scope'], reason: ['String', 'Why, in a sentence.'], params: ['JSON', 'The call\'s parameters, sanitised: every text is a hash and its length.'], denials: ['Int', 'How many times this tool was refused in the task so far (a person is asked from the second on).'] } },
  TOOL_CALL_DONE: { visibility: 'DETAIL', about: 'A tool call finished.', fields: { callId: ['ID:ToolCall', 'The tool call.'], tool: ['String', 'The tool\'s name.'], result: ['JSON', 'What the tool returned (its own shape, described by the tool).'] } },
  TOOL_CALL_FAILED: { visibility: 'DETAIL', about: 'A tool call failed.', fields: { callId: ['ID:ToolCall', 'The tool call.'], tool: ['String', 'The tool\'s name.'], error: ['String', 'What went wrong, in a sentence.'] } },
  TOOL_CALL_OUTCOME_UNKNOWN: { visibility: 'DETAIL', about: 'A tool call was interrupted; whether it took effect is unknown.', fields: { callId: ['ID:ToolCall', 'The tool call.'], tool: ['String', 'The tool\'s name.'], error: ['String', 'Why the outcome is unknown.'] } },
  TURN_INTERRUPTED: { visibility: 'MILESTONE', about: 'A person\'s instruction with the INTERRUPT or ROLLBACK input policy arrived while the task ran: the calls of the running step that had not started were skipped (nothing already started was undone) and the agent decided again with the instruction first; ROLLBACK also ended the turn and dropped the skipped calls from what the agent reads.', fields: { turn: ['Int', 'The turn number.'], policy: ['String', 'INTERRUPT or ROLLBACK.'], inboxItemId: ['ID:InboxItem', 'The inbox item of the instruction.'], skipped: ['JSON', 'The ids of the tool calls skipped.'], tools: ['JSON', 'Their tools\' names.'] } },
  TOOL_PROGRESS: { visibility: 'DETAIL', about: 'A long tool call (of an MCP server) reported progress.', fields: { callId: ['ID:ToolCall', 'The tool call.'], tool: ['String', 'The tool\'s name.'], progress: ['Float', 'How far it is: 0 to 1 when the server gives a total, else the server\'s own count.'], message: ['String', 'What the server said about its progress, if anything.'] } },
  TOOL_TASK_STARTED: { visibility: 'DETAIL', about: 'A long tool call runs as a task of its MCP server; the task\'s id is kept so that a worker taking over follows that task instead of calling the tool again.', fields: { callId: ['ID:ToolCall', 'The tool call.'], tool: ['String', 'The tool\'s name.'], mcpTask: ['String', 'The MCP server\'s own name for the task (its task id there, not an id of this API).'] } },
  MCP_SERVER_QUARANTINED: { visibility: 'MILESTONE', about: 'An MCP server this task used changed its tools or version; its tools are set aside until an owner approves the change.', fields: { tool: ['String', 'The tool the task was about to use, if a call found the change.'], reason: ['String', 'What changed, in a sentence.'] } },
  REMOTE_AGENT_ANSWERED: { visibility: 'MILESTONE', about: 'A remote A2A agent a step was handed to (answering by callback) sent its answer: it reached the task as a message, or, when the task had ended, is kept here.', fields: { agent: ['String', 'The remote agent\'s registered name.'], remoteTask: ['String', 'The remote agent\'s own name for its task (its task id there, not an id of this API).'], state: ['RemoteTaskState', 'How the remote task ended, or that it needs input.'], text: ['String', 'Its words, and the addresses of its artifacts.'], callId: ['ID:ToolCall', 'The tool call that handed the step over.'], inboxItemId: ['ID:InboxItem', 'Where the answer waits for the agent; none when the task had ended.'] } },
  EGRESS_DENIED: { visibility: 'MILESTONE', about: 'An outbound call was refused by the egress gate: the host is not on the workspace\'s list of allowed hosts, a redirect led elsewhere, or the name resolved to an internal address.', fields: { host: ['String', 'The host the call was to reach.'], port: ['Int', 'The port it was to reach.'], rule: ['String', 'Which rule refused it: not-listed, private-address, redirect-not-allowed or not-http.'], reason: ['String', 'Why, in a sentence.'], tool: ['String', 'The tool whose call was refused, for a tool call.'], server: ['String', 'The MCP server the call was for, if one.'], webhookEndpointId: ['ID:WebhookEndpoint', 'The webhook endpoint a delivery was for, for a webhook.'] } },
  CONTINUATION_DECIDED: { visibility: 'DETAIL', about: 'The runtime decided whether the agent goes on, waits or ends.', fields: { turn: ['Int', 'The turn number, when a turn decided.'], decision: ['ContinuationDecision', 'What happens next.'], reason: ['String', 'Why, in a sentence.'], jobId: ['ID:GenerationJob', 'The generation whose end led to the decision, if one did.'] } },
  NOTE: { visibility: 'DETAIL', about: 'A note the agent wrote for itself.', fields: { text: ['String', 'The note.'] } },
  CHECKLIST_UPDATED: { visibility: 'MILESTONE', about: 'The task\'s checklist changed.', fields: { version: ['Int', 'The checklist\'s version after the change.'], reason: ['String', 'Why it changed.'], items: ['[ChecklistItem]', 'Every step, as it is now.'] } },
  MEMORY_UNAVAILABLE: { visibility: 'DETAIL', about: 'Long-term memory could not be read for this step.', fields: { cause: ['MemoryUnavailableReason', 'Whether reading memory timed out or failed.', 'reason'], timeoutMs: ['Int', 'The time allowed, for a timeout.'], effect: ['String', 'What the agent does without it.'] } },
  // Decisions people take
  APPROVAL_REQUESTED: { visibility: 'MILESTONE', about: 'The agent asks a person to decide (a card).', fields: { approvalId: ['ID:Approval', 'The card; answer it with resolveApproval.'], approvalKind: ['ApprovalKind', 'What kind of decision it asks for.', 'kind'], title: ['String', 'The question, as the person reads it.'], quoteCents: ['Int', 'What saying yes costs, in cents, when it costs.'], reasons: ['[ApprovalReason]', 'Why a person must decide.'], options: ['[ApprovalOption]', 'The choices, for a card that offers some.'] } },
  APPROVAL_RESOLVED: { visibility: 'MILESTONE', about: 'A card was answered, withdrawn or superseded.', fields: { approvalId: ['ID:Approval', 'The card.'], approvalKind: ['ApprovalKind', 'What kind of decision it asked for.', 'kind'], approvalStatus: ['ApprovalStatus', 'How it ended.', 'status'], note: ['String', 'What the person added, or why it was set aside.'], choice: ['String', 'The option picked, for a card with options.'], title: ['String', 'The card\'s question, when it was superseded.'] } },
  // Works
  OBJECT_CREATED: { visibility: 'MILESTONE', about: 'A work (poster, video, scene, document) was created.', fields: { objectId: ['ID:WorkspaceObject', 'The work.'], objectKind: ['ObjectKind', 'What kind of work.', 'kind'], title: ['String', 'Its title.', 'name'], version: ['Int', 'Its first version (1).'] } },
  OBJECT_UPDATED: { visibility: 'MILESTONE', about: 'A new version of a work was saved.', fields: { objectId: ['ID:WorkspaceObject', 'The work.'], objectKind: ['ObjectKind', 'What kind of work.', 'kind'], title: ['String', 'Its title.', 'name'], fromVersion: ['Int', 'The version it was based on.'], version: ['Int', 'The new version.'], summary: ['String', 'What changed, in a sentence.'] } },
  // Media generation
  JOB_SUBMITTED: { visibility: 'MILESTONE', about: 'A generation job was handed to the provider.', fields: { jobId: ['ID:GenerationJob', 'The generation job.'], jobStatus: ['GenerationJobStatus', 'The job\'s status.', 'status'], error: ['String', 'What went wrong, if anything.'] } },
  JOB_SUBMISSION_UNKNOWN: { visibility: 'DETAIL', about: 'Whether the provider received a job is not known yet; it is being checked.', fields: { jobId: ['ID:GenerationJob', 'The generation job.'], jobStatus: ['GenerationJobStatus', 'The job\'s status.', 'status'], error: ['String', 'Why it is not known.'] } },
  JOB_PROGRESS: { visibility: 'DETAIL', about: 'A generation job reported progress.', fields: { jobId: ['ID:GenerationJob', 'The generation job.'], jobStatus: ['GenerationJobStatus', 'The job\'s status.', 'status'], progress: ['Float', 'How far it is, 0 to 1.'] } },
  JOB_SUCCEEDED: { visibility: 'MILESTONE', about: 'A generation job finished with a result.', fields: { jobId: ['ID:GenerationJob', 'The generation job.'], jobStatus: ['GenerationJobStatus', 'The job\'s status.', 'status'], progress: ['Float', 'How far it is, 0 to 1.'], files: ['[EventFile]', 'The files it made (their type and size; the work holds them).'] } },
  JOB_FAILED: { visibility: 'MILESTONE', about: 'A generation job failed.', fields: { jobId: ['ID:GenerationJob', 'The generation job.'], jobStatus: ['GenerationJobStatus', 'The job\'s status.', 'status'], error: ['String', 'What went wrong.'] } },
  RESULT_REUSED: { visibility: 'MILESTONE', about: 'A step reused an earlier result: its inputs (prompt, reference, source versions) were unchanged, so nothing was ordered or charged.', fields: { jobId: ['ID:GenerationJob', 'The generation job whose result was reused.'], objectId: ['ID:WorkspaceObject', 'The result reused.'], quoteCents: ['Int', 'What ordering it again would have cost (saved).'] } },
  JOB_CANCELLED: { visibility: 'MILESTONE', about: 'A generation job was cancelled.', fields: { jobId: ['ID:GenerationJob', 'The generation job.'], jobStatus: ['GenerationJobStatus', 'The job\'s status.', 'status'], error: ['String', 'Why it was cancelled.'] } },
} as const satisfies Record<string, EventSpec>;

export type EventType = keyof typeof EVENT_CATALOG;
export const EVENT_TYPES = Object.keys(EVENT_CATALOG) as EventType[];

export const isEventType = (t: string): t is EventType => Object.hasOwn(EVENT_CATALOG, t);

export const specOf = (type: EventType): EventSpec => EVENT_CATALOG[type];

export function visibilityOf(type: string): EventVisibility {
  return isEventType(type) ? EVENT_CATALOG[type].visibility : 'DETAIL';
}

/** The types a filter selects: the given types (all when absent) that have one of the given visibilities. */
export function selectedTypes(filter: { types?: readonly EventType[] | null; visibility?: readonly EventVisibility[] | null }): EventType[] | null {
  if (!filter.types?.length && !filter.visibility?.length) return null;
  const base = filter.types?.length ? filter.types : EVENT_TYPES;
  const vis = filter.visibility?.length ? new Set(filter.visibility) : null;
  return [...new Set(base)].filter((t) => !vis || vis.has(EVENT_CATALOG[t].visibility));
}
