/**
 * Names compared across Eventor and the live services (docs/live-results.md#matching): folded to
 * lower-case letters and digits, diacritics gone (å → a, ø → o), so that what an organiser typed
 * by hand and what Eventor holds meet. Pure; nothing here is shown to anyone.
 */

const LETTER_FOLDS: Record<string, string> = { ø: 'o', æ: 'ae', ß: 'ss', đ: 'd', ł: 'l', œ: 'oe' };

/** Lower case, diacritics folded, `&` and punctuation as spaces, whitespace folded. */
export function foldText(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[øæßđłœ]/g, (c) => LETTER_FOLDS[c]!)
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
}

/** The words of a folded text. */
export function words(text: string): string[] {
  const folded = foldText(text);
  return folded === '' ? [] : folded.split(' ');
}

/**
 * The long forms of club names as the short ones Swedish and Norwegian clubs go by
 * ("Orienteringsklubb" → "OK"), word by word after folding.
 */
const CLUB_FORMS: Record<string, string> = {
  orienteringsklubb: 'ok',
  orienteringsklubben: 'ok',
  idrottsklubb: 'ik',
  idrottsklubben: 'ik',
  idrottsforening: 'if',
  idrottsforeningen: 'if',
  idrottsforbund: 'if',
  sportklubb: 'sk',
  sportklubben: 'sk',
  sportsklubb: 'sk',
  skidklubb: 'sk',
  skidklubben: 'sk',
  orienteringslag: 'ol',
  orienteringslaget: 'ol',
  idrettslag: 'il',
  idrettslaget: 'il',
  orienteringsforening: 'of',
};

/** Words a club name may carry or drop without being another club ("IFK Göteborg Orientering"). */
const CLUB_FILLER = new Set(['orientering', 'orienteering', 'o', 'och', 'og', 'and']);

/** A club name's words, long forms made short, fillers dropped. */
export function clubWords(name: string): string[] {
  return words(name)
    .map((word) => CLUB_FORMS[word] ?? word)
    .filter((word) => !CLUB_FILLER.has(word));
}

/** A club name as one key: its words sorted, so "OK Granskogen" and "Granskogen OK" meet. */
export function clubKey(name: string): string {
  return [...clubWords(name)].sort().join(' ');
}

/** A relay team's name without its trailing team number ("Haparanda OK 1" → "Haparanda OK", 1); null number when none. */
export function splitTeamNumber(name: string): { club: string; team: number | null } {
  const match = /^(.*\S)\s+(\d{1,2})$/.exec(name.trim());
  return match ? { club: match[1]!, team: Number(match[2]) } : { club: name.trim(), team: null };
}

/** A person's name as a key whatever the order its parts come in ("Berg, Anna" and "Anna Berg" meet). */
export function personKey(name: string): string {
  return [...words(name)].sort().join(' ');
}

/** Two words the same, or one a long enough beginning of the other ("Granskogen" in "Granskogens"). */
export function wordsMeet(a: string, b: string): boolean {
  if (a === b) return true;
  const [short, long] = a.length <= b.length ? [a, b] : [b, a];
  return short.length >= 5 && long.startsWith(short) && long.length - short.length <= 2;
}

/** How alike two word lists are, 0 to 1: the share of words of either that meet a word of the other. */
export function wordOverlap(a: readonly string[], b: readonly string[]): number {
  if (a.length === 0 || b.length === 0) return 0;
  const met = (from: readonly string[], to: readonly string[]) =>
    from.filter((w) => to.some((v) => wordsMeet(w, v))).length;
  return (met(a, b) + met(b, a)) / (a.length + b.length);
}
