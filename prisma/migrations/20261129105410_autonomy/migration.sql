-- AlterEnum
ALTER TYPE "ApprovalKind" ADD VALUE 'CHECKPOINT';

-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "checklist_version" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "idle_turns" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "plan_approved_version" INTEGER,
ADD COLUMN     "progress_mark" TEXT;

-- AlterTable
ALTER TABLE "approvals" ADD COLUMN     "choice" TEXT,
ADD COLUMN     "options" JSONB;

-- CreateTable
CREATE TABLE "task_checklists" (
    "id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "items" JSONB NOT NULL,
    "reason" TEXT NOT NULL,
    "author_kind" "ActorKind" NOT NULL,
    "author_id" TEXT,
    "call_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_checklists_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "task_checklists_task_id_version_key" ON "task_checklists"("task_id", "version");

-- CreateIndex
CREATE UNIQUE INDEX "task_checklists_task_id_call_key_key" ON "task_checklists"("task_id", "call_key");

-- AddForeignKey
ALTER TABLE "task_checklists" ADD CONSTRAINT "task_checklists_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: checklist versions are immutable history.
CREATE FUNCTION atelier_checklist_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'task_checklists is append-only' USING ERRCODE = 'check_violation', CONSTRAINT = 'checklist_append_only';
END $$;
CREATE TRIGGER task_checklists_immutable BEFORE UPDATE ON task_checklists FOR EACH ROW EXECUTE FUNCTION atelier_checklist_immutable();
ALTER TABLE tasks ADD CONSTRAINT task_idle_nonnegative CHECK (idle_turns >= 0 AND checklist_version >= 0);
