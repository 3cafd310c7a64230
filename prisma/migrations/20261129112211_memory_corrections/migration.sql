-- AlterTable
ALTER TABLE "memory_evidence" ADD COLUMN     "request_key" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "memory_evidence_workspace_id_user_id_request_key_key" ON "memory_evidence"("workspace_id", "user_id", "request_key");
