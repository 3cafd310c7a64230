-- DropIndex
DROP INDEX "memory_uses_task_id_step_ordinal_version_id_evidence_id_key";

-- AlterTable
ALTER TABLE "memory_uses" ADD COLUMN     "use_key" TEXT NOT NULL;

-- CreateIndex
CREATE UNIQUE INDEX "memory_uses_use_key_key" ON "memory_uses"("use_key");

-- CreateIndex
CREATE INDEX "memory_uses_task_id_step_ordinal_idx" ON "memory_uses"("task_id", "step_ordinal");

-- Hand-written: full-text index over memory versions ('simple': users write in many languages).
-- Generated from the content, so clearing a forgotten version's content clears its index entry.
ALTER TABLE memory_versions ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', content)) STORED;
CREATE INDEX memory_versions_search_tsv ON memory_versions USING gin (search_tsv);
