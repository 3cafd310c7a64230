-- CreateEnum
CREATE TYPE "TaskKind" AS ENUM ('PERSISTENT', 'LIGHTWEIGHT');

-- CreateEnum
CREATE TYPE "RouteOutcome" AS ENUM ('ANSWER', 'LIGHTWEIGHT_TASK', 'EXISTING_TASK', 'NEW_TASK', 'CLARIFY');

-- CreateEnum
CREATE TYPE "RouteMethod" AS ENUM ('DETERMINISTIC', 'MODEL', 'RETRIEVAL');

-- CreateEnum
CREATE TYPE "CardStatus" AS ENUM ('OPEN', 'RESOLVED');

-- AlterTable
ALTER TABLE "messages" ADD COLUMN     "card_action" JSONB,
ADD COLUMN     "inbox_item_id" UUID,
ADD COLUMN     "language" TEXT,
ADD COLUMN     "object_id" TEXT;

-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "archived_at" TIMESTAMPTZ(3),
ADD COLUMN     "kind" "TaskKind" NOT NULL DEFAULT 'PERSISTENT',
ADD COLUMN     "language" TEXT,
ADD COLUMN     "last_activity_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
ADD COLUMN     "merged_into_id" UUID;

-- CreateTable
CREATE TABLE "route_decisions" (
    "id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "outcome" "RouteOutcome" NOT NULL,
    "method" "RouteMethod" NOT NULL,
    "task_id" UUID,
    "candidates" JSONB NOT NULL,
    "reason" TEXT NOT NULL,
    "model" TEXT,
    "index_size" INTEGER NOT NULL,
    "corrected_by" UUID,
    "superseded_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "route_decisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cards" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "thread_id" UUID NOT NULL,
    "message_id" UUID NOT NULL,
    "kind" TEXT NOT NULL,
    "prompt" TEXT NOT NULL,
    "options" JSONB NOT NULL,
    "status" "CardStatus" NOT NULL DEFAULT 'OPEN',
    "choice" TEXT,
    "resolved_at" TIMESTAMPTZ(3),
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "cards_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "task_object_refs" (
    "task_id" UUID NOT NULL,
    "object_id" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_object_refs_pkey" PRIMARY KEY ("task_id","object_id")
);

-- CreateIndex
CREATE INDEX "route_decisions_message_id_idx" ON "route_decisions"("message_id");

-- CreateIndex
CREATE INDEX "cards_thread_id_created_at_idx" ON "cards"("thread_id", "created_at");

-- CreateIndex
CREATE INDEX "task_object_refs_object_id_idx" ON "task_object_refs"("object_id");

-- CreateIndex
CREATE INDEX "tasks_workspace_id_last_activity_at_idx" ON "tasks"("workspace_id", "last_activity_at" DESC);

-- AddForeignKey
ALTER TABLE "route_decisions" ADD CONSTRAINT "route_decisions_message_id_fkey" FOREIGN KEY ("message_id") REFERENCES "messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "task_object_refs" ADD CONSTRAINT "task_object_refs_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: retrieval over tasks for the router — full-text search (language-agnostic 'simple'
-- configuration: users write in many languages) and trigram similarity.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
ALTER TABLE tasks ADD COLUMN search_text text GENERATED ALWAYS AS (title || ' ' || goal || ' ' || summary) STORED;
ALTER TABLE tasks ADD COLUMN search_tsv tsvector GENERATED ALWAYS AS (to_tsvector('simple', title || ' ' || goal || ' ' || summary)) STORED;
CREATE INDEX tasks_search_tsv ON tasks USING gin (search_tsv);
CREATE INDEX tasks_search_trgm ON tasks USING gin (search_text gin_trgm_ops);
