// Idempotency keys of client requests. A key names one request: its first use records a
// fingerprint (operation, caller, normalised input); a retry with the same request passes and the
// operation's own deduplication returns the recorded result; the same key with a different request
// is refused with IDEMPOTENCY_KEY_REUSED and changes nothing. Keys are scoped per workspace, user and
// operation, so two people (or two kinds of mutation) never collide.
//
// Keys the server writes itself (`approval:<id>`, `reply:<id>`, tool call ids, …) share columns
// with clients' keys in some tables; a client's key is stored as `client:<key>` there, so a client
// can never address (or be answered with) a record the server made.
import { createHash } from 'node:crypto';
import type { PrismaClient, Tx } from '../db/client.ts';
import { AppError } from '../errors.ts';

export type IdempotencyClaim = {
  workspaceId: string;
  userId: string;
  operation: string;
  key: string;
  fingerprint: string;
};

/** The stored form of a client's key in tables the server also writes keys to. */
export const clientKey = (key: string): string => `client:${key}`;

/** JSON with sorted keys and without undefined/null members: equal requests, equal text. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined && v !== null)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value instanceof Date ? value.toISOString() : value) ?? 'null';
}

/** A claim for `key` by this request; `request` is the validated input without the key itself. */
export function idempotencyClaim(args: { workspaceId: string; userId: string; operation: string; key: string; request: unknown }): IdempotencyClaim {
  const fingerprint = createHash('sha256').update(`${args.operation}\n${args.userId}\n${canonical(args.request)}`).digest('hex');
  return { workspaceId: args.workspaceId, userId: args.userId, operation: args.operation, key: args.key, fingerprint };
}

export class IdempotencyKeyReused extends AppError {
  constructor(operation: string) {
    super(
      'IDEMPOTENCY_KEY_REUSED',
      `This idempotency key was already used for a different ${operation} request; use a new key for a new request`,
      { operation },
    );
    this.name = 'IdempotencyKeyReused';
  }
}
export const isIdempotencyKeyReused = (e: unknown): e is IdempotencyKeyReused => e instanceof IdempotencyKeyReused;

/**
 * The fingerprint recorded at the key's first use (empty before it). Invariant: one fingerprint
 * per (workspace, user, operation, key) — the primary key.
 */
export function readFingerprint(db: PrismaClient | Tx, claim: IdempotencyClaim): Promise<{ fingerprint: string }[]> {
  return db.$queryRawUnsafe<{ fingerprint: string }[]>(
    `SELECT fingerprint FROM idempotency_records
      WHERE workspace_id = $1::uuid AND user_id = $2::uuid AND operation = $3 AND key = $4`,
    claim.workspaceId,
    claim.userId,
    claim.operation,
    claim.key,
  );
}

/**
 * Records the key's first use; returns the key when this call recorded it, nothing when it was
 * already recorded. Invariant: first use wins — a committed fingerprint never changes.
 */
export function insertFirstUse(tx: Tx, claim: IdempotencyClaim): Promise<{ key: string }[]> {
  return tx.$queryRawUnsafe<{ key: string }[]>(
    `INSERT INTO idempotency_records (workspace_id, user_id, operation, key, fingerprint)
     VALUES ($1::uuid, $2::uuid, $3, $4, $5)
     ON CONFLICT (workspace_id, user_id, operation, key) DO NOTHING RETURNING key`,
    claim.workspaceId,
    claim.userId,
    claim.operation,
    claim.key,
    claim.fingerprint,
  );
}

/** Throws IdempotencyKeyReused when the key was recorded for a different request (read-only). */
export async function checkIdempotencyKey(db: PrismaClient | Tx, claim: IdempotencyClaim): Promise<void> {
  const rows = await readFingerprint(db, claim);
  if (rows[0] && rows[0].fingerprint !== claim.fingerprint) throw new IdempotencyKeyReused(claim.operation);
}

/**
 * Records the key inside the transaction of the request's effect (so a request that fails leaves no
 * record), or confirms that the recorded request is this one. A concurrent first use of the same
 * key waits on the primary key until the other transaction ends, then compares.
 */
export async function recordIdempotencyKey(tx: Tx, claim: IdempotencyClaim): Promise<void> {
  const inserted = await insertFirstUse(tx, claim);
  if (!inserted[0]) await checkIdempotencyKey(tx, claim);
}

/** The claim of a validated input that may carry `idempotencyKey` (null when it carries none). */
export function claimOf(
  operation: string,
  who: { workspaceId: string; userId: string },
  input: { idempotencyKey?: string | null } & Record<string, unknown>,
): IdempotencyClaim | null {
  const { idempotencyKey, ...request } = input;
  if (!idempotencyKey) return null;
  return idempotencyClaim({ ...who, operation, key: idempotencyKey, request });
}
