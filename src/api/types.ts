// The wire shapes live in the contract (src/contract/wire.ts), shared by the
// client and the emulator; re-exported here for the client's own callers.
export type * from '../contract/wire.js';
