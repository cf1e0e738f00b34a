import { describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.js';
import { languageFor, LANGUAGES, t } from '../src/i18n/index.js';

describe('i18n', () => {
  it('maps Discord locales onto languages', () => {
    expect(languageFor('sv-SE')).toBe('sv');
    expect(languageFor('no')).toBe('nb');
    expect(languageFor('en-GB')).toBe('en');
    expect(languageFor('de')).toBe('en');
    expect(languageFor(undefined)).toBe('en');
  });

  it('fills placeholders and translates every key into every language', () => {
    expect(t('sv', 'error.datesReversed', { from: '2026-05-02', to: '2026-05-01' })).toBe('Startdatumet (2026-05-02) ligger efter slutdatumet (2026-05-01).');
    for (const language of LANGUAGES) {
      for (const key of Object.keys(en) as Array<keyof typeof en>) {
        const text = t(language, key);
        expect(text.length).toBeGreaterThan(0);
        // Placeholders must survive translation, or a value would silently go missing.
        expect([...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort()).toEqual([...en[key].matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort());
      }
    }
  });
});
