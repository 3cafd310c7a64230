-- CreateEnum
CREATE TYPE "GenerationKind" AS ENUM ('IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D');

-- CreateEnum
CREATE TYPE "JobStatus" AS ENUM ('SUBMITTING', 'QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'CANCELLED', 'UNKNOWN');

-- CreateTable
CREATE TABLE "generation_jobs" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "task_id" UUID,
    "kind" "GenerationKind" NOT NULL,
    "provider" TEXT NOT NULL,
    "idempotency_key" TEXT NOT NULL,
    "prompt" TEXT NOT NULL,
    "params" JSONB NOT NULL,
    "status" "JobStatus" NOT NULL DEFAULT 'SUBMITTING',
    "upstream_job_id" TEXT,
    "progress" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "result" JSONB,
    "error" TEXT,
    "callbacks" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "completed_at" TIMESTAMPTZ(3),
    "last_seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "generation_jobs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "generation_jobs_status_last_seen_at_idx" ON "generation_jobs"("status", "last_seen_at");

-- CreateIndex
CREATE UNIQUE INDEX "generation_jobs_workspace_id_idempotency_key_key" ON "generation_jobs"("workspace_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "generation_jobs_provider_upstream_job_id_key" ON "generation_jobs"("provider", "upstream_job_id");
