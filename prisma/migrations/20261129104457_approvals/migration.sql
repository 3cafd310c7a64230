-- CreateEnum
CREATE TYPE "AutonomyLevel" AS ENUM ('MANUAL', 'SUPERVISED', 'AUTONOMOUS');

-- CreateEnum
CREATE TYPE "ApprovalKind" AS ENUM ('PAID_ACTION', 'PLAN', 'IRREVERSIBLE');

-- CreateEnum
CREATE TYPE "ApprovalStatus" AS ENUM ('PENDING', 'APPROVED', 'REJECTED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "PrincipalKind" AS ENUM ('HUMAN', 'SERVICE');

-- CreateEnum
CREATE TYPE "PaidActionPolicy" AS ENUM ('CONFIRM_EACH', 'WORKSPACE_RULES');

-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "paid_actions" "PaidActionPolicy" NOT NULL DEFAULT 'WORKSPACE_RULES',
ADD COLUMN     "principal" "PrincipalKind" NOT NULL DEFAULT 'HUMAN';

-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "approved_budget_cents" INTEGER,
ADD COLUMN     "autonomy" "AutonomyLevel",
ADD COLUMN     "budget_cap_cents" INTEGER,
ADD COLUMN     "paid_actions" "PaidActionPolicy" NOT NULL DEFAULT 'WORKSPACE_RULES',
ADD COLUMN     "per_action_free_cents" INTEGER;

-- CreateTable
CREATE TABLE "workspace_settings" (
    "workspace_id" UUID NOT NULL,
    "per_action_free_cents" INTEGER NOT NULL DEFAULT 100,
    "daily_free_cents" INTEGER NOT NULL DEFAULT 1000,
    "autonomy" "AutonomyLevel" NOT NULL DEFAULT 'SUPERVISED',
    "task_budget_cap_cents" INTEGER DEFAULT 5000,
    "version" INTEGER NOT NULL DEFAULT 1,
    "updated_by_id" UUID,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "workspace_settings_pkey" PRIMARY KEY ("workspace_id")
);

-- CreateTable
CREATE TABLE "approvals" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "task_id" UUID,
    "kind" "ApprovalKind" NOT NULL,
    "status" "ApprovalStatus" NOT NULL DEFAULT 'PENDING',
    "title" TEXT NOT NULL,
    "reasons" JSONB NOT NULL,
    "quote_cents" INTEGER,
    "action" JSONB NOT NULL,
    "request_key" TEXT NOT NULL,
    "requested_by_kind" "ActorKind" NOT NULL,
    "requested_by_id" TEXT,
    "resolved_by_id" UUID,
    "resolve_key" TEXT,
    "note" TEXT,
    "outcome" JSONB,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "resolved_at" TIMESTAMPTZ(3),

    CONSTRAINT "approvals_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "approvals_workspace_id_status_created_at_idx" ON "approvals"("workspace_id", "status", "created_at" DESC);

-- CreateIndex
CREATE INDEX "approvals_task_id_created_at_idx" ON "approvals"("task_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "approvals_workspace_id_request_key_key" ON "approvals"("workspace_id", "request_key");

-- AddForeignKey
ALTER TABLE "workspace_settings" ADD CONSTRAINT "workspace_settings_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "approvals" ADD CONSTRAINT "approvals_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: thresholds are never negative; a decision is final; every workspace has settings.
ALTER TABLE workspace_settings ADD CONSTRAINT settings_nonnegative CHECK (
  per_action_free_cents >= 0 AND daily_free_cents >= 0 AND (task_budget_cap_cents IS NULL OR task_budget_cap_cents >= 0));
ALTER TABLE tasks ADD CONSTRAINT task_budget_nonnegative CHECK (
  (budget_cap_cents IS NULL OR budget_cap_cents >= 0) AND (approved_budget_cents IS NULL OR approved_budget_cents >= 0)
  AND (per_action_free_cents IS NULL OR per_action_free_cents >= 0));
ALTER TABLE approvals ADD CONSTRAINT approval_resolution CHECK ((status = 'PENDING') = (resolved_at IS NULL));
CREATE FUNCTION atelier_approval_final() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'PENDING' AND (NEW.status <> OLD.status OR NEW.resolved_by_id IS DISTINCT FROM OLD.resolved_by_id) THEN
    RAISE EXCEPTION 'approval % was already resolved', OLD.id USING ERRCODE = 'check_violation', CONSTRAINT = 'approval_final';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER approvals_final BEFORE UPDATE ON approvals FOR EACH ROW EXECUTE FUNCTION atelier_approval_final();
INSERT INTO workspace_settings (workspace_id) SELECT id FROM workspaces ON CONFLICT DO NOTHING;
