/**
 * Crafted names to plant in the sandbox Eventor (markdown, mentions, a masked link, a bidi
 * override, 3,000 characters), and the check that none of it reached Discord as typed: the attack
 * tests on Eventor's text share them (security/eventor-text.test.ts, security/season.test.ts).
 */

/** 3,000 characters in numbered chunks: a name cut near 100 characters can only hold the first few. */
export const LONG_NAME = Array.from(
  { length: 60 },
  (_, i) => `**Evil${i}** _x_ @everyone <@123> [click](https://evil.example) `,
)
  .join('')
  .slice(0, 3000);
export const CLUB_NAME = '**Bold** Club <@&456>';
export const EVENT_PREFIX = '@here\nRead this ';
export const EVENT_SUFFIX = ' [click](https://evil.example) </cmd:1>';
export const CLASS_PREFIX = '<#1> ';
export const ACTIVITY_PREFIX = '\u202Egnitarbmys ';

/** What must not be found in any text the bot sent Discord. */
export const FORBIDDEN: Array<[string, RegExp]> = [
  ['@everyone', /@everyone/],
  ['@here', /@here/],
  ['a user mention', /<@123>/],
  ['a role mention', /<@&456>/],
  ['a channel mention', /<#1>/],
  ['a command mention', /<\/cmd:1>/],
  ['a bidi override', /\u202E/],
  ['more than the first few chunks of the 3,000-character name', /Evil(1\d|[2-5]\d)\b/],
];
/** In text Discord renders as markdown, also no masked link (in plain text it shows as typed). */
export const FORBIDDEN_IN_MARKDOWN: Array<[string, RegExp]> = [
  ...FORBIDDEN,
  ['an unescaped masked link', /(?<!\\)\]\(https:\/\/evil\.example/],
];

/**
 * Every string in a request body the bot sent, with whether Discord renders it as markdown:
 * content, embed titles, descriptions and fields do; labels, select options, autocomplete choices,
 * thread names, footers and author names are plain text.
 */
function strings(
  value: unknown,
  path: readonly string[] = [],
  out: Array<{ text: string; markdown: boolean; path: string }> = [],
): typeof out {
  if (typeof value === 'string') {
    const key = path.at(-1) ?? '';
    const inEmbed = path.includes('embeds');
    const markdown =
      key === 'content' ||
      (inEmbed &&
        (key === 'title' || key === 'description' || key === 'value' || (key === 'name' && path.includes('fields'))));
    out.push({ text: value, markdown, path: path.join('.') });
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => {
      strings(item, [...path, String(i)], out);
    });
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) strings(item, [...path, key], out);
  }
  return out;
}

/** What of the planted texts a request body carries as it must not: one line per finding. */
export function violations(body: unknown): string[] {
  return strings(body).flatMap(({ text, markdown, path }) =>
    (markdown ? FORBIDDEN_IN_MARKDOWN : FORBIDDEN)
      .filter(([, pattern]) => pattern.test(text))
      .map(([what]) => `${what} at ${path}: ${text.slice(0, 160)}`),
  );
}
