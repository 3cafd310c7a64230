-- CreateEnum
CREATE TYPE "EgressHostSource" AS ENUM ('OWNER', 'MCP_SERVER', 'WEBHOOK', 'A2A_AGENT');

-- CreateTable
CREATE TABLE "egress_hosts" (
    "id" UUID NOT NULL,
    "workspace_id" UUID NOT NULL,
    "host" TEXT NOT NULL,
    "port" INTEGER NOT NULL,
    "source" "EgressHostSource" NOT NULL,
    "note" TEXT NOT NULL DEFAULT '',
    "created_by_id" UUID,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "egress_hosts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "egress_hosts_workspace_id_host_port_key" ON "egress_hosts"("workspace_id", "host", "port");

-- CreateIndex
CREATE UNIQUE INDEX "egress_hosts_workspace_id_id_key" ON "egress_hosts"("workspace_id", "id");

-- AddForeignKey
ALTER TABLE "egress_hosts" ADD CONSTRAINT "egress_hosts_workspace_id_fkey" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE CASCADE;
