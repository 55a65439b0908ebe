// maxLength and minLength counted in UTF-16 code units, the unit rcsctl
// assumes the service counts (docs/decisions.md, "Lengths are counted in
// UTF-16 code units"). ajv counts code points unless given `unicode: false`,
// an option it marks deprecated and announces on every compile; these two
// keywords replace its own, with its messages and params, so no option is
// needed. The module imports nothing at run time (ajv's code tags are passed
// in): the build loads it before tsc has compiled anything
// (scripts/gen-validator.mjs), and the run-time compiler of schema-check.ts
// only when a kind is registered at run time.

import type { Ajv, KeywordCxt, KeywordDefinition, _ as CodeTag, str as StrTag } from 'ajv';

/** ajv's template tags for generated code (`import { _, str } from 'ajv'`). */
export interface CodeTags {
  _: typeof CodeTag;
  str: typeof StrTag;
}

/** The `maxLength`/`minLength` keyword definition, counting `String.length` (countLengthsInUtf16 puts it in place). */
export function utf16LengthKeyword({ _, str }: CodeTags): KeywordDefinition {
  return {
    keyword: ['maxLength', 'minLength'],
    type: 'string',
    schemaType: 'number',
    $data: true,
    error: {
      message: ({ keyword, schemaCode }) => str`must NOT have ${keyword === 'maxLength' ? 'more' : 'fewer'} than ${schemaCode} characters`,
      params: ({ schemaCode }) => _`{limit: ${schemaCode}}`,
    },
    code(cxt: KeywordCxt) {
      const { keyword, data, schemaCode } = cxt;
      cxt.fail$data(keyword === 'maxLength' ? _`${data}.length > ${schemaCode}` : _`${data}.length < ${schemaCode}`);
    },
  };
}

/** The string keywords ajv checks after the lengths, in its order. */
const AFTER_LENGTHS = ['pattern', 'format'];

/**
 * Swap ajv's length keywords on `ajv` for these. The string keywords after
 * them are taken out and put back after the new ones, so a string's checks run
 * in ajv's own order and its errors come in the order they always have (the
 * precompiled validator is the same code as with the old option).
 */
export function countLengthsInUtf16(ajv: Ajv, tags: CodeTags): void {
  const after = AFTER_LENGTHS.map((k) => ajv.getKeyword(k));
  ajv.removeKeyword('maxLength').removeKeyword('minLength');
  for (const k of AFTER_LENGTHS) ajv.removeKeyword(k);
  ajv.addKeyword(utf16LengthKeyword(tags));
  for (const def of after) if (typeof def === 'object') ajv.addKeyword(def);
}
