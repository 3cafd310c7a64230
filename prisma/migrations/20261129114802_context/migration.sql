-- AlterTable
ALTER TABLE "steps" ADD COLUMN     "cost_cents" DOUBLE PRECISION,
ADD COLUMN     "routing" JSONB;

-- CreateTable
CREATE TABLE "context_summaries" (
    "id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "stage" INTEGER NOT NULL,
    "from_step" INTEGER NOT NULL,
    "to_step" INTEGER NOT NULL,
    "at_step" INTEGER NOT NULL,
    "text" TEXT NOT NULL DEFAULT '',
    "model" TEXT,
    "usage" JSONB,
    "superseded_at_step" INTEGER,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "context_summaries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "context_summaries_task_id_version_key" ON "context_summaries"("task_id", "version");

-- AddForeignKey
ALTER TABLE "context_summaries" ADD CONSTRAINT "context_summaries_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;
