-- CreateEnum
CREATE TYPE "MemoryEvidenceStatus" AS ENUM ('ACTIVE', 'REVOKED');

-- CreateEnum
CREATE TYPE "MemorySourceKind" AS ENUM ('MESSAGE', 'NOTE', 'OBSERVATION');

-- CreateEnum
CREATE TYPE "MemoryKind" AS ENUM ('PREFERENCE', 'FACT', 'BRAND_RULE', 'WORKFLOW_HABIT');

-- CreateEnum
CREATE TYPE "MemoryScope" AS ENUM ('USER', 'WORKSPACE', 'TASK');

-- CreateEnum
CREATE TYPE "MemoryOrigin" AS ENUM ('USER_STATED', 'INFERRED');

-- CreateEnum
CREATE TYPE "MemoryVersionStatus" AS ENUM ('CURRENT', 'SUPERSEDED', 'FORGOTTEN');

-- CreateEnum
CREATE TYPE "MemoryLinkRole" AS ENUM ('ORIGIN', 'REFINE', 'CONFIRM');

-- CreateTable
CREATE TABLE "memory_evidence" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "task_id" UUID,
    "message_id" UUID,
    "kind" "MemorySourceKind" NOT NULL,
    "text" TEXT NOT NULL,
    "content_hash" TEXT NOT NULL,
    "status" "MemoryEvidenceStatus" NOT NULL DEFAULT 'ACTIVE',
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "revoked_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_evidence_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memories" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "task_id" UUID,
    "scope" "MemoryScope" NOT NULL,
    "scope_key" TEXT NOT NULL,
    "kind" "MemoryKind" NOT NULL,
    "subject_key" TEXT NOT NULL,
    "origin" "MemoryOrigin" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memories_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memory_versions" (
    "id" UUID NOT NULL,
    "memory_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "number" INTEGER NOT NULL,
    "content" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "origin" "MemoryOrigin" NOT NULL,
    "confidence" DOUBLE PRECISION NOT NULL,
    "status" "MemoryVersionStatus" NOT NULL DEFAULT 'CURRENT',
    "valid_from" TIMESTAMPTZ(3) NOT NULL,
    "valid_to" TIMESTAMPTZ(3),
    "derived_from_id" UUID,
    "forgotten_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memory_links" (
    "version_id" UUID NOT NULL,
    "evidence_id" UUID NOT NULL,
    "role" "MemoryLinkRole" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_links_pkey" PRIMARY KEY ("version_id","evidence_id")
);

-- CreateTable
CREATE TABLE "memory_embeddings" (
    "version_id" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "vector" REAL[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_embeddings_pkey" PRIMARY KEY ("version_id")
);

-- CreateTable
CREATE TABLE "memory_summaries" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "phase_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_summaries_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memory_summary_sentences" (
    "id" UUID NOT NULL,
    "summary_id" UUID NOT NULL,
    "version_id" UUID NOT NULL,
    "evidence_ids" UUID[],
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_summary_sentences_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memory_profiles" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "entries" JSONB NOT NULL,
    "text" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_profiles_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memory_tombstones" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "hash" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_tombstones_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "memory_extractions" (
    "evidence_id" UUID NOT NULL,
    "extractor_version" TEXT NOT NULL,
    "report" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_extractions_pkey" PRIMARY KEY ("evidence_id","extractor_version")
);

-- CreateTable
CREATE TABLE "memory_uses" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "step_ordinal" INTEGER NOT NULL,
    "version_id" UUID,
    "evidence_id" UUID,
    "use_key" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "memory_uses_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "memory_evidence_message_id_key" ON "memory_evidence"("message_id");

-- CreateIndex
CREATE INDEX "memory_evidence_workspace_id_user_id_occurred_at_idx" ON "memory_evidence"("workspace_id", "user_id", "occurred_at");

-- CreateIndex
CREATE INDEX "memories_workspace_id_user_id_kind_idx" ON "memories"("workspace_id", "user_id", "kind");

-- CreateIndex
CREATE UNIQUE INDEX "memories_workspace_id_scope_key_subject_key_origin_key" ON "memories"("workspace_id", "scope_key", "subject_key", "origin");

-- CreateIndex
CREATE INDEX "memory_versions_workspace_id_status_idx" ON "memory_versions"("workspace_id", "status");

-- CreateIndex
CREATE UNIQUE INDEX "memory_versions_memory_id_number_key" ON "memory_versions"("memory_id", "number");

-- CreateIndex
CREATE INDEX "memory_links_evidence_id_idx" ON "memory_links"("evidence_id");

-- CreateIndex
CREATE UNIQUE INDEX "memory_summaries_workspace_id_user_id_phase_key_key" ON "memory_summaries"("workspace_id", "user_id", "phase_key");

-- CreateIndex
CREATE INDEX "memory_summary_sentences_version_id_idx" ON "memory_summary_sentences"("version_id");

-- CreateIndex
CREATE UNIQUE INDEX "memory_summary_sentences_summary_id_version_id_key" ON "memory_summary_sentences"("summary_id", "version_id");

-- CreateIndex
CREATE UNIQUE INDEX "memory_profiles_workspace_id_user_id_version_key" ON "memory_profiles"("workspace_id", "user_id", "version");

-- CreateIndex
CREATE UNIQUE INDEX "memory_tombstones_workspace_id_user_id_hash_key" ON "memory_tombstones"("workspace_id", "user_id", "hash");

-- CreateIndex
CREATE UNIQUE INDEX "memory_uses_use_key_key" ON "memory_uses"("use_key");

-- CreateIndex
CREATE INDEX "memory_uses_task_id_step_ordinal_idx" ON "memory_uses"("task_id", "step_ordinal");

-- CreateIndex
CREATE INDEX "memory_uses_version_id_idx" ON "memory_uses"("version_id");

-- CreateIndex
CREATE INDEX "memory_uses_evidence_id_idx" ON "memory_uses"("evidence_id");

-- AddForeignKey
ALTER TABLE "memory_versions" ADD CONSTRAINT "memory_versions_memory_id_fkey" FOREIGN KEY ("memory_id") REFERENCES "memories"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory_links" ADD CONSTRAINT "memory_links_version_id_fkey" FOREIGN KEY ("version_id") REFERENCES "memory_versions"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory_links" ADD CONSTRAINT "memory_links_evidence_id_fkey" FOREIGN KEY ("evidence_id") REFERENCES "memory_evidence"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "memory_summary_sentences" ADD CONSTRAINT "memory_summary_sentences_summary_id_fkey" FOREIGN KEY ("summary_id") REFERENCES "memory_summaries"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: full-text index over memory versions ('simple': users write in many languages).
-- Generated from the content, so clearing a forgotten version's content clears its index entry.
ALTER TABLE memory_versions ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', content)) STORED;
CREATE INDEX memory_versions_search_tsv ON memory_versions USING gin (search_tsv);
