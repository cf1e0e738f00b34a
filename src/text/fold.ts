/** Lower case without diacritics, so `ojaberget` finds `Öjaberget` and `hallmyren` finds `Hällmyren`. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/ø/g, 'o')
    .replace(/æ/g, 'ae')
    .replace(/ß/g, 'ss')
    .toLowerCase();
}
