// The layer rules of docs/architecture.md, checked by dependency-cruiser in
// `npm test` (test/layers.test.ts) and by `npm run lint:layers`. Type-only
// imports count: a layer that needs another's types depends on it.
//
// From the bottom up: util, spec, api (the client), core, the manifest's
// building blocks, kinds, the manifest loader, plan, apply, report, export,
// preview and graph, render, controller, cli; the emulator stands beside the
// client and shares only spec, util and the contract.
//
// src/manifest/ is two layers in one folder, on purpose: its building blocks
// (source positions, local files, codes, suggestions, types, YAML reading) sit
// below the kinds, which build their sections with them; its loader
// (load-manifests, build-brand, lint, schema-check and the index) sits above
// the kinds, which it runs through the registry. Both halves are about one
// thing, reading manifests, so they share a folder; the two rules on
// src/manifest and src/kinds below keep the halves apart, so the folder's
// import of src/kinds never closes a cycle.

const MANIFEST_LOADER = '^src/manifest/(index|load-manifests|build-brand|lint|schema-check)\\.ts$';

const STAGES = 'plan|apply|report|export|render|preview|graph|doctor|controller|policy';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'util-at-the-bottom',
      comment: 'src/util/ holds helpers every layer may use; it imports no other part of rcsctl but the error class (its layer).',
      severity: 'error',
      from: { path: '^src/util/' },
      to: { path: '^src/', pathNot: '^src/(util/|errors\\.ts$)' },
    },
    {
      name: 'core-at-the-bottom',
      comment: 'src/core/ holds the nouns every stage shares (Step, Gate, FieldChange, Finding, LiveBrand); it imports only util, the error class and the version.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/', pathNot: '^src/(core/|util/|errors\\.ts$|version\\.ts$)' },
    },
    {
      name: 'spec-below-the-stages',
      comment: 'src/spec/ states service facts shared by schema, kinds and emulator; it imports no stage, kind or client runtime.',
      severity: 'error',
      from: { path: '^src/spec/' },
      to: { path: `^src/(core|manifest|kinds|emulator|cli|${STAGES})/` },
    },
    {
      name: 'client-below-the-stages',
      comment: 'The client (src/api/) knows the service, not what rcsctl does with it.',
      severity: 'error',
      from: { path: '^src/api/' },
      to: { path: `^src/(core|manifest|kinds|emulator|cli|${STAGES})/` },
    },
    {
      name: 'manifest-building-blocks-know-no-kind',
      comment: 'The manifest building blocks sit below the kinds (which build their sections with them); only the loader runs the kinds.',
      severity: 'error',
      from: { path: '^src/manifest/', pathNot: MANIFEST_LOADER },
      to: { path: '^src/kinds/' },
    },
    {
      name: 'manifest-below-the-stages',
      comment: 'Loading manifests needs the kinds (the loader runs their sections) but no stage.',
      severity: 'error',
      from: { path: '^src/manifest/' },
      to: { path: `^src/(emulator|cli|${STAGES})/` },
    },
    {
      name: 'kinds-import-no-stage',
      comment: 'A kind owns its edges: it imports core, spec, contract, api, util and the manifest building blocks, never a stage (plan, apply, report, export, render, cli).',
      severity: 'error',
      from: { path: '^src/kinds/' },
      to: { path: `^src/(emulator|cli|${STAGES})/` },
    },
    {
      name: 'kinds-use-manifest-building-blocks',
      comment: 'Kinds import the manifest building blocks (source, local files, codes, suggest, types), never the assembling loader that runs them.',
      severity: 'error',
      from: { path: '^src/kinds/' },
      to: { path: MANIFEST_LOADER },
    },
    {
      name: 'stages-reach-kinds-through-the-registry',
      comment: 'Generic stages never name a kind: they import src/kinds/index.ts and the top level of src/kinds/, never a kind folder.',
      severity: 'error',
      from: { path: `^src/(manifest|${STAGES})/` },
      to: { path: '^src/kinds/[^/]+/' },
    },
    {
      name: 'plan-below-apply-and-report',
      comment: 'Planning is pure and comes first: it imports neither apply, report, export, preview, graph, render nor cli.',
      severity: 'error',
      from: { path: '^src/plan/' },
      to: { path: '^src/(apply|report|export|preview|graph|render|cli|doctor)/' },
    },
    {
      name: 'policy-evaluates-no-network',
      comment: 'Policies are evaluated over manifests and plans in a sandbox (src/policy/); they read no service and render nothing.',
      severity: 'error',
      from: { path: '^src/policy/' },
      to: { path: '^src/(api|apply|report|export|preview|graph|render|cli|doctor|controller|emulator)/' },
    },
    {
      name: 'plan-below-policy',
      comment: 'Planning comes before the policies that check a plan: plan does not import src/policy/.',
      severity: 'error',
      from: { path: '^src/plan/' },
      to: { path: '^src/policy/' },
    },
    {
      name: 'apply-below-report-and-render',
      comment: 'Applying imports plan and the kinds; it renders nothing and knows no report.',
      severity: 'error',
      from: { path: '^src/apply/' },
      to: { path: '^src/(report|export|preview|graph|render|cli|doctor)/' },
    },
    {
      name: 'report-below-render',
      comment: 'The drift report model imports plan and the kinds; rendering it is src/render/.',
      severity: 'error',
      from: { path: '^src/report/' },
      to: { path: '^src/(apply|export|preview|graph|render|cli|doctor)/' },
    },
    {
      name: 'export-below-render',
      comment: 'Export turns a live brand into manifests through the kinds; it needs no plan, apply, report or rendering.',
      severity: 'error',
      from: { path: '^src/export/' },
      to: { path: '^src/(plan|apply|report|preview|graph|render|cli|doctor)/' },
    },
    {
      name: 'preview-and-graph-read-no-network',
      comment: 'Preview and graph read DesiredBrand and plans; they never reach the service, apply, or the CLI.',
      severity: 'error',
      from: { path: '^src/(preview|graph)/' },
      to: { path: '^src/(api|apply|report|export|render|cli|emulator|doctor)/' },
    },
    {
      name: 'render-imports-no-cli',
      comment: 'src/render/ turns results into text for any caller (the CLI, a program, a CI step); terminal interaction stays in src/cli/.',
      severity: 'error',
      from: { path: '^src/render/' },
      to: { path: '^src/(cli|apply|export|emulator|api|doctor)/' },
    },
    {
      name: 'only-bin-imports-cli',
      comment: 'Nothing imports src/cli/ but the CLI itself and its launchers (bin/, the demo and soak scripts); the library entry (src/index.ts) does not.',
      severity: 'error',
      from: { pathNot: '^(src/cli/|bin/|scripts/|test/)' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'no-command-imports-another',
      comment: 'Commands share code through src/cli/*.ts or the layers below, never through another command.',
      severity: 'error',
      from: { path: '^src/cli/commands/([^/]+)\\.ts$' },
      to: { path: '^src/cli/commands/', pathNot: '^src/cli/commands/$1\\.ts$' },
    },
    {
      name: 'emulator-shares-only-the-contract',
      comment: 'The emulator is a separate reading of the service: it imports spec, util, the error class and src/contract/, never the client (src/api/) nor a stage.',
      severity: 'error',
      from: { path: '^src/emulator/' },
      to: { path: `^src/(api|core|manifest|kinds|cli|${STAGES})/` },
    },
    {
      name: 'only-cli-and-library-start-the-emulator',
      comment: 'Outside the CLI (--sandbox, rcsctl emulator) and the library entry (startEmulator), nothing imports the emulator.',
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(emulator/|cli/|index\\.ts$)' },
      to: { path: '^src/emulator/' },
    },
    {
      name: 'controller-is-a-driver',
      comment: 'src/controller/ drives plan, apply and the drift report as the CLI does, and holds no reconciliation of its own; it imports neither the CLI, the emulator, a renderer, export, preview, graph nor doctor.',
      severity: 'error',
      from: { path: '^src/controller/' },
      to: { path: '^src/(cli|emulator|render|export|preview|graph|doctor)/' },
    },
    {
      name: 'no-stage-imports-the-controller',
      comment: 'The controller sits on top, beside the CLI: no stage below it imports it (the CLI command and the library entry do).',
      severity: 'error',
      from: { path: '^src/(plan|apply|report|export|render|preview|graph|doctor)/' },
      to: { path: '^src/controller/' },
    },
    {
      name: 'no-cycle',
      comment: 'No module reaches itself through its imports (type-only ones count): a cycle makes the load order decide what is defined, and hides which of two modules is the lower one. Break it with an interface declared by the module that needs it.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js', '.mjs', '.json'] },
  },
};
