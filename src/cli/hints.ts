// What to do next, for the service errors people meet most: printed under the
// error by the one error handler in src/cli/main.ts.

import { RcsApiError } from '../api/errors.js';
import { ERRORS } from '../contract/codes.js';
import { docsLink } from '../version.js';

const HINTS: Record<string, string> = {
  // The service answers a missing token and an unknown one alike (the service reference, Authentication).
  [ERRORS.invalidToken.code]:
    'the service did not accept the token (it does not know it, or none reached it): check RCSCTL_TOKEN or the --token-file contents, and that --base-url is the service the token is for',
  [ERRORS.tokenExpired.code]: 'the token has expired: get a new one, or set RCSCTL_CLIENT_ID and RCSCTL_CLIENT_SECRET so rcsctl fetches and renews tokens itself',
  [ERRORS.invalidClientId.code]: 'the service does not know RCSCTL_CLIENT_ID',
  [ERRORS.invalidSecret.code]: 'RCSCTL_CLIENT_SECRET does not match RCSCTL_CLIENT_ID',
  [ERRORS.noBrandPermission.code]: 'this account holds no brand role on the brand: ask the brand representative to grant one',
  [ERRORS.missingBrandKey.code]: 'agency accounts must send the brand key: add `key: "${env:BRAND_KEY}"` under `brand:` in the manifest (for saved plans: RCSCTL_BRAND_KEY_<brandId with _ for . and ->)',
  [ERRORS.invalidBrandKey.code]: 'the brand key does not match the brand: check `brand.key` in the manifest (or RCSCTL_BRAND_KEY_<brandId> for saved plans)',
  [ERRORS.tooManyRequests.code]: 'the service is rate-limiting: --concurrency auto (the default) slows down to its limit; a fixed --concurrency does not',
};

/** In the sandbox the emulator's seed, not a person, decides who may do what. */
const SANDBOX_HINTS: Record<string, string> = {
  [ERRORS.noBrandPermission.code]:
    'the sandbox knows the brands of its seed (the example seed has only BR.demo000001) plus every brand the manifests given to this command declare; ' +
    `run the command with the manifest paths, or pass --seed FILE with an account that holds a role on the brand (${docsLink('emulator.md#seed-format')})`,
  [ERRORS.invalidBrandKey.code]: 'the sandbox seed gives this brand another key than the manifest: use the seed\'s brandKey, or leave the brand out of the seed so the sandbox takes the manifest\'s',
};

/** A hint for `err`, or undefined; `sandbox` when the command ran against --sandbox. */
export function hintFor(err: unknown, opts: { sandbox?: boolean } = {}): string | undefined {
  if (!(err instanceof RcsApiError)) return undefined;
  if (err.httpStatus === 404 && err.nothingAnsweredBefore === true) return wrongAddressHint(err.path, err.basePath ?? '');
  return hintForCode(err.serviceCode, opts);
}

/** A version path of the service's interfaces (`/api/1.1`, `/ag/1.2`), which rcsctl adds to the base URL itself. */
const VERSION_PATH = /\/(api|ag)\/\d+(\.\d+)*\/?$/;

/**
 * A 404 before the service answered anything: the base URL is wrong, most
 * often because it already holds the version path (docs/configuration.md).
 */
function wrongAddressHint(path: string, basePath: string): string {
  const versioned = VERSION_PATH.test(basePath) ? ` (it ends in ${basePath}, and rcsctl adds the version path itself: requests went to ${path})` : ` (requests went to ${path})`;
  return `the service has no such route: check the base URL (--base-url or RCSCTL_BASE_URL)${versioned}; give it without the version path, e.g. https://host, not https://host/api/1.1 (${docsLink('configuration.md')})`;
}

/** A hint for a service error code (doctor reads answers raw, not as errors), or undefined. */
export function hintForCode(serviceCode: string, opts: { sandbox?: boolean } = {}): string | undefined {
  return (opts.sandbox === true ? SANDBOX_HINTS[serviceCode] : undefined) ?? HINTS[serviceCode];
}
