// Types of scripts/gen-validator.mjs (plain JavaScript, run by the build before tsc).

/** Where the generated validator is written. */
export declare const VALIDATOR_PATH: string;
/** The generated module's source text. */
export declare function generateValidatorSource(): Promise<string>;
