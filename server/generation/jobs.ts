// The job lifecycle in the database, by part: placing and submitting an order (order.ts), recording
// answers and settling holds (record.ts), callbacks and polls (callbacks.ts), reconciliation and
// cancellation (reconcile.ts), with the SQL in store/generation-jobs.ts and store/ledger-holds.ts. The
// same names stay importable from here for the app, services, the runtime's tools and tests.
export type { JobDeps, OnJobEnd } from './job-deps.ts';
export { orderGeneration, submitGeneration, type OrderGate, type OrderResult } from './order.ts';
export { applyUpdate, listenToProvider } from './callbacks.ts';
export { cancelUnwantedJobs, reconcileJobs } from './reconcile.ts';
export { ledgerSummary } from '../store/ledger-holds.ts';
