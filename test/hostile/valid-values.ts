// Valid values for every argument and input field: real ids of the seeded objects, and the values a
// successful call would use. The sweep starts from these and changes one position at a time.
import { isEnumType, isInputObjectType, isListType, isNonNullType, type GraphQLInputType } from 'graphql';
import { agent, checklistVersion, mcp, schedule, seeds } from './state.ts';

let serial = 0;

/** A key no request used before (the valid value of every idempotencyKey). */
export const freshIdempotencyKey = () => `hostile-${++serial}`;
const OWN_KEY = /^hostile-\d+$/;

/**
 * The same variables with a fresh key wherever one of ours stands as an idempotencyKey (a hostile
 * value standing there is kept): for sending the same request again as a new one. Changes them in place.
 */
export function withFreshKeys(variables: Record<string, unknown>): Record<string, unknown> {
  const walk = (v: unknown, depth: number) => {
    if (depth > 6 || v === null || typeof v !== 'object' || (!Array.isArray(v) && Object.getPrototypeOf(v) !== Object.prototype)) return;
    for (const [k, x] of Object.entries(v)) {
      if (/^idempotencykey$/i.test(k) && typeof x === 'string' && OWN_KEY.test(x)) (v as Record<string, unknown>)[k] = freshIdempotencyKey();
      else walk(x, depth + 1);
    }
  };
  walk(variables, 0);
  return variables;
}

/** The kind of object an id argument names, by argument name ("id"/"ids": by the field's type). */
export const ID_KINDS: Record<string, string> = {
  workspaceid: 'Workspace',
  taskid: 'Task',
  sourcetaskid: 'Task',
  targettaskid: 'Task2',
  messageid: 'Message',
  objectid: 'WorkspaceObject',
  objectids: 'WorkspaceObject',
  approvalid: 'Approval',
  memoryid: 'Memory',
  evidenceid: 'MemoryEvidence',
  cardid: 'Card',
  endpointid: 'WebhookEndpoint',
  deliveryid: 'WebhookDelivery',
  serverid: 'McpServer',
  entryid: 'EgressHost',
  remoteagentid: 'RemoteAgent',
  agentid: 'AgentPrincipal',
  parentid: 'AgentPrincipal',
  scheduleid: 'Schedule',
  followupid: 'FollowUp',
};

export function idKind(coord: string, name: string, fieldType?: string): string {
  const override: Record<string, string> = { 'EditFlowInput.objectId': 'Flow', 'Mutation.rerouteMessage.taskId': 'Task2', 'RedactWorksInput.approvalId': 'ForgetApproval' };
  if (override[coord]) return override[coord]!;
  if (name === 'id' || name === 'ids') return fieldType === 'Node' ? 'Task' : fieldType!;
  const kind = ID_KINDS[name.toLowerCase()];
  if (!kind) throw new Error(`No valid id for ${coord}: say which kind of object "${name}" names in ID_KINDS`);
  return kind;
}

export function validId(coord: string, name: string, fieldType?: string): string {
  const kind = idKind(coord, name, fieldType);
  const id = seeds[kind];
  if (!id) throw new Error(`No seeded ${kind} for ${coord}`);
  return id;
}

/** Values a successful call would use, by "Type.field" (input fields) or "Type.field.arg" (arguments). */
function validOverrides(): Record<string, () => unknown> {
  return {
    'FindReplaceInput.find': () => 'hello',
    // No work held the forgotten value: choosing none is the valid choice (and may be repeated).
    'RedactWorksInput.objectIds': () => [],
    'FindReplaceInput.replace': () => 'hi',
    'CreateObjectInput.kind': () => 'DOCUMENT',
    'CreateObjectInput.content': () => ({ markdown: 'hello world' }),
    'UpdateObjectInput.content': () => ({ markdown: 'hello again' }),
    'UpdateObjectInput.baseVersion': () => 1,
    'EditFlowInput.ops': () => [{ op: 'add_node', node: { id: `n${++serial}`, kind: 'note' } }],
    'EditChecklistInput.baseVersion': () => checklistVersion,
    'ChecklistItemInput.title': () => 'Draft the poster',
    'SignalTaskInput.signal': () => 'PAUSE',
    'ResolveApprovalInput.decision': () => 'REJECT',
    'AnswerCardInput.optionId': () => 'new',
    'CorrectMemoryInput.value': () => 'Berlin',
    'Mutation.archiveTask.archived': () => true,
    'UpdateTaskInput.title': () => 'Autumn poster, final',
    'CreateWebhookEndpointInput.url': () => 'https://example.com/hooks/atelier',
    // A real MCP server (registration connects to it); a new short name for every registration.
    'RegisterMcpServerInput.url': () => mcp.url,
    'RegisterMcpServerInput.slug': () => `h${++serial}`,
    'AllowEgressHostInput.host': () => 'tools.example.com',
    // Naming no step is a valid question (nothing would change).
    'Task.planImpact.changed': () => [],
    // Registering reaches nothing (the card is verified at each delegation): any https address and key URL.
    'RegisterRemoteAgentInput.name': () => `r${++serial}`,
    'RegisterRemoteAgentInput.url': () => 'https://agents.example.com',
    'RegisterRemoteAgentInput.jwksUrl': () => 'https://agents.example.com/.well-known/jwks.json',
    'UpdateMcpServerInput.baseVersion': () => mcp.version,
    // A sub-agent needs a new name and less than its parent (the main agent) holds.
    'CreateAgentPrincipalInput.name': () => `agent ${++serial}`,
    'CreateAgentPrincipalInput.scopes': () => ['tasks:write'],
    // The main agent keeps its name: a valid change that spends no version.
    'UpdateAgentPrincipalInput.name': () => 'Atelier',
    'UpdateAgentPrincipalInput.baseVersion': () => agent.version,
    // A schedule says when: a weekly cron (ALSO_SET) in the workspace's zone; an update names the version seen.
    'CreateScheduleInput.cron': () => '0 9 * * 1',
    'UpdateScheduleInput.expectedVersion': () => schedule.version,
  };
}

/** Optional input fields a valid call needs anyway (an update with nothing to update is refused). */
const ALSO_SET: Record<string, string[]> = { UpdateTaskInput: ['title'], SendMessageInput: ['text'], CreateObjectInput: ['title'], UpdateWebhookEndpointInput: ['description'], RegisterMcpServerInput: ['url'], UpdateMcpServerInput: ['title'], UpdateAgentPrincipalInput: ['name'], RegisterRemoteAgentInput: ['jwksUrl'], CreateScheduleInput: ['cron'], UpdateScheduleInput: ['title'] };

export function validValue(type: GraphQLInputType, coord: string, name: string, fieldType?: string): unknown {
  const o = validOverrides()[coord];
  if (o) return o();
  if (isNonNullType(type)) return validValue(type.ofType, coord, name, fieldType);
  if (isListType(type)) return [validValue(type.ofType, coord, name, fieldType)];
  if (isInputObjectType(type)) {
    const value: Record<string, unknown> = {};
    for (const f of Object.values(type.getFields())) {
      const needed = (isNonNullType(f.type) && f.defaultValue === undefined) || ALSO_SET[type.name]?.includes(f.name);
      if (needed) value[f.name] = validValue(f.type, `${type.name}.${f.name}`, f.name);
    }
    return value;
  }
  if (isEnumType(type)) return type.getValues()[0]!.value;
  switch (type.name) {
    case 'ID':
      return validId(coord, name, fieldType);
    case 'String':
      return /idempotency/i.test(name) ? freshIdempotencyKey() : 'hostile test';
    case 'Int':
      return 1;
    case 'Float':
      return 1;
    case 'Boolean':
      return false;
    case 'DateTime':
      return new Date().toISOString();
    case 'JSON':
      return {};
    default:
      throw new Error(`No valid value for ${coord} of type ${type.name}: add the scalar to validValue`);
  }
}
