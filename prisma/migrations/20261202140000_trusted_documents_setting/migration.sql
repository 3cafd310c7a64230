-- Per workspace: whether its tokens may send documents of their own, or only trusted ones.
ALTER TABLE "workspace_settings" ADD COLUMN "trusted_documents_only" BOOLEAN NOT NULL DEFAULT false;
