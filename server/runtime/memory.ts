// The runtime's port to long-term memory (implemented in server/services/memory/worker-context.ts,
// wired in app.ts). Optional: without it the worker runs with no memory section.
export type WorkerMemoryContext = {
  /** A delimited system section (profile + relevant memories with citations), or null. */
  section: string | null;
  /** Steps (by id) whose replies relied on forgotten memory: their text is withheld from the context. */
  withheldStepIds: string[];
  /** Inbox items whose source message was revoked as evidence: withheld from the context. */
  withheldInboxIds: string[];
};

export type WorkerMemory = {
  /** For the step at `stepOrdinal` (0-based, task order). Never throws; degrades to no section. */
  contextFor(taskId: string, stepOrdinal: number): Promise<WorkerMemoryContext>;
};
