// The keys that sign the agents' run credentials (ES256 JWTs, runtime/run-credentials.ts): one
// current key per workspace, and the deployment's own (workspaceId null), which signs the A2A agent
// card. Invariants:
//  - At most one current key (retired_at null) per owner: the database holds it (a partial unique
//    index, migration signing_keys). Creation is INSERT … ON CONFLICT DO NOTHING followed by a read
//    of the current key, so workers creating or rotating at once all end up with the one key that
//    won; none fails and none signs with a key that lost.
//  - A retired key keeps verifying until expires_at = retired_at + MAX_CREDENTIAL_LIFETIME_MS (every
//    credential it signed has expired by then); from that instant it leaves the JWKS and verifies
//    nothing. The private half is never used again after retirement.
//  - The private JWK is stored only sealed (../secret-box.ts, bound to its kid) and never leaves this
//    process: the JWKS and the API carry public keys only.
//  - The kid is the RFC 7638 thumbprint of the public key, so kid → public key never changes: the
//    imported keys are cached by kid without ever going stale. Whether a key is still accepted is
//    not cached; verification asks the database (runCredentialStanding).
//  - Every statement names the workspace (workspace_id = $1) or the deployment (workspace_id IS NULL).
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type CryptoKey, type JWK } from 'jose';
import { rawQuery, type Db } from '../../db/client.ts';
import type { TaskStatus } from '../../domain/task-status.ts';
import { openSecret, sealSecret } from '../secret-box.ts';

export type SigningKey = { kid: string; alg: 'ES256'; privateKey: CryptoKey; publicJwk: JWK };

/** No run credential lives longer; a retired key verifies for this long after its retirement. */
export const MAX_CREDENTIAL_LIFETIME_MS = 10 * 60_000;
/** A current key older than this is retired and replaced when it is next used (ATELIER_AGENT_KEY_MAX_AGE_MS). */
export const DEFAULT_SIGNING_KEY_MAX_AGE_MS = 30 * 86_400_000;

let maxAgeMs = DEFAULT_SIGNING_KEY_MAX_AGE_MS;

/**
 * The age after which the current key is rotated automatically, for this process (set at start from
 * the configuration; one value per process, like the secret key that seals the keys).
 */
export function useSigningKeyMaxAge(ms: number | undefined): void {
  if (ms === undefined) return;
  if (!Number.isFinite(ms) || ms < 1000) throw new Error('The signing key max age must be at least 1000 ms');
  maxAgeMs = ms;
}

/** A bounded map: oldest entries go first. Entries never go stale (see the invariants above). */
class KeyCache<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(k: string): V | undefined {
    return this.map.get(k);
  }
  set(k: string, v: V): void {
    if (this.map.size >= this.max) this.map.delete(this.map.keys().next().value as string);
    this.map.set(k, v);
  }
}
const privateKeys = new KeyCache<CryptoKey>(256);
const publicKeys = new KeyCache<CryptoKey>(1024);

const sealContext = (kid: string) => `signing-key:${kid}`;

type CurrentRow = { kid: string; public_jwk: JWK; private_key_sealed: string; stale: boolean };

const CURRENT_COLUMNS = `kid, public_jwk, private_key_sealed, created_at <= now() - ($2::double precision * interval '1 millisecond') AS stale`;

async function readCurrent(db: Db, workspaceId: string | null, ageMs: number): Promise<CurrentRow | undefined> {
  const rows =
    workspaceId === null
      ? await rawQuery<CurrentRow>(db, `SELECT ${CURRENT_COLUMNS.replace('$2', '$1')} FROM signing_keys WHERE workspace_id IS NULL AND retired_at IS NULL`, [ageMs])
      : await rawQuery<CurrentRow>(db, `SELECT ${CURRENT_COLUMNS} FROM signing_keys WHERE workspace_id = $1::uuid AND retired_at IS NULL`, [workspaceId, ageMs]);
  return rows[0];
}

async function toSigningKey(row: CurrentRow): Promise<SigningKey> {
  let privateKey = privateKeys.get(row.kid);
  if (!privateKey) {
    const jwk = JSON.parse(openSecret(row.private_key_sealed, sealContext(row.kid), 'An agent signing key')) as JWK;
    privateKey = (await importJWK(jwk, 'ES256', { extractable: false })) as CryptoKey;
    privateKeys.set(row.kid, privateKey);
  }
  return { kid: row.kid, alg: 'ES256', privateKey, publicJwk: row.public_jwk };
}

/** A fresh ES256 key pair: its kid, its public JWK as published, its private JWK sealed. */
async function newKeyPair(): Promise<{ kid: string; publicJwk: JWK; sealed: string }> {
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const pub = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint({ kty: pub.kty!, crv: pub.crv!, x: pub.x!, y: pub.y! });
  const publicJwk: JWK = { kty: pub.kty, crv: pub.crv, x: pub.x, y: pub.y, kid, alg: 'ES256', use: 'sig' };
  const priv = await exportJWK(privateKey);
  return { kid, publicJwk, sealed: sealSecret(JSON.stringify({ ...priv, kid, alg: 'ES256' }), sealContext(kid)) };
}

/** Inserts a current key unless the owner already has one (then nothing happens). */
async function insertCurrent(db: Db, workspaceId: string | null): Promise<void> {
  const k = await newKeyPair();
  await rawQuery(
    db,
    `INSERT INTO signing_keys (kid, workspace_id, alg, public_jwk, private_key_sealed) VALUES ($1, $2::uuid, 'ES256', $3::jsonb, $4) ON CONFLICT DO NOTHING`,
    [k.kid, workspaceId, JSON.stringify(k.publicJwk), k.sealed],
  );
}

/**
 * Retires the owner's current key — only `kid` when given (the stale key the caller saw, never a
 * fresh one another worker just made). Returns the kids retired.
 */
async function retireCurrent(db: Db, workspaceId: string | null, kid?: string): Promise<string[]> {
  const set = `SET retired_at = now(), expires_at = now() + (${MAX_CREDENTIAL_LIFETIME_MS} * interval '1 millisecond')`;
  const byKid = kid === undefined ? '' : workspaceId === null ? ' AND kid = $1' : ' AND kid = $2';
  const rows =
    workspaceId === null
      ? await rawQuery<{ kid: string }>(db, `UPDATE signing_keys ${set} WHERE workspace_id IS NULL AND retired_at IS NULL${byKid} RETURNING kid`, kid === undefined ? [] : [kid])
      : await rawQuery<{ kid: string }>(db, `UPDATE signing_keys ${set} WHERE workspace_id = $1::uuid AND retired_at IS NULL${byKid} RETURNING kid`, kid === undefined ? [workspaceId] : [workspaceId, kid]);
  return rows.map((r) => r.kid);
}

/**
 * The key that signs now; created on first use. workspaceId null = the deployment's own key (signs
 * the A2A agent card). A current key older than the max age is retired and replaced first (the
 * caller signs with the new one; the old one still verifies what it signed).
 */
export async function currentSigningKey(db: Db, workspaceId: string | null, opts: { maxAgeMs?: number } = {}): Promise<SigningKey> {
  const ageMs = opts.maxAgeMs ?? maxAgeMs;
  let row = await readCurrent(db, workspaceId, ageMs);
  if (row && !row.stale) return toSigningKey(row);
  // None yet, or too old: make one. Two statements, no transaction: a crash between them leaves no
  // current key, and the next use makes one.
  if (row) await retireCurrent(db, workspaceId, row.kid);
  await insertCurrent(db, workspaceId);
  // Ours, or the key of whoever inserted first.
  row = await readCurrent(db, workspaceId, ageMs);
  if (!row) throw new Error('The current signing key was retired while it was being made; try again');
  return toSigningKey(row);
}

/** Public keys still accepted (current + retired ones whose credentials may not have expired yet), newest first. */
export async function publicJwks(db: Db, workspaceId: string | null): Promise<{ keys: JWK[] }> {
  const accepted = `(expires_at IS NULL OR expires_at > now()) ORDER BY created_at DESC, kid`;
  const rows =
    workspaceId === null
      ? await rawQuery<{ public_jwk: JWK }>(db, `SELECT public_jwk FROM signing_keys WHERE workspace_id IS NULL AND ${accepted}`, [])
      : await rawQuery<{ public_jwk: JWK }>(db, `SELECT public_jwk FROM signing_keys WHERE workspace_id = $1::uuid AND ${accepted}`, [workspaceId]);
  return { keys: rows.map((r) => r.public_jwk) };
}

/**
 * Retires the current key (it verifies until its credentials have expired) and makes a new one,
 * which signs from now on. Returns the new key's kid.
 */
export async function rotateSigningKey(db: Db, workspaceId: string | null): Promise<{ kid: string }> {
  await retireCurrent(db, workspaceId);
  await insertCurrent(db, workspaceId);
  const row = await readCurrent(db, workspaceId, maxAgeMs);
  if (!row) throw new Error('The new signing key was retired while it was being made; try again');
  return { kid: row.kid };
}

/**
 * The public key `kid` of a workspace, for checking a signature — whether or not it is still
 * accepted (runCredentialStanding says that). Undefined when the workspace has no such key: a kid
 * of another workspace or of the deployment is not this workspace's.
 */
export async function workspacePublicKey(db: Db, workspaceId: string, kid: string): Promise<CryptoKey | undefined> {
  const cacheKey = `${workspaceId}/${kid}`;
  const cached = publicKeys.get(cacheKey);
  if (cached) return cached;
  const rows = await rawQuery<{ public_jwk: JWK }>(db, 'SELECT public_jwk FROM signing_keys WHERE workspace_id = $1::uuid AND kid = $2', [workspaceId, kid]);
  const jwk = rows[0]?.public_jwk;
  if (!jwk) return undefined;
  const key = (await importJWK(jwk, 'ES256')) as CryptoKey;
  publicKeys.set(cacheKey, key);
  return key;
}

export type CredentialStanding = {
  /** The signing key is still accepted (current, or retired less than the credential lifetime ago). */
  keyAccepted: boolean;
  /** The turn's generation now (a newer one: another worker took the turn over). */
  generation: number;
  turnStatus: string;
  taskStatus: TaskStatus;
};

/**
 * One read: whether the run a credential names is still live — its turn at its generation and
 * RUNNING, its task runnable — and whether its signing key is still accepted. Undefined when the
 * turn does not exist in that task and workspace. Like the runtime's fence, a turn whose lease ran
 * out but that no one took over yet is still its holder's.
 */
export async function runCredentialStanding(
  db: Db,
  run: { workspaceId: string; taskId: string; turnId: string; kid: string },
): Promise<CredentialStanding | undefined> {
  const rows = await rawQuery<{ generation: number; turn_status: string; task_status: TaskStatus; key_accepted: boolean }>(
    db,
    `SELECT r.generation, r.status::text AS turn_status, k.status::text AS task_status,
            EXISTS (SELECT 1 FROM signing_keys s WHERE s.workspace_id = r.workspace_id AND s.kid = $4
                       AND (s.expires_at IS NULL OR s.expires_at > now())) AS key_accepted
       FROM turns r JOIN tasks k ON k.id = r.task_id
      WHERE r.id = $1::uuid AND r.workspace_id = $2::uuid AND r.task_id = $3::uuid`,
    [run.turnId, run.workspaceId, run.taskId, run.kid],
  );
  const r = rows[0];
  return r ? { keyAccepted: r.key_accepted, generation: r.generation, turnStatus: r.turn_status, taskStatus: r.task_status } : undefined;
}
