-- AlterTable
ALTER TABLE "task_events" ADD COLUMN     "worker_id" TEXT;
