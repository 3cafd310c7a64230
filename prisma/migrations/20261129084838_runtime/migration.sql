-- CreateEnum
CREATE TYPE "TurnStatus" AS ENUM ('QUEUED', 'RUNNING', 'COMPLETED', 'FAILED', 'STOPPED');

-- CreateEnum
CREATE TYPE "ToolCallStatus" AS ENUM ('PENDING', 'STARTED', 'DONE', 'FAILED', 'OUTCOME_UNKNOWN');

-- CreateEnum
CREATE TYPE "InboxKind" AS ENUM ('MESSAGE', 'SIGNAL');

-- CreateTable
CREATE TABLE "turns" (
    "id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "status" "TurnStatus" NOT NULL DEFAULT 'QUEUED',
    "generation" INTEGER NOT NULL DEFAULT 0,
    "lease_owner" TEXT,
    "lease_expires_at" TIMESTAMPTZ(3),
    "enqueued_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "outcome" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "started_at" TIMESTAMPTZ(3),
    "ended_at" TIMESTAMPTZ(3),

    CONSTRAINT "turns_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "steps" (
    "id" UUID NOT NULL,
    "turn_id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "index" INTEGER NOT NULL,
    "decision" JSONB NOT NULL,
    "request_digest" TEXT NOT NULL,
    "request" JSONB,
    "model" TEXT NOT NULL,
    "usage" JSONB,
    "generation" INTEGER NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "steps_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "tool_calls" (
    "id" TEXT NOT NULL,
    "turn_id" UUID NOT NULL,
    "step_id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "step_index" INTEGER NOT NULL,
    "call_index" INTEGER NOT NULL,
    "model_call_id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "input" JSONB NOT NULL,
    "safety" TEXT NOT NULL,
    "status" "ToolCallStatus" NOT NULL DEFAULT 'PENDING',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "result" JSONB,
    "error" TEXT,
    "generation" INTEGER NOT NULL,
    "started_at" TIMESTAMPTZ(3),
    "finished_at" TIMESTAMPTZ(3),

    CONSTRAINT "tool_calls_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "inbox_items" (
    "id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "kind" "InboxKind" NOT NULL,
    "signal" TEXT,
    "text" TEXT,
    "payload" JSONB,
    "author_user_id" UUID,
    "idempotency_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "consumed_turn_id" UUID,
    "consumed_step" INTEGER,
    "consumed_at" TIMESTAMPTZ(3),
    "withdrawn_at" TIMESTAMPTZ(3),

    CONSTRAINT "inbox_items_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_snapshots" (
    "id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "seq" INTEGER NOT NULL,
    "state" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_snapshots_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "turns_status_lease_expires_at_idx" ON "turns"("status", "lease_expires_at");

-- CreateIndex
CREATE UNIQUE INDEX "turns_task_id_number_key" ON "turns"("task_id", "number");

-- CreateIndex
CREATE INDEX "steps_task_id_created_at_idx" ON "steps"("task_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "steps_turn_id_index_key" ON "steps"("turn_id", "index");

-- CreateIndex
CREATE INDEX "tool_calls_task_id_status_idx" ON "tool_calls"("task_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "tool_calls_step_id_call_index_key" ON "tool_calls"("step_id", "call_index");

-- CreateIndex
CREATE INDEX "inbox_items_task_id_consumed_at_idx" ON "inbox_items"("task_id", "consumed_at");

-- CreateIndex
CREATE UNIQUE INDEX "inbox_items_task_id_idempotency_key_key" ON "inbox_items"("task_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "task_snapshots_task_id_seq_key" ON "task_snapshots"("task_id", "seq");

-- AddForeignKey
ALTER TABLE "turns" ADD CONSTRAINT "turns_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "steps" ADD CONSTRAINT "steps_turn_id_fkey" FOREIGN KEY ("turn_id") REFERENCES "turns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_calls" ADD CONSTRAINT "tool_calls_turn_id_fkey" FOREIGN KEY ("turn_id") REFERENCES "turns"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "tool_calls" ADD CONSTRAINT "tool_calls_step_id_fkey" FOREIGN KEY ("step_id") REFERENCES "steps"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "inbox_items" ADD CONSTRAINT "inbox_items_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_snapshots" ADD CONSTRAINT "task_snapshots_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: at most one live (QUEUED or RUNNING) turn per task, whoever creates turns
-- (API, worker, watchdog) and however often.
CREATE UNIQUE INDEX turns_one_live_per_task ON turns (task_id) WHERE status IN ('QUEUED', 'RUNNING');
