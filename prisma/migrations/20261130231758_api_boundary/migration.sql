-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "parent_token_id" UUID;

-- CreateTable
CREATE TABLE "idempotency_records" (
    "workspace_id" UUID NOT NULL,
    "user_id" UUID NOT NULL,
    "operation" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotency_records_pkey" PRIMARY KEY ("workspace_id","user_id","operation","key")
);

-- CreateIndex
CREATE INDEX "api_tokens_parent_token_id_idx" ON "api_tokens"("parent_token_id");

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_parent_token_id_fkey" FOREIGN KEY ("parent_token_id") REFERENCES "api_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;
