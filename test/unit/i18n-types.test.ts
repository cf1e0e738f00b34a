/**
 * The variables of a key are typed from its English text: `tsc` (which checks this file with the
 * rest of the tree) fails on every line marked `@ts-expect-error` unless the line is an error,
 * so each such line proves that a missing, extra or misnamed variable is refused. The run-time
 * expectations show what the accepted calls produce.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { UserFacingError } from '../../src/bot/command.js';
import {
  type KeyWithVariables,
  Message,
  type PlainKey,
  t,
  translate,
  type VariableName,
} from '../../src/i18n/index.js';

describe('typed translation variables', () => {
  it('demands exactly the variables of the English text', () => {
    expect(t('en', 'error.datesReversed', { from: '2026-05-02', to: '2026-05-01' })).toBe(
      'The start date (2026-05-02) is after the end date (2026-05-01).',
    );
    // @ts-expect-error a variable is missing (`to`)
    expect(t('en', 'error.datesReversed', { from: '2026-05-02' })).toBe(
      'The start date (2026-05-02) is after the end date ({to}).',
    );
    // @ts-expect-error an extra variable (`until` is not in the text)
    expect(t('en', 'error.datesReversed', { from: 'a', to: 'b', until: 'c' })).toContain('(a)');
    // @ts-expect-error no variables at all for a text that has two
    expect(t('en', 'error.datesReversed')).toContain('{from}');
  });

  it('takes no variables for a text without placeholders', () => {
    expect(t('sv', 'help.name')).toBe('hjälp');
    expect(t('sv', 'help.name', {})).toBe('hjälp');
    // @ts-expect-error an extra variable on a text that has none
    expect(t('sv', 'help.name', { name: 'x' })).toBe('hjälp');
  });

  it('gives a plural text its count, a number', () => {
    expect(t('en', 'render.andMore', { count: 3 })).toBe('…and 3 more');
    // @ts-expect-error a plural text chooses its form by `count`
    expect(t('en', 'render.andMore', {})).toBe('…and {count} more');
    // @ts-expect-error the count is a number, not its text
    expect(t('en', 'render.andMore', { count: '3' })).toBe('…and 3 more');
  });

  it('refuses a key that no catalogue has', () => {
    // @ts-expect-error not a key
    expect(t('en', 'error.noSuchKey')).toBe('error.noSuchKey');
  });

  it('checks keys built from typed unions and the helpers over them', () => {
    const level = 'district' as 'national' | 'district';
    expect(t('sv', `render.level.${level}`)).toBe('Distriktstävling');
    expectTypeOf<VariableName<'linking.audit.moved'>>().toEqualTypeOf<'links' | 'requests' | 'subscriptions'>();
    expectTypeOf<'help.name'>().toMatchTypeOf<PlainKey>();
    expectTypeOf<'error.datesReversed'>().not.toMatchTypeOf<PlainKey>();
    expectTypeOf<'error.datesReversed'>().toMatchTypeOf<KeyWithVariables<'from' | 'to'>>();
    expectTypeOf<'error.datesReversed'>().not.toMatchTypeOf<KeyWithVariables<'from'>>();
  });

  it('checks a message made now and said later, as an error carries it', () => {
    expect(translate('nb', Message.of('error.datesReversed', { from: '1', to: '2' }))).toBe(
      'Startdatoen (1) er etter sluttdatoen (2).',
    );
    // @ts-expect-error a variable is missing
    expect(Message.of('error.datesReversed', { from: '1' }).key).toBe('error.datesReversed');
    const error = new UserFacingError('error.datesReversed', { from: '1', to: '2' });
    expect(translate('sv', error.said)).toBe('Startdatumet (1) ligger efter slutdatumet (2).');
    // @ts-expect-error an extra variable
    expect(new UserFacingError('error.notConfigured', { from: '1' }).key).toBe('error.notConfigured');
    // @ts-expect-error only Message.of makes a message, so nothing unchecked passes for one
    expect(() => translate('en', { key: 'error.datesReversed', vars: {} })).toThrow(TypeError);
  });
});
