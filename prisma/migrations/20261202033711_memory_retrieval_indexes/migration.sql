-- Memory retrieval runs for every step of every task, inside the step's memory budget
-- (services/memory/worker-context.ts). Measured on a workspace of 10,000 memories
-- (npm run bench:context, test/bench/context/retrieval.ts): the ranked read of current versions
-- sorted the whole workspace (a sequential scan of memory_versions and of memories), and the read
-- of brand rules scanned every memory of the workspace to find its kind.
--   - memory_versions (workspace_id, status, confidence DESC, valid_from DESC): the current versions
--     of a workspace in rank order, which the LIMIT stops early; it supersedes (workspace_id, status),
--     a prefix of it.
--   - memories (workspace_id, kind): the memories of one kind in a workspace (brand rules), read
--     first when retrieval filters by kind.
--   - memory_evidence ('message:' || message_id) WHERE status = 'REVOKED' (hand-written below:
--     Prisma cannot state an expression or a partial index): what a step withholds joins the task's
--     inbox items to revoked evidence by the inbox key `message:<message id>`; without it every step
--     scanned all the evidence of the database. Revoked evidence is rare, so the index is small.

-- DropIndex
DROP INDEX "memory_versions_workspace_id_status_idx";

-- CreateIndex
CREATE INDEX "memories_workspace_id_kind_idx" ON "memories"("workspace_id", "kind");

-- CreateIndex
CREATE INDEX "memory_versions_workspace_id_status_confidence_valid_from_idx" ON "memory_versions"("workspace_id", "status", "confidence" DESC, "valid_from" DESC);

-- Hand-written (see above): the inbox key of a revoked message, for store/memory/uses.ts revokedInboxItems.
CREATE INDEX "memory_evidence_revoked_message_key" ON "memory_evidence" (('message:' || "message_id"::text)) WHERE "status" = 'REVOKED';
