-- CreateEnum
CREATE TYPE "InputPolicy" AS ENUM ('QUEUE', 'INTERRUPT', 'REJECT', 'ROLLBACK');

-- CreateEnum
CREATE TYPE "BudgetCapBehavior" AS ENUM ('END', 'PAUSE');

-- CreateEnum
CREATE TYPE "ScheduleKind" AS ENUM ('MESSAGE', 'TASK');

-- CreateEnum
CREATE TYPE "FollowUpStatus" AS ENUM ('PENDING', 'FIRED', 'CANCELLED');

-- AlterEnum
ALTER TYPE "ToolCallStatus" ADD VALUE 'SKIPPED';

-- AlterEnum
ALTER TYPE "ApprovalKind" ADD VALUE 'BUDGET_CAP';

-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "forked_at_seq" INTEGER,
ADD COLUMN     "forked_at_step" INTEGER,
ADD COLUMN     "forked_from_id" UUID,
ADD COLUMN     "input_policy" "InputPolicy" NOT NULL DEFAULT 'QUEUE',
ADD COLUMN     "schedule_run_id" UUID;

-- AlterTable
ALTER TABLE "inbox_items" ADD COLUMN     "input_policy" "InputPolicy";

-- AlterTable
ALTER TABLE "workspace_settings" ADD COLUMN     "at_budget_cap" "BudgetCapBehavior" NOT NULL DEFAULT 'END',
ADD COLUMN     "follow_ups_enabled" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "quiet_from_minute" INTEGER,
ADD COLUMN     "quiet_to_minute" INTEGER,
ADD COLUMN     "time_zone" TEXT NOT NULL DEFAULT 'UTC';

-- CreateTable
CREATE TABLE "schedules" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "created_by_id" UUID NOT NULL,
    "kind" "ScheduleKind" NOT NULL,
    "title" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "cron" TEXT,
    "run_at" TIMESTAMPTZ(3),
    "time_zone" TEXT NOT NULL,
    "budget_cap_cents" INTEGER,
    "paused" BOOLEAN NOT NULL DEFAULT false,
    "next_run_at" TIMESTAMPTZ(3),
    "last_run_at" TIMESTAMPTZ(3),
    "version" INTEGER NOT NULL DEFAULT 1,
    "deleted_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "schedules_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "schedule_runs" (
    "id" UUID NOT NULL,
    "schedule_id" UUID NOT NULL,
    "slot_at" TIMESTAMPTZ(3) NOT NULL,
    "missed_slots" INTEGER NOT NULL DEFAULT 0,
    "task_id" UUID,
    "message_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "schedule_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "follow_ups" (
    "id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "call_key" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "due_at" TIMESTAMPTZ(3) NOT NULL,
    "wake_at" TIMESTAMPTZ(3) NOT NULL,
    "status" "FollowUpStatus" NOT NULL DEFAULT 'PENDING',
    "fired_at" TIMESTAMPTZ(3),
    "cancelled_at" TIMESTAMPTZ(3),
    "cancelled_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "follow_ups_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "schedules_workspace_id_created_at_idx" ON "schedules"("workspace_id", "created_at");

-- CreateIndex
CREATE INDEX "schedules_next_run_at_idx" ON "schedules"("next_run_at");

-- CreateIndex
CREATE UNIQUE INDEX "schedule_runs_schedule_id_slot_at_key" ON "schedule_runs"("schedule_id", "slot_at");

-- CreateIndex
CREATE UNIQUE INDEX "follow_ups_call_key_key" ON "follow_ups"("call_key");

-- CreateIndex
CREATE INDEX "follow_ups_task_id_status_idx" ON "follow_ups"("task_id", "status");

-- CreateIndex
CREATE INDEX "follow_ups_status_wake_at_idx" ON "follow_ups"("status", "wake_at");

-- CreateIndex
CREATE UNIQUE INDEX "tasks_schedule_run_id_key" ON "tasks"("schedule_run_id");

-- CreateIndex
CREATE INDEX "tasks_forked_from_id_idx" ON "tasks"("forked_from_id");

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_forked_from_id_fkey" FOREIGN KEY ("forked_from_id") REFERENCES "tasks"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "schedule_runs" ADD CONSTRAINT "schedule_runs_schedule_id_fkey" FOREIGN KEY ("schedule_id") REFERENCES "schedules"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "follow_ups" ADD CONSTRAINT "follow_ups_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
