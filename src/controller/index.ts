// The controller layer's entry: `startController(options)` and its types.

export { startController, type ControllerOptions, type RunningController } from './controller.js';
export { BRAND_STATES, type BrandState, type PassCounts } from './state.js';
export type { BrandStatus, ControllerStatus } from './status.js';
export type { LogFormat } from './log.js';
export { allowList } from './http.js';
export { DEFAULT_HISTORY_SIZE, MAX_HISTORY_SIZE, type PassRecord, type StepRecord, type Trigger } from './history.js';
export type { Revision } from './revision.js';
