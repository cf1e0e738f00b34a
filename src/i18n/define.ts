/**
 * A catalogue of one area of the bot (errors, a command, the renderers): English is the source,
 * and the type checker refuses a Swedish or Norwegian catalogue that lacks a key.
 * Placeholders are `{name}`; the English text's placeholders are the key's variables, which the
 * type of `t()` then demands (the English catalogue keeps its literal texts for that).
 *
 * A text that shows a count is a `Plural`: one form per CLDR plural category of the language
 * ("1 event" / "2 events"), chosen by the `count` variable through `Intl.PluralRules`. English,
 * Swedish and Norwegian Bokmål know only `one` and `other`; `other` is also the form used when no
 * count is given.
 */
export interface Plural {
  readonly one: string;
  readonly other: string;
}

export type Text = string | Plural;

export interface Catalogue<English extends Record<string, Text>> {
  en: English;
  sv: Record<keyof English, Text>;
  nb: Record<keyof English, Text>;
}

export function defineMessages<const English extends Record<string, Text>>(
  messages: Catalogue<English>,
): Catalogue<English> {
  return messages;
}
