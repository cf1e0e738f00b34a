import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CUSTOM_ID_MAX, customIdCodec, customIdName } from '../../src/bot/custom-ids.js';

const page = customIdCodec(
  'results:page',
  z.object({
    who: z.enum(['p', 'c']),
    personId: z.string().regex(/^\d+$/).optional(),
    eventId: z.string().regex(/^\d+$/).optional(),
    splits: z.boolean(),
    top: z.number().int().min(0).max(10),
    page: z.number().int().min(1),
  }),
);

describe('customIdCodec', () => {
  it('encodes a typed payload compactly and decodes the same value back', () => {
    const value = { who: 'p' as const, personId: '123', splits: true, top: 0, page: 2 };
    const id = page.encode(value);
    expect(id).toBe('results:page:p:123::1:0:2');
    expect(page.decode(id)).toEqual(value);
    expect(customIdName(id)).toBe('results:page');
  });

  it('drops trailing empty fields, and an id without a payload is its name', () => {
    const key = customIdCodec('setup:key', z.object({ instance: z.string().min(1), ref: z.string().optional() }));
    expect(key.encode({ instance: 'no' })).toBe('setup:key:no');
    expect(key.decode('setup:key:no')).toEqual({ instance: 'no' });
    const button = customIdCodec('login:button', z.object({}));
    expect(button.encode({})).toBe('login:button');
    expect(button.decode('login:button')).toEqual({});
  });

  it('escapes a separator inside a string, so it cannot shift the fields', () => {
    const note = customIdCodec('a:b', z.object({ text: z.string(), n: z.number() }));
    const id = note.encode({ text: 'x:y%', n: 3 });
    expect(id.split(':')).toHaveLength(4);
    expect(note.decode(id)).toEqual({ text: 'x:y%', n: 3 });
  });

  it('refuses forged, stale and foreign ids with null instead of throwing', () => {
    for (const forged of [
      'results:page:x:123::1:0:2', // not an enum value
      'results:page:p:123::1:0:0', // page below 1
      'results:page:p:123::1:0:2:extra', // a field too many
      'results:page:p:12a::1:0:2', // not an id
      'results:page:p:123::true:0:2', // a boolean in another spelling
      'results:page:p:123::1:zero:2', // not a number
      'results:page:p:%E0%A4%A::1:0:2', // a broken escape
      'results:pages:p:123::1:0:2', // another codec's name
      'results:page', // the payload missing
      `results:page:p:${'1'.repeat(CUSTOM_ID_MAX)}::1:0:2`, // longer than Discord allows
    ])
      expect(page.decode(forged), forged).toBeNull();
  });

  it("throws when an id would be over Discord's 100 characters, or does not fit its schema", () => {
    const long = customIdCodec('x:y', z.object({ text: z.string() }));
    expect(long.encode({ text: 'a'.repeat(CUSTOM_ID_MAX - 4) })).toHaveLength(CUSTOM_ID_MAX);
    expect(() => long.encode({ text: 'a'.repeat(CUSTOM_ID_MAX - 3) })).toThrow(RangeError);
    expect(() => page.encode({ who: 'p', splits: true, top: 11, page: 1 })).toThrow();
  });

  it('refuses a name the router could not dispatch on', () => {
    expect(() => customIdCodec('results', z.object({}))).toThrow(TypeError);
    expect(() => customIdCodec('results:page:x', z.object({}))).toThrow(TypeError);
  });
});
