-- What a step withholds (store/memory/uses.ts forgottenUses) joins the task's memory uses to the
-- versions now FORGOTTEN. With no index that yields just those, a task with many uses made the
-- planner hash every FORGOTTEN version of the database from a sequential scan of memory_versions
-- (seen under load in npm run bench:context: the plan flips once a task has ~150 uses). Forgotten
-- versions are rare, so the index is small, and the join reads them from it (or probes it per use)
-- instead of the whole table. Hand-written: Prisma cannot state a partial index.
CREATE INDEX "memory_versions_forgotten_idx" ON "memory_versions" ("id") WHERE "status" = 'FORGOTTEN';
