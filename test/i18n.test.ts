import { describe, expect, it } from 'vitest';
import { discordLocalizations, languageFor, LANGUAGES, MESSAGE_KEYS, t } from '../src/i18n/index.js';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('i18n', () => {
  it('maps Discord locales onto languages', () => {
    expect(languageFor('sv-SE')).toBe('sv');
    expect(languageFor('no')).toBe('nb');
    expect(languageFor('en-GB')).toBe('en');
    expect(languageFor('de')).toBe('en');
    expect(languageFor(undefined)).toBe('en');
  });

  it('fills placeholders', () => {
    expect(t('sv', 'error.datesReversed', { from: '2026-05-02', to: '2026-05-01' })).toBe('Startdatumet (2026-05-02) ligger efter slutdatumet (2026-05-01).');
    expect(discordLocalizations('error.eventNotFound')['sv-SE']).toBe('Jag hittade inte det arrangemanget i Eventor.');
  });

  it('translates every key into every language, keeping its placeholders', () => {
    expect(MESSAGE_KEYS.length).toBeGreaterThan(0);
    for (const key of MESSAGE_KEYS) {
      for (const language of LANGUAGES) {
        const text = t(language, key);
        expect(text.trim().length, `${language} ${key}`).toBeGreaterThan(0);
        expect(placeholders(text), `${language} ${key}`).toEqual(placeholders(t('en', key)));
      }
    }
  });
});
