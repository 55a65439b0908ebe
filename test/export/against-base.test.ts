// The pure parts of `export --base`: the merge patch from what a base sets to
// what is live, and the variables read off live values.

import { describe, expect, it } from 'vitest';
import { mergePatch } from '../../src/export/against-base.js';
import { variablesFor } from '../../src/export/base-variables.js';

describe('mergePatch', () => {
  it('is nothing for equal values, a field for a changed one, null for one live lacks; lists replace whole', () => {
    expect(mergePatch({ a: 1, b: { c: 'x' } }, { a: 1, b: { c: 'x' } })).toEqual({ patch: undefined, extra: false });
    expect(mergePatch({ a: 1, b: { c: 'x', d: 'y' } }, { a: 1, b: { c: 'z' } })).toEqual({ patch: { b: { c: 'z', d: null } }, extra: false });
    expect(mergePatch({ list: [1, 2] }, { list: [2] })).toEqual({ patch: { list: [2] }, extra: false });
    expect(mergePatch({ a: 1 }, undefined)).toEqual({ patch: null, extra: false });
  });
  it('says when live has a field the base does not set (an override cannot add one)', () => {
    expect(mergePatch({ body: { title: 't' } }, { body: { title: 't', media: { file: 'x' } } }).extra).toBe(true);
  });
});

const variables = new Map([
  ['city', { type: 'string' as const, required: true }],
  ['seats', { type: 'number' as const, required: false, default: 24 }],
]);
const base = {
  variables,
  sections: [{ autoReplies: { hours: { name: 'Hours ${var:city}', body: { description: '${var:seats} seats in ${var:city}.' } }, other: { name: 'Other', body: { description: 'plain' } } } }],
};
const choice = (given: Record<string, string> = {}): Map<string, string> => new Map(Object.entries(given));

describe('variablesFor', () => {
  it('reads each variable off the live entry its texts fit, typed; one at its default is not written', () => {
    const live = { autoReplies: { 'hours-busan': { name: 'Hours Busan', body: { description: '24 seats in Busan.' } }, other: { name: 'Other', body: { description: 'plain' } } } };
    const r = variablesFor(base, choice(), live);
    expect(r.values).toEqual({ city: 'Busan' });
    expect(r.lines).toEqual(['variable city = "Busan" (read off the live brand)', 'variable seats = 24 (its default, as live)']);
    expect(variablesFor(base, choice(), { autoReplies: { h: { name: 'Hours Jeju', body: { description: '30 seats in Jeju.' } } } }).values).toEqual({ city: 'Jeju', seats: 30 });
  });
  it('a given value wins; a text an override changed does not stop the others from being read', () => {
    const live = { autoReplies: { h: { name: 'Hours Seoul', body: { description: 'Open late.' } } } };
    expect(variablesFor(base, choice({ seats: '60' }), live).values).toEqual({ city: 'Seoul', seats: 60 });
  });
  it('refuses a required variable nothing shows, or that two live entries fit equally, naming --var', () => {
    expect(() => variablesFor(base, choice(), { autoReplies: {} })).toThrow('variable city of the base: no live value shows it; give it with --var city=VALUE');
    const two = { autoReplies: { a: { name: 'Hours Seoul' }, b: { name: 'Hours Busan' } } };
    expect(() => variablesFor(base, choice(), two)).toThrow('give it with --var city=VALUE');
  });
  it('refuses a --var the base does not declare, or of the wrong type', () => {
    expect(() => variablesFor(base, choice({ town: 'x' }), {})).toThrow('--var town: the base declares no such variable (it declares city, seats)');
    expect(() => variablesFor(base, choice({ seats: 'many' }), {})).toThrow('--var seats=many: the variable is a number');
  });
});
