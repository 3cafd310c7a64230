-- Incremental production: a step whose inputs are unchanged reuses an earlier result; the ledger
-- records the order not placed as REUSE (a saving, never spending), and the reuse lookup reads a
-- task's jobs of one kind by generation_jobs (task_id, kind) (also what a checklist read counts).

-- AlterEnum
ALTER TYPE "LedgerKind" ADD VALUE 'REUSE';

-- CreateIndex
CREATE INDEX "generation_jobs_task_id_kind_idx" ON "generation_jobs"("task_id", "kind");
