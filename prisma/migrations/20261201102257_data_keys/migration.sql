-- AlterTable
ALTER TABLE "tasks" ADD COLUMN     "sealing_key_id" UUID;

-- AlterTable
ALTER TABLE "object_versions" ADD COLUMN     "withheld_at" TIMESTAMPTZ(3),
ADD COLUMN     "withheld_reason" TEXT;

-- CreateTable
CREATE TABLE "data_keys" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "sources" UUID[],
    "sources_hash" TEXT NOT NULL,
    "material" BYTEA,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "destroyed_at" TIMESTAMPTZ(3),
    "destroyed_reason" TEXT,

    CONSTRAINT "data_keys_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "data_keys_sources_idx" ON "data_keys" USING GIN ("sources");

-- CreateIndex
CREATE INDEX "data_keys_workspace_id_idx" ON "data_keys"("workspace_id");

-- CreateIndex
CREATE UNIQUE INDEX "data_keys_task_id_sources_hash_key" ON "data_keys"("task_id", "sources_hash");

-- Hand-written: a data key goes with its task; once destroyed it stays destroyed, and what it
-- covers never changes (a key is named by its task and source set).
ALTER TABLE "data_keys" ADD CONSTRAINT "data_keys_task_id_fkey" FOREIGN KEY ("task_id") REFERENCES "tasks"("id") ON DELETE CASCADE;
ALTER TABLE "data_keys" ADD CONSTRAINT "data_keys_destroyed" CHECK ((material IS NULL) = (destroyed_at IS NOT NULL));
CREATE FUNCTION atelier_data_key_destroy_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.sources IS DISTINCT FROM OLD.sources OR NEW.task_id <> OLD.task_id OR NEW.sources_hash <> OLD.sources_hash
     OR (OLD.material IS NULL AND NEW.material IS NOT NULL)
     OR (OLD.material IS NOT NULL AND NEW.material IS NOT NULL AND NEW.material <> OLD.material) THEN
    RAISE EXCEPTION 'a data key can only be destroyed' USING ERRCODE = 'check_violation', CONSTRAINT = 'data_key_destroy_only';
  END IF;
  RETURN NEW;
END $$;
CREATE TRIGGER data_keys_destroy_only BEFORE UPDATE ON data_keys FOR EACH ROW EXECUTE FUNCTION atelier_data_key_destroy_only();

-- Versions stay immutable history, with one exception: a person redacting a forgotten value from a
-- work withholds the older versions that held it, once (withheld_at set from null). Identity,
-- number, authorship and time never change.
CREATE OR REPLACE FUNCTION object_versions_immutable() RETURNS trigger AS $$
BEGIN
  IF OLD.withheld_at IS NULL AND NEW.withheld_at IS NOT NULL
     AND NEW.id = OLD.id AND NEW.object_id = OLD.object_id AND NEW.version = OLD.version
     AND NEW.author_kind = OLD.author_kind AND NEW.author_user_id IS NOT DISTINCT FROM OLD.author_user_id
     AND NEW.author_task_id IS NOT DISTINCT FROM OLD.author_task_id AND NEW.created_at = OLD.created_at THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'object versions are immutable';
END $$ LANGUAGE plpgsql;
