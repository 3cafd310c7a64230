-- CreateEnum
CREATE TYPE "McpTransport" AS ENUM ('HTTP', 'STDIO');

-- CreateEnum
CREATE TYPE "McpTrust" AS ENUM ('TRUSTED', 'UNTRUSTED');

-- CreateEnum
CREATE TYPE "McpServerStatus" AS ENUM ('ACTIVE', 'QUARANTINED', 'DISABLED');

-- CreateTable
CREATE TABLE "mcp_servers" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "transport" "McpTransport" NOT NULL,
    "url" TEXT,
    "command" TEXT,
    "args" TEXT[],
    "trust" "McpTrust" NOT NULL DEFAULT 'TRUSTED',
    "status" "McpServerStatus" NOT NULL DEFAULT 'ACTIVE',
    "quarantine_reason" TEXT,
    "pinned" JSONB,
    "observed" JSONB,
    "allowed_tools" JSONB,
    "tool_overrides" JSONB NOT NULL DEFAULT '{}',
    "price_cents_per_call" INTEGER,
    "domains" TEXT[],
    "auth_secret_cipher" TEXT,
    "version" INTEGER NOT NULL DEFAULT 1,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_servers_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "mcp_server_versions" (
    "id" UUID NOT NULL,
    "server_id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "version" INTEGER NOT NULL,
    "actor_kind" "ActorKind" NOT NULL,
    "actor_id" TEXT,
    "change" TEXT NOT NULL,
    "snapshot" JSONB NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "mcp_server_versions_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "mcp_servers_workspace_id_name_key" ON "mcp_servers"("workspace_id", "name");

-- CreateIndex
CREATE UNIQUE INDEX "mcp_servers_workspace_id_id_key" ON "mcp_servers"("workspace_id", "id");

-- CreateIndex
CREATE INDEX "mcp_server_versions_workspace_id_server_id_created_at_idx" ON "mcp_server_versions"("workspace_id", "server_id", "created_at");

-- CreateIndex
CREATE UNIQUE INDEX "mcp_server_versions_server_id_version_key" ON "mcp_server_versions"("server_id", "version");

-- AddForeignKey
ALTER TABLE "mcp_servers" ADD CONSTRAINT "mcp_servers_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "mcp_server_versions" ADD CONSTRAINT "mcp_server_versions_server_id_fkey" FOREIGN KEY ("server_id") REFERENCES "mcp_servers"("id") ON DELETE CASCADE ON UPDATE CASCADE;
