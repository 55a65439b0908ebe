// The service's codes live in the contract (src/contract/codes.ts), shared by the
// client and the emulator; re-exported here for the client's own callers.
export * from '../contract/codes.js';
