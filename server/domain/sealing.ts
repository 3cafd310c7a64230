// Sealed text: the crypto-shredding half of forgetting (the design is in server/README.md,
// "Forgetting what was derived"). Pure: no I/O; keys are passed in.
//
// A sealed value is a JSON value whose content strings were each replaced by
//   ⟦sealed:v1:<key id>:<base64url(iv ‖ tag ‖ ciphertext)>⟧   (AES-256-GCM, 12-byte random IV)
// Structure stays readable — object keys, numbers, booleans, nulls, ids and the few structural
// strings a reader needs to fold the log (a type, a status, a tool's name) — so the log can be
// folded, replayed and paged even after a key is gone. Invariants:
//  - sealing is idempotent (a sealed string is never sealed again) and deterministic in shape;
//  - opening with the key returns exactly the original value;
//  - opening without it (the key destroyed) returns the same shape with every sealed string
//    replaced by WITHHELD_TEXT, and says so — never ciphertext, never an exception.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export type DataKeyMaterial = { id: string; material: Buffer };
/** What a reader knows of a key: its material, or null when it was destroyed (and why). */
export type KnownKey = { material: Buffer | null; reason: string | null };

const PREFIX = '⟦sealed:v1:';
const SUFFIX = '⟧';
const SEALED = /^⟦sealed:v1:([0-9a-f-]{36}):([A-Za-z0-9_-]+)⟧$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** What a reader sees in place of content whose key was destroyed. */
export const WITHHELD_TEXT = '[withheld: this relied on something you asked Atelier to forget]';

/** Keys whose string values are structure, not content: never sealed. */
const STRUCTURAL_KEYS = new Set([
  'id', 'type', 'kind', 'status', 'tool', 'callId', 'modelCallId', 'role', 'schema', 'safety', 'outcome', 'code',
  'language', 'mode', 'stage', 'model', 'provider', 'phase', 'key', 'requestDigest', 'hash', 'mime', 'currency',
  'autonomy', 'redaction', 'severity', 'unit', 'format', 'reasonCode', 'from', 'to', 'via',
  'transition', 'decision', 'how', 'signal', 'choice', 'where', 'role',
  // A checklist step's edges name other steps by id: structure (a forgetting must not cut the graph).
  'after',
]);

/**
 * Whether an event's payload is sealed under the task's key. A person's own words (a signal, added
 * context, an edit of the task, a decision on a card) are theirs, not derived from memory, and stay
 * readable — except where a person's action carries the task's derived content along: a checklist
 * (its items are the agent's) and a work's events (its name may be).
 */
export function sealsEvent(e: { type: string; actor: { kind: string } }): boolean {
  if (NEVER_DERIVED.has(e.type)) return false;
  return e.actor.kind !== 'USER' || /^(CHECKLIST_|OBJECT_)/.test(e.type);
}

/**
 * Events whose payload is only the system's own bookkeeping (ids, numbers, fixed phrases) or the
 * person's message as it arrived (chat history): nothing in them can have come from memory.
 */
const NEVER_DERIVED = new Set([
  'TURN_STARTED', 'TOOL_CALL_STARTED', 'TOOL_CALL_DENIED', 'MODEL_CALL', 'MEMORY_UNAVAILABLE', 'JOB_SUBMITTED', 'TASK_LANGUAGE_CHANGED', 'TASK_LIMITS_CHANGED',
  'MESSAGE_RECEIVED', 'MESSAGE_WITHDRAWN', 'MESSAGE_REROUTED', 'MESSAGE_REPLACED',
]);
const STRUCTURAL_SUFFIX = /(Id|Ids|At|Key|Kind|Status|Type|Code|Hash|Digest)$/;

export const isSealedText = (s: string): boolean => s.startsWith(PREFIX) && s.endsWith(SUFFIX);

function structural(key: string | null, parentKey: string | null, value: string): boolean {
  if (UUID.test(value)) return true;
  if (key === null) return false;
  if (STRUCTURAL_KEYS.has(key) || STRUCTURAL_SUFFIX.test(key)) return true;
  // A tool call's name (in a decision's toolCalls) is which tool ran, not what it was told.
  return key === 'name' && parentKey === 'toolCalls';
}

export function sealText(key: DataKeyMaterial, plain: string): string {
  if (isSealedText(plain)) return plain;
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key.material, iv);
  const ct = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return `${PREFIX}${key.id}:${Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url')}${SUFFIX}`;
}

/** The plaintext, or null when this key cannot open it (wrong key, or the text was tampered with). */
export function openText(material: Buffer, sealed: string): string | null {
  const m = SEALED.exec(sealed);
  if (!m) return null;
  const raw = Buffer.from(m[2]!, 'base64url');
  if (raw.length < 28) return null;
  try {
    const d = createDecipheriv('aes-256-gcm', material, raw.subarray(0, 12));
    d.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([d.update(raw.subarray(28)), d.final()]).toString('utf8');
  } catch {
    return null;
  }
}

/** The key id a sealed string names, or null for plain text. */
export function sealedKeyId(s: string): string | null {
  return isSealedText(s) ? (SEALED.exec(s)?.[1] ?? null) : null;
}

/** Seals every content string of a JSON value under the key (structure stays readable). */
export function sealValue<T>(key: DataKeyMaterial, value: T): T {
  return walk(value, null, null, (s, k, parent) => (structural(k, parent, s) ? s : sealText(key, s))) as T;
}

/** Every key id the value's sealed strings name. */
export function sealedKeyIds(value: unknown, into: Set<string> = new Set()): Set<string> {
  walk(value, null, null, (s) => {
    const id = sealedKeyId(s);
    if (id) into.add(id);
    return s;
  });
  return into;
}

export type Opened<T> = { value: T; withheld: { reason: string } | null };

/**
 * Opens every sealed string with the known keys. A string whose key is destroyed or unknown reads
 * WITHHELD_TEXT, and the result says it was withheld (with the first reason found).
 */
export function openValue<T>(keys: ReadonlyMap<string, KnownKey>, value: T): Opened<T> {
  let withheld: { reason: string } | null = null;
  const out = walk(value, null, null, (s) => {
    const id = sealedKeyId(s);
    if (!id) return s;
    const k = keys.get(id);
    const plain = k?.material ? openText(k.material, s) : null;
    if (plain !== null) return plain;
    withheld ??= { reason: k?.reason ?? 'FORGOTTEN' };
    return WITHHELD_TEXT;
  }) as T;
  return { value: out, withheld };
}

function walk(v: unknown, key: string | null, parentKey: string | null, f: (s: string, key: string | null, parentKey: string | null) => string): unknown {
  if (typeof v === 'string') return f(v, key, parentKey);
  if (Array.isArray(v)) {
    let changed = false;
    const out = v.map((x) => {
      const y = walk(x, key, parentKey, f);
      if (y !== x) changed = true;
      return y;
    });
    return changed ? out : v;
  }
  if (v && typeof v === 'object' && !(v instanceof Date) && !Buffer.isBuffer(v)) {
    let changed = false;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
      // Inside an array, an element's fields have the array's key as parent (toolCalls[i].name).
      const y = walk(x, k, key, f);
      if (y !== x) changed = true;
      out[k] = y;
    }
    return changed ? out : v;
  }
  return v;
}

/** 32 fresh random bytes for a new data key. */
export const newKeyMaterial = (): Buffer => randomBytes(32);
