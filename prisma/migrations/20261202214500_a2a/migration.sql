-- CreateTable
CREATE TABLE "a2a_push_configs" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "task_id" UUID NOT NULL,
    "config_id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "credential_id" TEXT NOT NULL,
    "last_seq" INTEGER NOT NULL DEFAULT 0,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "a2a_push_configs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "a2a_remote_agents" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "jwks_url" TEXT,
    "public_jwk" JSONB,
    "allowed_skills" TEXT[],
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "a2a_remote_agents_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "a2a_push_configs_workspace_id_task_id_idx" ON "a2a_push_configs"("workspace_id", "task_id");

-- CreateIndex
CREATE UNIQUE INDEX "a2a_push_configs_task_id_config_id_key" ON "a2a_push_configs"("task_id", "config_id");

-- CreateIndex
CREATE UNIQUE INDEX "a2a_remote_agents_workspace_id_name_key" ON "a2a_remote_agents"("workspace_id", "name");
