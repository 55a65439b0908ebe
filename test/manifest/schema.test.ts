// The manifest schema agrees with src/spec/limits.ts (the emulator enforces
// the same table), is strict everywhere, and documents every property.

import { describe, expect, it } from 'vitest';
import { manifestSchema } from '../../src/manifest/index.js';
import { ENUMS, MAX_LENGTH, MAX_MENU_ITEMS, AGENCY_FILE } from '../../src/spec/limits.js';

type S = Record<string, unknown> & { properties?: Record<string, S>; definitions?: Record<string, S>; $ref?: string };
const schema = manifestSchema() as S;

/** Follow `#/definitions/x` references. */
function deref(s: S): S {
  if (s.$ref === undefined) return s;
  const name = s.$ref.replace('#/definitions/', '');
  const target = schema.definitions?.[name];
  if (target === undefined) throw new Error(`dangling $ref ${s.$ref}`);
  return { ...deref(target), ...Object.fromEntries(Object.entries(s).filter(([k]) => k !== '$ref')) };
}

/** The schema at a path of property names (`*` = any key of a map). */
function at(...path: string[]): S {
  let cur = schema;
  for (const p of path) {
    const d = deref(cur);
    const next = p === '*' ? (d.additionalProperties as S | undefined) : p === '[]' ? (d.items as S | undefined) : d.properties?.[p];
    if (next === undefined) throw new Error(`no schema at ${path.join('.')}`);
    cur = next;
  }
  return deref(cur);
}

describe('manifest schema', () => {
  it('carries the maximum lengths of src/spec/limits.ts', () => {
    const pairs: [S, number][] = [
      [at('brand', 'id'), MAX_LENGTH.brandId],
      [at('brand', 'key'), MAX_LENGTH.brandKey],
      [at('autoReplies', '*', 'name'), MAX_LENGTH.autoReplyMsgName],
      [at('autoReplies', '*', 'messagebaseId'), MAX_LENGTH.messagebaseId],
      [at('autoReplies', '*', 'id'), MAX_LENGTH.autoReplyMsgId],
      [at('autoReplies', '*', 'chipList', '[]', 'reply', 'displayText'), MAX_LENGTH.replyDisplayText],
      [at('autoReplies', '*', 'chipList', '[]', 'reply', 'autoReplyMsgId'), MAX_LENGTH.autoReplyMsgId],
      [at('logos', '*', 'name'), MAX_LENGTH.logoName],
      [at('logos', '*', 'description'), MAX_LENGTH.logoDescription],
      [at('logos', '*', 'fileId'), MAX_LENGTH.fileId],
      [at('chatbots', '*', 'subTitle'), MAX_LENGTH.subTitle],
      [at('chatbots', '*', 'subNum'), MAX_LENGTH.subNum],
      [at('chatbots', '*', 'subDescr'), MAX_LENGTH.subDescr],
      [at('chatbots', '*', 'persistentMenu', '[]', 'title'), MAX_LENGTH.menuTitle],
      [at('chatbots', '*', 'persistentMenu', '[]', 'autoReplyMsgId'), MAX_LENGTH.autoReplyMsgId],
      [at('agencyFiles', '*', 'messagebaseId'), MAX_LENGTH.messagebaseId],
    ];
    for (const [s, limit] of pairs) expect(s.maxLength).toBe(limit);
    expect((at('chatbots') as { propertyNames: S }).propertyNames.maxLength).toBe(MAX_LENGTH.chatbotId);
    expect((at('agencyFiles') as { propertyNames: S }).propertyNames.maxLength).toBe(MAX_LENGTH.agencyFileId);
  });

  it('carries the enumerations of src/spec/limits.ts', () => {
    expect(at('chatbots', '*', 'display').enum).toEqual(ENUMS.display);
    expect(at('chatbots', '*', 'inputField').enum).toEqual(ENUMS.inputField);
    expect(at('chatbots', '*', 'rcsReply').enum).toEqual(ENUMS.rcsReply);
    expect(at('chatbots', '*', 'saftyStatusYn').enum).toEqual(ENUMS.saftyStatusYn);
    expect(at('chatbots', '*', 'persistentMenu', '[]', 'type').enum).toEqual(ENUMS.menuType);
    expect(at('chatbots', '*', 'persistentMenu', '[]', 'actionType').enum).toEqual(ENUMS.menuActionType);
    expect(at('agencyFiles', '*', 'usageType').enum).toEqual(ENUMS.usageType);
    expect(at('agencyFiles', '*', 'mimeType').enum).toEqual(AGENCY_FILE.mimeTypes);
    expect(at('chatbots', '*', 'persistentMenu').maxItems).toBe(MAX_MENU_ITEMS);
  });

  it('is strict and documents every property', () => {
    const problems: string[] = [];
    const visit = (s: unknown, where: string): void => {
      if (Array.isArray(s)) return s.forEach((x, i) => visit(x, `${where}[${i}]`));
      if (s === null || typeof s !== 'object') return;
      const o = s as S;
      if (o.properties !== undefined) {
        if (o.additionalProperties !== false) problems.push(`${where}: object with properties is not closed`);
        for (const [k, v] of Object.entries(o.properties)) {
          if (typeof (v as S).description !== 'string') problems.push(`${where}.${k}: no description`);
        }
      }
      for (const [k, v] of Object.entries(o)) visit(v, `${where}.${k}`);
    };
    visit(schema, '#');
    for (const [name, def] of Object.entries(schema.definitions ?? {})) {
      if (typeof def.description !== 'string') problems.push(`definition ${name}: no description`);
    }
    // `if` conditions and `oneOf` branches are partial on purpose.
    expect(problems.filter((p) => !/\.(if|oneOf)/.test(p))).toEqual([]);
  });
});
