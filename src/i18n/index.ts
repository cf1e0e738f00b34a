/**
 * Translations. Handlers never write user-facing text inline: they name a key, and the text
 * follows the member's Discord locale (replies) or the server's chosen language (automatic posts).
 * Each area keeps its catalogue in `messages/`; add a new one to CATALOGUES below.
 */
import type { Catalogue, Plural, Text } from './define.js';
import { errors } from './messages/errors.js';
import { events } from './messages/events.js';
import { feedsContent } from './messages/feeds-content.js';
import { feeds } from './messages/feeds.js';
import { general } from './messages/general.js';
import { linking } from './messages/linking.js';
import { login } from './messages/login.js';
import { members } from './messages/members.js';
import { notify } from './messages/notify.js';
import { render } from './messages/render.js';
import { setup } from './messages/setup.js';
import { scheduler } from './messages/scheduler.js';

const CATALOGUES = [errors, general, render, setup, events, members, login, linking, scheduler, feeds, feedsContent, notify] as const;

type KeysOf<C> = C extends Catalogue<infer K> ? K : never;
export type MessageKey = KeysOf<(typeof CATALOGUES)[number]>;
export type Language = 'en' | 'sv' | 'nb';
export const LANGUAGES: readonly Language[] = ['en', 'sv', 'nb'];

const MERGED: Record<Language, Record<string, Text>> = { en: {}, sv: {}, nb: {} };
for (const catalogue of CATALOGUES as readonly Catalogue<string>[]) {
  for (const language of LANGUAGES) {
    for (const [key, text] of Object.entries(catalogue[language])) {
      if (Object.hasOwn(MERGED[language], key)) throw new Error(`translation key '${key}' is defined twice`);
      MERGED[language][key] = text;
    }
  }
}

/** Every key, for tests and tooling. */
export const MESSAGE_KEYS = Object.keys(MERGED.en) as MessageKey[];

/** Discord locales (`en-US`, `en-GB`, `sv-SE`, `no`) and language tags onto our languages; English otherwise. */
export function languageFor(locale: string | null | undefined): Language {
  return spokenLanguage(locale) ?? 'en';
}

/** Our language for a Discord locale or language tag, or null when we do not speak it (`de`, `fi`). */
export function spokenLanguage(locale: string | null | undefined): Language | null {
  const tag = (locale ?? '').toLowerCase();
  if (tag.startsWith('sv')) return 'sv';
  if (tag === 'no' || tag.startsWith('nb') || tag.startsWith('nn') || tag.startsWith('no-')) return 'nb';
  if (tag.startsWith('en')) return 'en';
  return null;
}

/**
 * The language of a server's automatic posts: the one chosen with `/setup language`, else the
 * server's own Discord language (its preferred locale) when we speak it, else the operator's default.
 */
export function serverLanguage(chosen: string | null | undefined, preferredLocale: string | null | undefined, fallback: Language): Language {
  if (chosen) return languageFor(chosen);
  return spokenLanguage(preferredLocale) ?? fallback;
}

// Norwegian Bokmål's plural rules under its own tag; one PluralRules per language, built once.
const PLURAL_RULES: Record<Language, Intl.PluralRules> = { en: new Intl.PluralRules('en'), sv: new Intl.PluralRules('sv'), nb: new Intl.PluralRules('nb') };

/** Whether a catalogue text has a form per count. */
export function isPlural(text: Text): text is Plural {
  return typeof text === 'object';
}

/** The form of a text for a count (`other` without a count or for a form the catalogue lacks). */
function formFor(language: Language, text: Text, count: string | number | undefined): string {
  if (!isPlural(text)) return text;
  const number = typeof count === 'number' ? count : Number(count);
  if (count === undefined || !Number.isFinite(number)) return text.other;
  const category = PLURAL_RULES[language].select(number);
  return (text as unknown as Record<string, string | undefined>)[category] ?? text.other;
}

/**
 * The text of a key in a language with its placeholders filled. A plural text takes the form that
 * the language's rules choose for `vars.count`.
 */
export function t(language: Language, key: MessageKey, vars: Record<string, string | number> = {}): string {
  const own = MERGED[language][key];
  const template = own !== undefined ? formFor(language, own, vars.count) : MERGED.en[key] !== undefined ? formFor('en', MERGED.en[key], vars.count) : key;
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => (Object.hasOwn(vars, name) ? String(vars[name]) : whole));
}

/** Every form of a key in a language (one text, or each plural form), for tests and tooling. */
export function forms(language: Language, key: MessageKey): Record<string, string> {
  const text = MERGED[language][key] ?? MERGED.en[key] ?? key;
  return isPlural(text) ? { ...text } : { text };
}

/** The same text in the Discord locales we serve, for command names, descriptions and choices. */
export function discordLocalizations(key: MessageKey): Record<'en-US' | 'en-GB' | 'sv-SE' | 'no', string> {
  return { 'en-US': t('en', key), 'en-GB': t('en', key), 'sv-SE': t('sv', key), no: t('nb', key) };
}
