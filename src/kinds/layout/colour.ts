// A layout button's colour as the service keeps it: the service sets any
// colour other than the brand's templateColor to that colour, and an empty
// one is the default colour (docs/decisions.md, "Layouts"). rcsctl knows the
// templateColor when the manifests declare it (`brandProfile.templateColor`):
// an agency's run, the only one that reads layouts, cannot read the brand's
// page. Lint says what the service will do with another colour; the plan
// compares, and the preview draws, the colour the service will keep.

import type { DesiredBrand, SourceLocation } from '../../manifest/types.js';
import { PROFILE_KEY } from '../brand-profile/types.js';

/** The brand's templateColor as its manifests declare it, and where. */
export function declaredTemplateColor(brand: DesiredBrand): { colour: string; source: SourceLocation } | undefined {
  const profile = brand.brandProfile?.get(PROFILE_KEY);
  return profile?.templateColor === undefined ? undefined : { colour: profile.templateColor, source: profile.source };
}

/** The colour a button given `given` gets from the service when the brand's templateColor is `template`: unchanged when empty, the same colour or `template` unknown. */
export function keptColour(given: unknown, template: string | undefined): unknown {
  if (typeof given !== 'string' || given === '' || template === undefined) return given;
  return given.toUpperCase() === template.toUpperCase() ? given : template;
}

/** Options with a button's colour as the service keeps it. */
export function withKeptColour(options: Record<string, unknown>, template: string | undefined): Record<string, unknown> {
  if (!('color' in options)) return options;
  const kept = keptColour(options.color, template);
  return kept === options.color ? options : { ...options, color: kept };
}
