// The offline model's creative flows: explicit rules, no reasoning, no randomness. With no model
// configured a new user can still explore the whole product: the offline model recognises the class
// of a request (classify: vocabularies per class and language, en/de/fr/es/zh/ja, and a count
// parser) and plans a checklist for it — a poster or image series of any count, a single image, a
// video (storyboard, confirmation, shots), an image turned into a video, a document (storyboard,
// brief, text), a 3D model or a sound; calls the generation tools; stops at checkpoints with cards;
// follows a change of direction by re-opening the steps it touches (its document is read, then
// edited, never copied); and delivers. Every text it writes says it is the offline model. It reads
// only what the runtime gives every model: the task brief, the conversation and the "[task state]"
// block (runtime/checklist.ts renderChecklist).
//
// The parts live in ./offline/: the vocabularies, cue and count parsing and classification, the
// checklist parser, the document templates and the flow itself; this module is what importers use.

export { parseChecklist } from './offline/checklist.ts';
export { classify, planSteps, type Plan } from './offline/classify.ts';
export { normalizeRequest } from './offline/cues.ts';
export { offlineFlowReply, type FlowCall, type FlowReply } from './offline/flow.ts';
