// Ids inside what the API returns as text and JSON. The server stores and the agent works with raw
// keys (a task's summary links `object:<uuid>`, a tool call's result carries `jobId`, a collection
// lists `items[].objectId`); a client sees only global ids, the ones it can pass back to any argument
// and to node(id). This is the one translation at the boundary, both ways: out, every raw key in a
// place that names a row becomes that row's global id; in, a client's JSON that names rows (a
// collection's items, a provenance's job) must carry global ids, which become raw keys again — a raw
// key or garbage there is BAD_USER_INPUT naming the field, like any id argument.
import { badInput } from '../errors.ts';
import { decodeLenient, globalId } from './ids.ts';

const UUID_SRC = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const UUID = new RegExp(`^${UUID_SRC}$`);

/** The type of row a JSON key names when it holds a raw key (`jobId: "<uuid>"`). */
const KEY_TYPES: Record<string, string> = {
  objectId: 'WorkspaceObject',
  objectIds: 'WorkspaceObject',
  assetId: 'WorkspaceObject',
  referenceId: 'WorkspaceObject',
  startImageId: 'WorkspaceObject',
  taskId: 'Task',
  taskIds: 'Task',
  sourceTaskId: 'Task',
  targetTaskId: 'Task',
  previousRoundId: 'Task',
  nextRoundId: 'Task',
  mergedIntoId: 'Task',
  jobId: 'GenerationJob',
  jobIds: 'GenerationJob',
  approvalId: 'Approval',
  approvalIds: 'Approval',
  cardId: 'Approval',
  memoryId: 'Memory',
  memoryIds: 'Memory',
  evidenceId: 'MemoryEvidence',
  evidenceIds: 'MemoryEvidence',
  messageId: 'Message',
  messageIds: 'Message',
  userId: 'User',
  resolvedById: 'User',
  authorUserId: 'User',
  workspaceId: 'Workspace',
  threadId: 'Thread',
  toolCallId: 'ToolCall',
  callId: 'ToolCall',
  stepId: 'Step',
  noticeId: 'ChangeNotice',
  inboxItemId: 'InboxItem',
  agentId: 'AgentPrincipal',
};

/** The type a reference in text names by its prefix (`object:<uuid>`, `job <uuid>`). */
const PREFIX_TYPES: Record<string, string> = {
  object: 'WorkspaceObject',
  asset: 'WorkspaceObject',
  job: 'GenerationJob',
  task: 'Task',
  approval: 'Approval',
  card: 'Approval',
  memory: 'Memory',
  evidence: 'MemoryEvidence',
  message: 'Message',
  call: 'ToolCall',
};

/** A tool call's key: `<turn uuid>:<step>:<call>`, stable across retries. */
const CALL_KEY = new RegExp(`^${UUID_SRC}:\\d+:\\d+$`);
const PREFIXED = new RegExp(`\\b(${Object.keys(PREFIX_TYPES).join('|')})([: ])(${UUID_SRC}(?::\\d+:\\d+)?)`, 'gi');
const BARE_CALL_KEY = new RegExp(`\\b${UUID_SRC}:\\d+:\\d+\\b`, 'g');

/** A run of the agent as stored: `<turn uuid>:<generation>`. */
const RUN_KEY = new RegExp(`^(${UUID_SRC}):(\\d+)$`);

/**
 * A run as a client reads it: an opaque id (`Run` + the stored key, like a global id) — the same
 * run reads the same everywhere (event actors, attempts, cards), and no raw key shows.
 */
export function publicRun(run: string): string {
  return RUN_KEY.test(run) ? globalId('Run', run.toLowerCase()) : publicText(run);
}

/** A raw key as the global id of its row, the type told by where it stands. */
function asGlobal(type: string, key: string): string {
  if (CALL_KEY.test(key)) return globalId('ToolCall', key.toLowerCase());
  return globalId(type, UUID.test(key) ? key.toLowerCase() : key);
}

/**
 * Text as a client reads it: every reference to a row (`object:<uuid>`, `[Poster 1](object:<uuid>)`,
 * `job <uuid>`, a tool call's `<uuid>:0:1`) carries the row's global id instead of its raw key.
 * The words around it stay as they are.
 */
export function publicText(text: string): string {
  if (!text || !/[0-9a-fA-F]{8}-/.test(text)) return text;
  return text
    .replace(PREFIXED, (_m, prefix: string, sep: string, key: string) => `${prefix}${sep}${asGlobal(PREFIX_TYPES[prefix.toLowerCase()]!, key)}`)
    .replace(BARE_CALL_KEY, (key) => asGlobal('ToolCall', key));
}

/**
 * A JSON value as a client reads it: a raw key under a key that names a row (`objectId`, `jobIds`,
 * `toolCallId`…) becomes the row's global id, and every other string is read as text
 * (`publicText`). Structure, numbers and every other value stay as they are.
 */
export function publicJson<T>(value: T): T {
  return walkOut(value, null) as T;
}

function walkOut(v: unknown, key: string | null): unknown {
  if (typeof v === 'string') {
    if (key === 'run') return publicRun(v);
    const type = key ? KEY_TYPES[key] : undefined;
    if (type && (UUID.test(v) || CALL_KEY.test(v))) return asGlobal(type, v);
    return publicText(v);
  }
  if (Array.isArray(v)) return v.map((x) => walkOut(x, key));
  if (v && typeof v === 'object' && !(v instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v)) out[k] = walkOut(x, k);
    return out;
  }
  return v;
}

/** A global id a client gave inside JSON, as the raw key of a row of `type`; anything else is refused. */
export function keyOf(value: unknown, type: string, field: string): string {
  const d = typeof value === 'string' ? decodeLenient(value) : null;
  if (!d || !UUID.test(d.id)) throw badInput(`${field} is not a valid id`, { field });
  if (d.typename !== type) throw badInput(`${field} must be the id of a ${type}`, { field });
  return d.id.toLowerCase();
}

/**
 * Object content a client sent (createObject, updateObject), with the rows it names as raw keys:
 * a collection's `items[].objectId`, a media provenance's `jobId` and `taskId` (told by the shape,
 * which only those kinds have). Each must be the global id of its kind (`field` names the argument
 * in the refusal); everything else is left to the content's own validation.
 */
export function contentIn(content: unknown, field: string): unknown {
  if (!content || typeof content !== 'object' || Array.isArray(content)) return content;
  const c = content as Record<string, unknown>;
  if (Array.isArray(c.items)) {
    return {
      ...c,
      items: c.items.map((item, i) =>
        item && typeof item === 'object' && 'objectId' in item
          ? { ...(item as object), objectId: keyOf((item as { objectId: unknown }).objectId, 'WorkspaceObject', `${field}.items.${i}.objectId`) }
          : item,
      ),
    };
  }
  if (c.provenance && typeof c.provenance === 'object' && !Array.isArray(c.provenance)) {
    const p = { ...(c.provenance as Record<string, unknown>) };
    for (const [k, type] of [
      ['jobId', 'GenerationJob'],
      ['taskId', 'Task'],
    ] as const) {
      if (p[k] !== undefined && p[k] !== null) p[k] = keyOf(p[k], type, `${field}.provenance.${k}`);
    }
    return { ...c, provenance: p };
  }
  return content;
}
