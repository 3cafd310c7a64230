-- CreateTable
CREATE TABLE "task_embeddings" (
    "task_id" UUID NOT NULL,
    "model" TEXT NOT NULL,
    "text_hash" TEXT NOT NULL,
    "vector" REAL[],
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "task_embeddings_pkey" PRIMARY KEY ("task_id")
);

-- Hand-written: embeddings go with their task.
ALTER TABLE task_embeddings ADD CONSTRAINT task_embeddings_task_fkey FOREIGN KEY (task_id) REFERENCES tasks(id) ON DELETE CASCADE;
