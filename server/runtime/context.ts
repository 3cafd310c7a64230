// The worker's context, by part: the fixed prompt text (context/prompt.ts), the pure rendering of
// history into messages and the request digest (context/render.ts), and the loading of what it is
// rendered from (context/load.ts, with the queries in store/journal). The same names stay importable
// from here for the engine, replay and tests.
export { WORKER_SYSTEM_PROMPT } from './context/prompt.ts';
export {
  assembleWorkerInput,
  digestRequest,
  dynamicsOf,
  renderContext,
  renderTaskState,
  reviseOrdinalsOf,
  toolResultContent,
  type ContextInputs,
  type TaskDynamics,
  type TaskKnowledge,
} from './context/render.ts';
export { buildWorkerInput, loadContextInputs } from './context/load.ts';
export { loadCompactions } from '../store/journal/compactions.ts';
export { loadTaskInbox, loadTaskNotices } from '../store/journal/inbox.ts';
export { loadTaskSteps } from '../store/journal/steps.ts';
export type { HistoryInbox, HistoryNotice, HistoryStep } from '../domain/history.ts';
