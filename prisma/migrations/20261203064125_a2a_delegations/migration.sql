-- CreateTable
CREATE TABLE "a2a_delegations" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "call_id" TEXT NOT NULL,
    "agent_name" TEXT NOT NULL,
    "remote_task_id" TEXT,
    "secret_hash" TEXT NOT NULL,
    "state" TEXT NOT NULL DEFAULT 'submitted',
    "answered_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "a2a_delegations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "a2a_delegations_task_id_idx" ON "a2a_delegations"("task_id");

-- CreateIndex
CREATE UNIQUE INDEX "a2a_delegations_workspace_id_call_id_key" ON "a2a_delegations"("workspace_id", "call_id");
