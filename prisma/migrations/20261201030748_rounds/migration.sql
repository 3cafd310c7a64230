-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "inherited" JSONB,
ADD COLUMN     "line_id" UUID,
ADD COLUMN     "previous_round_id" UUID,
ADD COLUMN     "round" INTEGER NOT NULL DEFAULT 1;

-- CreateIndex
CREATE UNIQUE INDEX "tasks_previous_round_id_key" ON "tasks"("previous_round_id");

-- CreateIndex
CREATE INDEX "tasks_line_id_round_idx" ON "tasks"("line_id", "round");

-- AddForeignKey
ALTER TABLE "tasks" ADD CONSTRAINT "tasks_previous_round_id_fkey" FOREIGN KEY ("previous_round_id") REFERENCES "tasks"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- A next round follows a round that has ended (or was archived): a line of work never branches off
-- live work, so every round keeps its own single terminal state and a line has one live round.
CREATE FUNCTION atelier_next_round_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.previous_round_id IS NOT NULL AND NOT EXISTS (
    SELECT 1 FROM tasks p WHERE p.id = NEW.previous_round_id
       AND (p.status IN ('COMPLETED', 'FAILED', 'CANCELLED', 'BUDGET_EXCEEDED') OR p.archived_at IS NOT NULL)
  ) THEN
    RAISE EXCEPTION 'task % can only follow a round that has ended', NEW.previous_round_id
      USING ERRCODE = 'check_violation', CONSTRAINT = 'task_next_round_of_ended';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER tasks_next_round_guard BEFORE INSERT OR UPDATE OF previous_round_id ON tasks
  FOR EACH ROW EXECUTE FUNCTION atelier_next_round_guard();
