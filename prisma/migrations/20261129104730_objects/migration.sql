-- CreateEnum
CREATE TYPE "ObjectKind" AS ENUM ('IMAGE', 'VIDEO', 'AUDIO', 'MODEL_3D', 'DOCUMENT', 'COLLECTION', 'FLOW');

-- CreateEnum
CREATE TYPE "ObjectChangeKind" AS ENUM ('CREATED', 'UPDATED', 'DELETED');

-- CreateTable
CREATE TABLE "workspace_objects" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "kind" "ObjectKind" NOT NULL,
    "name" TEXT NOT NULL,
    "current_version" INTEGER NOT NULL,
    "created_by_kind" "ActorKind" NOT NULL,
    "created_by_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "deleted_at" TIMESTAMPTZ(3),
    "deleted_by_id" UUID,

    CONSTRAINT "workspace_objects_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "object_versions" (
    "id" UUID NOT NULL,
    "object_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "name" TEXT NOT NULL,
    "content" JSONB NOT NULL,
    "node_versions" JSONB,
    "summary" TEXT NOT NULL,
    "changes" JSONB NOT NULL,
    "author_kind" "ActorKind" NOT NULL,
    "author_user_id" UUID,
    "author_task_id" UUID,
    "idempotency_key" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "object_versions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "object_changes" (
    "id" BIGSERIAL NOT NULL,
    "workspace_id" UUID NOT NULL,
    "position" BIGINT NOT NULL,
    "object_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "kind" "ObjectChangeKind" NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "object_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "object_feed_heads" (
    "workspace_id" UUID NOT NULL,
    "position" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "object_feed_heads_pkey" PRIMARY KEY ("workspace_id")
);

-- CreateTable
CREATE TABLE "task_object_seen" (
    "task_id" UUID NOT NULL,
    "object_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "seen_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_object_seen_pkey" PRIMARY KEY ("task_id","object_id")
);

-- CreateTable
CREATE TABLE "change_notices" (
    "id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "object_id" UUID NOT NULL,
    "from_version" INTEGER NOT NULL,
    "to_version" INTEGER NOT NULL,
    "summary" TEXT NOT NULL,
    "changes" JSONB NOT NULL,
    "author_kind" "ActorKind" NOT NULL,
    "author_id" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "consumed_turn_id" UUID,
    "consumed_step" INTEGER,
    "consumed_at" TIMESTAMPTZ(3),

    CONSTRAINT "change_notices_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "workspace_objects_workspace_id_kind_created_at_idx" ON "workspace_objects"("workspace_id", "kind", "created_at" DESC);

-- CreateIndex
CREATE UNIQUE INDEX "object_versions_object_id_version_key" ON "object_versions"("object_id", "version");

-- CreateIndex
CREATE UNIQUE INDEX "object_versions_object_id_idempotency_key_key" ON "object_versions"("object_id", "idempotency_key");

-- CreateIndex
CREATE UNIQUE INDEX "object_changes_workspace_id_position_key" ON "object_changes"("workspace_id", "position");

-- CreateIndex
CREATE INDEX "task_object_seen_object_id_idx" ON "task_object_seen"("object_id");

-- CreateIndex
CREATE INDEX "change_notices_task_id_consumed_at_idx" ON "change_notices"("task_id", "consumed_at");

-- CreateIndex
CREATE UNIQUE INDEX "change_notices_task_id_object_id_to_version_key" ON "change_notices"("task_id", "object_id", "to_version");

-- AddForeignKey
ALTER TABLE "workspace_objects" ADD CONSTRAINT "workspace_objects_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "object_versions" ADD CONSTRAINT "object_versions_object_id_fkey" FOREIGN KEY ("object_id") REFERENCES "workspace_objects"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Hand-written: versions are immutable history (an UPDATE is a bug, not a feature) and start at 1.
ALTER TABLE "object_versions" ADD CONSTRAINT "object_versions_version_positive" CHECK ("version" >= 1);
CREATE FUNCTION object_versions_immutable() RETURNS trigger AS $$
BEGIN
  RAISE EXCEPTION 'object versions are immutable';
END $$ LANGUAGE plpgsql;
CREATE TRIGGER object_versions_no_update BEFORE UPDATE ON "object_versions"
  FOR EACH ROW EXECUTE FUNCTION object_versions_immutable();
