/**
 * Text from outside (Eventor's names, clubs, classes, control codes, event texts) as one line of
 * plain text, safe wherever Discord shows text without markdown: alt text, thread names, select
 * options, autocomplete choices, scheduled event names, footers, and the words drawn on a picture.
 * The one cleaning every such text goes through (docs/architecture.md#the-rooms); the markdown
 * escapes of `src/render/format.ts` build on it. A leaf: it imports nothing, so the pictures'
 * renderers (src/charts) use it as the messages do.
 */

const ZWSP = '\u200b';

/**
 * C0 and C1 controls but tab and newline, and the bidi marks, embeddings, overrides and isolates that
 * can make a name read backwards or disguise what follows it.
 */
export const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F-\u009F\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/g;
/** Line breaks other than \n: CR, CRLF, NEL and the Unicode line and paragraph separators. */
export const LINE_BREAK = /\r\n?|[\u0085\u2028\u2029]/g;

/** How long one name from Eventor (a person, club, class, race, course, event) may be, before escaping. */
export const NAME_MAX = 100;

/**
 * A zero-width space after `@` of `@everyone`/`@here` and after every `<` that starts a word:
 * `<@id>`, `<@&id>`, `<#id>`, `</cmd:id>`, `<t:…>`, `<:emoji:id>` and `<https://…>` all need
 * the `<` right before them, so none forms, and the text looks the same. Broken once, a text stays
 * as it is when broken again.
 */
export function breakMentions(text: string): string {
  return text.replace(/@(everyone|here)/gi, `@${ZWSP}$1`).replace(/<(?=[^\s\u200b])/g, `<${ZWSP}`);
}

/** Control and bidi characters stripped, whitespace runs (line breaks too) folded into one space. */
export function oneLine(text: string): string {
  return text.replace(LINE_BREAK, ' ').replace(CONTROL, '').replace(/\s+/g, ' ').trim();
}

/** At most `max` characters, ending with `…` when cut; never splits a surrogate pair. */
export function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  if (max <= 0) return '';
  let cut = max - 1;
  const code = text.charCodeAt(cut - 1);
  if (code >= 0xd800 && code <= 0xdbff) cut -= 1;
  return `${text.slice(0, cut)}…`;
}

/**
 * One line without markup, for places Discord shows as plain text: no markdown renders there, so
 * nothing is escaped (a backslash would show), but control and bidi characters go, whitespace
 * folds, and mentions are broken all the same; with `max`, cut with an ellipsis to at most `max`.
 * Cleaning a cleaned text again changes nothing.
 */
export function plainText(text: string, max?: number): string {
  const line = breakMentions(oneLine(text));
  return max === undefined ? line : truncate(line, max);
}
