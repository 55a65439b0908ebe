// The manifest stage's public surface.

export { loadManifests, manifestFilesUnder, type LoadOptions } from './load-manifests.js';
export { renderDiagnostics, hasErrors, sortDiagnostics, diagnosticExcerpt } from './render-diagnostics.js';
export { DIAGNOSTIC_CODES, type DiagnosticCode } from './codes.js';
export { manifestSchema, manifestSchemaPath } from './schema-check.js';
export type * from './types.js';
export { effectiveManifest, explainResource, type Explained } from './effective.js';
