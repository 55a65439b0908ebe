// The controller layer's entry: `startController(options)` and its types.

export { startController, type ControllerOptions, type RunningController } from './controller.js';
export { BRAND_STATES, type BrandState, type PassCounts } from './state.js';
export type { BrandStatus, ControllerStatus } from './status.js';
export type { LogFormat } from './log.js';
export { allowList } from './http.js';
