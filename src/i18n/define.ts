/**
 * A catalogue of one area of the bot (errors, a command, the renderers): English is the source,
 * and the type checker refuses a Swedish or Norwegian catalogue that lacks a key.
 * Placeholders are `{name}`.
 */
export interface Catalogue<K extends string> {
  en: Record<K, string>;
  sv: Record<K, string>;
  nb: Record<K, string>;
}

export function defineMessages<const T extends Record<string, string>>(messages: { en: T; sv: Record<keyof T, string>; nb: Record<keyof T, string> }): Catalogue<Extract<keyof T, string>> {
  return messages as Catalogue<Extract<keyof T, string>>;
}
