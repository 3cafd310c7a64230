-- AlterTable
ALTER TABLE "generation_jobs" ADD COLUMN     "turn_generation" INTEGER,
ADD COLUMN     "worker_id" TEXT;

-- CreateTable
CREATE TABLE "runtime_processes" (
    "id" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "hostname" TEXT NOT NULL,
    "pid" INTEGER NOT NULL,
    "concurrency" INTEGER NOT NULL DEFAULT 0,
    "running" INTEGER NOT NULL DEFAULT 0,
    "started_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "ready_at" TIMESTAMPTZ(3),
    "last_beat_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "stopped_at" TIMESTAMPTZ(3),

    CONSTRAINT "runtime_processes_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "runtime_processes_last_beat_at_idx" ON "runtime_processes"("last_beat_at");
