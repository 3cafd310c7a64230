-- CreateTable
CREATE TABLE "object_derivations" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "object_id" UUID NOT NULL,
    "object_version" INTEGER NOT NULL,
    "source_id" UUID NOT NULL,
    "source_version" INTEGER NOT NULL,
    "task_id" UUID,
    "step_id" TEXT,
    "job_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "object_derivations_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "object_derivations_workspace_id_source_id_idx" ON "object_derivations"("workspace_id", "source_id");

-- CreateIndex
CREATE UNIQUE INDEX "object_derivations_object_id_object_version_source_id_key" ON "object_derivations"("object_id", "object_version", "source_id");
