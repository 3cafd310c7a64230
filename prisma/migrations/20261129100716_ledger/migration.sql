-- CreateEnum
CREATE TYPE "LedgerKind" AS ENUM ('HOLD', 'CHARGE', 'RELEASE');

-- AlterTable
ALTER TABLE "generation_jobs" ADD COLUMN     "quote_cents" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "ledger_entries" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "task_id" UUID,
    "job_id" UUID NOT NULL,
    "kind" "LedgerKind" NOT NULL,
    "amount_cents" INTEGER NOT NULL,
    "reason" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ledger_entries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ledger_entries_workspace_id_created_at_idx" ON "ledger_entries"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "ledger_entries_task_id_idx" ON "ledger_entries"("task_id");

-- CreateIndex
CREATE UNIQUE INDEX "ledger_entries_job_id_kind_key" ON "ledger_entries"("job_id", "kind");

-- Hand-written: amounts are never negative, and the ledger is append-only.
ALTER TABLE ledger_entries ADD CONSTRAINT ledger_amount_nonnegative CHECK (amount_cents >= 0);
CREATE FUNCTION atelier_ledger_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'ledger_entries is append-only' USING ERRCODE = 'check_violation', CONSTRAINT = 'ledger_append_only';
END $$;
CREATE TRIGGER ledger_entries_append_only BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION atelier_ledger_append_only();
