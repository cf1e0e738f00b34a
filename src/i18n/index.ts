/**
 * Translations. Handlers never write user-facing text inline: they name a key, and the text
 * follows the member's Discord locale (replies) or the server's chosen language (automatic posts).
 * Each area keeps its catalogue in `messages/`; add a new one to CATALOGUES below.
 */
import type { Catalogue, Plural, Text } from './define.js';
import { COMMAND_MENTIONS, type CommandPath, isCommandPath } from './mentions.js';
import { calendar } from './messages/calendar.js';
import { errors } from './messages/errors.js';
import { events } from './messages/events.js';
import { feeds } from './messages/feeds.js';
import { feedsContent } from './messages/feeds-content.js';
import { general } from './messages/general.js';
import { linking } from './messages/linking.js';
import { live } from './messages/live.js';
import { login } from './messages/login.js';
import { members } from './messages/members.js';
import { next } from './messages/next.js';
import { notify } from './messages/notify.js';
import { render } from './messages/render.js';
import { scheduler } from './messages/scheduler.js';
import { season } from './messages/season.js';
import { setup } from './messages/setup.js';
import { splits } from './messages/splits.js';

const CATALOGUES = [
  errors,
  general,
  render,
  setup,
  events,
  members,
  login,
  linking,
  scheduler,
  feeds,
  feedsContent,
  notify,
  splits,
  next,
  calendar,
  season,
  live,
] as const;

type UnionToIntersection<U> = (U extends unknown ? (each: U) => void : never) extends (all: infer I) => void
  ? I
  : never;
/** Every English text with its literal type: the source of the keys and of their variables. */
type English = UnionToIntersection<(typeof CATALOGUES)[number]['en']>;
export type MessageKey = Extract<keyof English, string>;

/** The `{name}`s of a text, as the filling in `t()` finds them; a `{/command}` is a mention, no variable. */
type PlaceholdersIn<S extends string> = S extends `${string}{${infer Name}}${infer Rest}`
  ? (Name extends `/${string}` ? never : Name) | PlaceholdersIn<Rest>
  : never;
type VariablesOf<T> = T extends string
  ? PlaceholdersIn<T>
  : T extends Plural
    ? 'count' | PlaceholdersIn<T['one'] | T['other']>
    : never;
/** The variables a key's English text names (`count` for a plural, which chooses the form). */
export type VariableName<K extends MessageKey> = VariablesOf<English[K]>;
export type MessageVars<K extends MessageKey> = {
  readonly [N in VariableName<K>]: N extends 'count' ? number : string | number;
};
/** The keys whose texts take exactly the variables `V`, for a parameter that any of them may fill. */
export type KeyWithVariables<V extends string> = {
  [K in MessageKey]: [VariableName<K>] extends [V] ? ([V] extends [VariableName<K>] ? K : never) : never;
}[MessageKey];
/** The keys whose texts have no variables: command names, labels, choices. */
export type PlainKey = KeyWithVariables<never>;
/**
 * The variables argument of `t()` for a key: required, with exactly the key's variables, when its
 * text has any; none (or an empty object) otherwise. A missing or extra variable fails `tsc`.
 */
export type VarsArgument<K extends MessageKey> = [VariableName<K>] extends [never]
  ? [vars?: Readonly<Record<string, never>>]
  : [vars: MessageVars<K>];
export type Language = 'en' | 'sv' | 'nb';
export const LANGUAGES: readonly Language[] = ['en', 'sv', 'nb'];

const MERGED: Record<Language, Record<string, Text>> = { en: {}, sv: {}, nb: {} };
for (const catalogue of CATALOGUES as readonly Catalogue<Record<string, Text>>[]) {
  for (const language of LANGUAGES) {
    for (const [key, text] of Object.entries(catalogue[language])) {
      if (Object.hasOwn(MERGED[language], key)) throw new Error(`translation key '${key}' is defined twice`);
      MERGED[language][key] = text;
    }
  }
}

/** Whether a string is a key of the catalogues (a key read from outside, or one of `Object.keys`). */
export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(MERGED.en, key);
}

/** Every key, for tests and tooling. */
export const MESSAGE_KEYS: readonly MessageKey[] = Object.keys(MERGED.en).filter(isMessageKey);

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
export function serverLanguage(
  chosen: string | null | undefined,
  preferredLocale: string | null | undefined,
  fallback: Language,
): Language {
  if (chosen) return languageFor(chosen);
  return spokenLanguage(preferredLocale) ?? fallback;
}

// Norwegian Bokmål's plural rules under its own tag; one PluralRules per language, built once.
const PLURAL_RULES: Record<Language, Intl.PluralRules> = {
  en: new Intl.PluralRules('en'),
  sv: new Intl.PluralRules('sv'),
  nb: new Intl.PluralRules('nb'),
};

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
export function t<K extends MessageKey>(language: Language, key: K, ...[vars]: VarsArgument<K>): string {
  return fill(language, key, vars ?? {});
}

/**
 * A key with its variables, checked as `t()` checks them when made (`Message.of`): what an error
 * or a deferred text carries until the reader's language is known. Only `Message.of` makes one.
 */
export class Message<K extends MessageKey = MessageKey> {
  private constructor(
    readonly key: K,
    // Private, so that a plain object never passes for a checked message.
    private readonly vars: Readonly<Record<string, string | number>>,
  ) {}

  static of<K extends MessageKey>(key: K, ...[vars]: VarsArgument<K>): Message<K> {
    return new Message(key, vars ?? {});
  }

  /** Its text in a language. */
  in(language: Language): string {
    return fill(language, this.key, this.vars);
  }
}

/** The text of a checked message in a language. */
export function translate(language: Language, said: Message): string {
  return said.in(language);
}

function fill(language: Language, key: MessageKey, vars: Readonly<Record<string, string | number>>): string {
  const own = MERGED[language][key];
  const textLanguage = own !== undefined ? language : 'en';
  const template =
    own !== undefined
      ? formFor(language, own, vars.count)
      : MERGED.en[key] !== undefined
        ? formFor('en', MERGED.en[key], vars.count)
        : key;
  // One pass, so that a variable's value (a name from Eventor, say) is never read as a placeholder or mention.
  return template.replace(/\{(?:\/([\w -]+)|(\w+))\}/g, (whole, path: string | undefined, name: string | undefined) => {
    if (path !== undefined) return isCommandPath(path) ? commandMention(textLanguage, path) : whole;
    return name !== undefined && Object.hasOwn(vars, name) ? String(vars[name]) : whole;
  });
}

// Checked here rather than in mentions.ts, which would otherwise import this module's types back.
const MENTION_KEYS: Readonly<Record<CommandPath, readonly PlainKey[]>> = COMMAND_MENTIONS;

/** A slash command (and subcommand) as a member of that language types it: `/inställningar kanal`. */
export function commandMention(language: Language, path: CommandPath): string {
  return `/${MENTION_KEYS[path].map((key) => t(language, key)).join(' ')}`;
}

/** Every form of a key in a language (one text, or each plural form), for tests and tooling. */
export function forms(language: Language, key: MessageKey): Record<string, string> {
  const text = MERGED[language][key] ?? MERGED.en[key] ?? key;
  return isPlural(text) ? { ...text } : { text };
}

/** The same text in the Discord locales we serve, for command names, descriptions and choices. */
export function discordLocalizations(key: PlainKey): Record<'en-US' | 'en-GB' | 'sv-SE' | 'no', string> {
  return { 'en-US': t('en', key), 'en-GB': t('en', key), 'sv-SE': t('sv', key), no: t('nb', key) };
}
