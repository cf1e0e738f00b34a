/**
 * Translations. Handlers never write user-facing text inline: they name a key, and the text
 * follows the member's Discord locale (replies) or the server's chosen language (automatic posts).
 */
import { en, type MessageKey } from './en.js';
import { nb } from './nb.js';
import { sv } from './sv.js';

export type { MessageKey };
export type Language = 'en' | 'sv' | 'nb';
export const LANGUAGES: readonly Language[] = ['en', 'sv', 'nb'];

const CATALOGUES: Record<Language, Record<MessageKey, string>> = { en, sv, nb };

/** Discord locales (`en-US`, `en-GB`, `sv-SE`, `no`) and language tags onto our languages; English otherwise. */
export function languageFor(locale: string | null | undefined): Language {
  const tag = (locale ?? '').toLowerCase();
  if (tag.startsWith('sv')) return 'sv';
  if (tag === 'no' || tag.startsWith('nb') || tag.startsWith('nn') || tag.startsWith('no-')) return 'nb';
  return 'en';
}

export function t(language: Language, key: MessageKey, vars: Record<string, string | number> = {}): string {
  const template = CATALOGUES[language][key];
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(vars, name) ? String(vars[name]) : whole));
}
