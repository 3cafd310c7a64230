-- AlterEnum
ALTER TYPE "ApprovalStatus" ADD VALUE 'SUPERSEDED';

-- AlterTable
ALTER TABLE "cards" ADD COLUMN     "answer_key" TEXT,
ADD COLUMN     "answered_by_id" UUID;
