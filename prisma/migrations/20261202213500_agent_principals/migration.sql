-- AlterTable
ALTER TABLE "task_events" ADD COLUMN     "actor_run" TEXT,
ADD COLUMN     "actor_version" INTEGER;

-- CreateTable
CREATE TABLE "agent_principals" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "parent_id" UUID,
    "scopes" TEXT[],
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_principals_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "agent_principal_versions" (
    "id" UUID NOT NULL,
    "principal_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "actor_kind" "ActorKind" NOT NULL,
    "actor_id" TEXT,
    "change" TEXT NOT NULL,
    "snapshot" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "agent_principal_versions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "agent_principals_parent_id_idx" ON "agent_principals"("parent_id");

-- CreateIndex
CREATE UNIQUE INDEX "agent_principals_workspace_id_name_key" ON "agent_principals"("workspace_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "agent_principals_workspace_id_id_key" ON "agent_principals"("workspace_id", "id");

-- One main agent per workspace (the principal without a parent): its lazy creation is an
-- INSERT … ON CONFLICT on this index, so concurrent first turns create it once.
CREATE UNIQUE INDEX "agent_principals_main_key" ON "agent_principals"("workspace_id") WHERE "parent_id" IS NULL;

-- CreateIndex
CREATE INDEX "agent_principal_versions_workspace_id_principal_id_created_at_idx" ON "agent_principal_versions"("workspace_id", "principal_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "agent_principal_versions_principal_id_version_key" ON "agent_principal_versions"("principal_id", "version");

-- AddForeignKey
ALTER TABLE "agent_principals" ADD CONSTRAINT "agent_principals_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_principals" ADD CONSTRAINT "agent_principals_parent_id_fkey" FOREIGN KEY ("parent_id") REFERENCES "agent_principals"("id") ON DELETE NO ACTION ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "agent_principal_versions" ADD CONSTRAINT "agent_principal_versions_principal_id_fkey" FOREIGN KEY ("principal_id") REFERENCES "agent_principals"("id") ON DELETE CASCADE ON UPDATE CASCADE;
