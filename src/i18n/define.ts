/**
 * A catalogue of one area of the bot (errors, a command, the renderers): English is the source,
 * and the type checker refuses a Swedish or Norwegian catalogue that lacks a key.
 * Placeholders are `{name}`.
 *
 * A text that shows a count is a `Plural`: one form per CLDR plural category of the language
 * ("1 event" / "2 events"), chosen by the `count` variable through `Intl.PluralRules`. English,
 * Swedish and Norwegian Bokmål know only `one` and `other`; `other` is also the form used when no
 * count is given.
 */
export interface Plural {
  one: string;
  other: string;
}

export type Text = string | Plural;

export interface Catalogue<K extends string> {
  en: Record<K, Text>;
  sv: Record<K, Text>;
  nb: Record<K, Text>;
}

export function defineMessages<const T extends Record<string, Text>>(messages: { en: T; sv: Record<keyof T, Text>; nb: Record<keyof T, Text> }): Catalogue<Extract<keyof T, string>> {
  return messages as Catalogue<Extract<keyof T, string>>;
}
