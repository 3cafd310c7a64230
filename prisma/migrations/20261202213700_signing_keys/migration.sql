-- The keys that sign the agents' run credentials (server/store/agents/signing-keys.ts): one
-- workspace's (workspace_id) or the deployment's own (workspace_id NULL, it signs the A2A agent
-- card). The private JWK is sealed at rest (AES-256-GCM, bound to the kid). A rotation retires the
-- current key; it verifies until expires_at (retired_at + the longest credential lifetime).

-- CreateTable
CREATE TABLE "signing_keys" (
    "kid" TEXT NOT NULL,
    "workspace_id" UUID,
    "alg" TEXT NOT NULL DEFAULT 'ES256',
    "public_jwk" JSONB NOT NULL,
    "private_key_sealed" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "retired_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "signing_keys_pkey" PRIMARY KEY ("kid")
);

-- CreateIndex
CREATE INDEX "signing_keys_workspace_id_created_at_idx" ON "signing_keys"("workspace_id", "created_at");

-- AddForeignKey
ALTER TABLE "signing_keys" ADD CONSTRAINT "signing_keys_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: at most one current key per owner (the deployment's NULL included), whoever creates
-- or rotates keys and however many at once: a second insert of a current key does nothing
-- (INSERT ... ON CONFLICT DO NOTHING) and its writer reads the winner's key.
CREATE UNIQUE INDEX signing_keys_one_current ON signing_keys (workspace_id) NULLS NOT DISTINCT WHERE retired_at IS NULL;

-- Hand-written: a key is retired and given its expiry in one step, never one without the other.
ALTER TABLE signing_keys ADD CONSTRAINT signing_keys_retired_expiry CHECK ((retired_at IS NULL) = (expires_at IS NULL));
