/**
 * Eventor's text as a picture shows it (docs/splits.md#pictures): runner names, control codes and
 * the title, each one line of plain text (`plainText`: control and bidi characters dropped,
 * mentions broken) and cut. The labels drawn and the alt text are both made from these, whoever
 * asked for the picture, so neither shows Eventor's text as it was typed.
 */
import { NAME_MAX, plainText } from '../text/plain.js';

/**
 * How long a control code may be on a picture: under its bar or its point on the axis, and in
 * the alt text. Codes are a few characters (31, 100, S1); a longer one is cut with `…`.
 */
export const CODE_MAX = 10;
/** How long a picture's title may be: a class, a race, a leg and a course, on one line. */
export const TITLE_MAX = 200;

/** A runner's name as drawn and described. */
export function pictureName(name: string): string {
  return plainText(name, NAME_MAX) || '?';
}

/** A control code as drawn and described. */
export function pictureCode(code: string): string {
  return plainText(code, CODE_MAX) || '?';
}

/** What the picture is of, as its title and the alt text's subject. */
export function pictureTitle(title: string): string {
  return plainText(title, TITLE_MAX);
}
