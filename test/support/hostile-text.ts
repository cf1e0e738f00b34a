/**
 * Hostile text planted in every free-text field of the domain model (src/eventor/model.ts), found
 * by walking the zod schemas themselves: a field added to the model is planted without anyone
 * listing it. Ids, instants and dates are left alone (they are what the sandbox and the bot find
 * records by, and a malformed one is refused by the parser before anything is shown); enums,
 * numbers and booleans hold no text. A field that is null gets hostile text of its own.
 *
 * Each planted value keeps what it was (names stay distinct, so classes and runners are still found
 * by name) and appends a marker naming the field, then everything Discord would turn into a
 * mention, a command, a timestamp, a link or markup, and the characters that make text read
 * backwards or break lines. Some values are 5,000 characters long, ending in {@link TAIL}.
 */
import { z } from 'zod';
import * as model from '../../src/eventor/model.js';

/** Starts every marker: `ZQ<n>Q`, n the field's number in {@link HostileText.labels}. */
export const MARK = 'ZQ';
/** Ends every long value: nothing the bot sends may show this much of one text. */
export const TAIL = 'QZTAIL';
export const LONG_LENGTH = 5000;
/** The host of the planted links. */
export const EVIL_HOST = 'evil.example';

/**
 * What follows the marker. The part a name keeps when cut to 100 characters comes first: a bidi
 * override, a masked link, mentions of everyone, a role, a user, a channel and a command, a
 * timestamp; then markup and line breaks of every kind a heading, a quote or subtext could start on.
 */
const HOSTILE = [
  '\u202E[x](https://evil.example) @everyone <@&123> **b** <@456> <#789> </cmd:1> <t:0:R>',
  '\n# h1\r\n> quote\u2028-# sub\u0085## h2\u2029>>> all',
  ' @here <:e:1> <a:e:2> __u__ ~~s~~ ||x|| `c` ```block``` <https://evil.example> [y](<https://evil.example>)',
  ' \u0007\u0000\u001B\u007F\u009B\u200E\u200F\u061C\u202A\u202D\u2066\u2067\u2068\u2069\u000B\u000C\t\r1. list',
  '\n- item\n* item\n\\',
].join('');
/** A short form, for text shown beside other text within a cut (a given name before the family name). */
const COMPACT = '\u202E**b** @everyone <@&123>\n# h1';

/**
 * Which values are 5,000 characters long: `all`, only the first value of each field over every
 * planting (lists hold thousands of runners and split times; one long value of each field is what
 * is needed there), or `none`.
 */
export interface PlantOptions {
  long: 'all' | 'first' | 'none';
  /** Fields left as they are (by label, `Event.classificationId`). */
  keep?: ReadonlySet<string>;
  /** The values that are not long get the short form of the hostile text (default: all of it). */
  compact?: boolean;
}

type Schema = z.ZodType;
interface Def {
  type: string;
  getter?: () => Schema;
  innerType?: Schema;
  shape?: Record<string, Schema>;
  element?: Schema;
  valueType?: Schema;
}
const defOf = (schema: Schema): Def => schema._zod.def as unknown as Def;

/** The model's named records, so a field is labelled by the record it is in: `PersonName.given`. */
const RECORD_NAMES = new Map<Schema, string>(
  Object.entries(model).flatMap(([name, value]) => (value instanceof z.ZodType ? [[value, name] as const] : [])),
);
/** Strings that are not free text: what records are found by, and times the parser checks. */
const NOT_TEXT = new Set<Schema>([model.Id, model.Instant, model.LocalDate]);

/** A schema through `nullable` and `optional`. */
function unwrap(schema: Schema): Schema {
  let current = schema;
  for (;;) {
    const def = defOf(current);
    if ((def.type === 'nullable' || def.type === 'optional') && def.innerType) current = def.innerType;
    else if (def.type === 'lazy' && def.getter && !RECORD_NAMES.has(current)) current = def.getter();
    else return current;
  }
}

/** The free-text fields of a record, as labels (`Event.name`, `Event.urls[]`), walking the schema alone. */
export function textFields(
  schema: Schema,
  label = RECORD_NAMES.get(schema) ?? '?',
  seen = new Set<Schema>(),
): string[] {
  const def = defOf(schema);
  switch (def.type) {
    case 'lazy': {
      if (seen.has(schema)) return [];
      const name = RECORD_NAMES.get(schema) ?? label;
      return textFields(def.getter!(), name, new Set([...seen, schema]));
    }
    case 'nullable':
    case 'optional':
      return textFields(def.innerType!, label, seen);
    case 'object':
      return Object.entries(def.shape!).flatMap(([key, field]) =>
        textFields(field, RECORD_NAMES.has(field) ? RECORD_NAMES.get(field)! : `${label}.${key}`, seen),
      );
    case 'array':
      return textFields(def.element!, RECORD_NAMES.has(def.element!) ? label : `${label}[]`, seen);
    case 'record':
      return textFields(def.valueType!, `${label}{}`, seen);
    case 'string':
      return NOT_TEXT.has(schema) ? [] : [label];
    default:
      return [];
  }
}

export class HostileText {
  /** Every field label planted so far, in order; a marker's number is its index. */
  readonly labels: string[] = [];
  /** How many values of each field were planted. */
  readonly counts = new Map<string, number>();
  /** What each original value became: the same text gets the same planting wherever it is (names stay matchable). */
  private readonly byOriginal = new Map<string, string>();
  private readonly visited = new WeakSet<object>();
  /** Fields that have had their long value. */
  private readonly longDone = new Set<string>();
  /** For each marker, the fields that hold its text. */
  private readonly sharedBy = new Map<number, Set<string>>();

  /** The marker of a field. */
  marker(label: string): string {
    let index = this.labels.indexOf(label);
    if (index < 0) index = this.labels.push(label) - 1;
    return `${MARK}${index}Q`;
  }

  /**
   * The fields whose markers occur in a text (a marker is `ZQ<n>Q`): the field it was planted in, and
   * every other field that holds the same text (a class's name in the class list and in the result list).
   */
  fieldsIn(text: string): string[] {
    return [...text.matchAll(/ZQ(\d+)Q/g)].flatMap((m) => [...(this.sharedBy.get(Number(m[1])) ?? [])]);
  }

  /**
   * The hostile value of a field: what it was, the field's marker, the hostile text (or its short
   * form), and in the long form filler up to 5,000 characters.
   */
  value(label: string, original: string | null, long: boolean, compact = false): string {
    const head = `${original ?? ''} ${this.marker(label)}${compact && !long ? COMPACT : HOSTILE}`;
    if (!long) return head;
    const filler: string[] = [];
    let length = head.length + TAIL.length;
    for (let i = 0; length < LONG_LENGTH; i++) {
      const chunk = ` chunk${i} **${i}** <@${i}> @everyone [z](https://evil.example/${i})`;
      filler.push(chunk);
      length += chunk.length;
    }
    return `${head}${filler.join('')}`.slice(0, LONG_LENGTH - TAIL.length) + TAIL;
  }

  /**
   * Plants hostile text in every free-text field of `value`, a record of `schema`, in place (the
   * sandbox shares its records between lists); returns the value (a new string for a string).
   */
  plant<T>(schema: Schema, value: T, options: PlantOptions = { long: 'all' }): T {
    return this.walk(schema, value, RECORD_NAMES.get(schema) ?? '?', options) as T;
  }

  private walk(schema: Schema, value: unknown, label: string, options: PlantOptions): unknown {
    const def = defOf(schema);
    switch (def.type) {
      case 'lazy':
        return this.walk(def.getter!(), value, RECORD_NAMES.get(schema) ?? label, options);
      case 'nullable':
      case 'optional': {
        if (value !== null && value !== undefined) return this.walk(def.innerType!, value, label, options);
        // A missing text is filled; a missing record stays missing (there is nothing to say it of).
        const inner = unwrap(def.innerType!);
        return defOf(inner).type === 'string' && !NOT_TEXT.has(inner) && !options.keep?.has(label)
          ? this.text(label, null, options)
          : value;
      }
      case 'object': {
        if (value === null || typeof value !== 'object' || this.visited.has(value)) return value;
        this.visited.add(value);
        const record = value as Record<string, unknown>;
        for (const [key, field] of Object.entries(def.shape!)) {
          if (!(key in record)) continue;
          record[key] = this.walk(field, record[key], RECORD_NAMES.get(field) ?? `${label}.${key}`, options);
        }
        return value;
      }
      case 'array': {
        if (!Array.isArray(value)) return value;
        const element = def.element!;
        const itemLabel = RECORD_NAMES.get(element) ?? `${label}[]`;
        value.forEach((item, i) => {
          value[i] = this.walk(element, item, itemLabel, options);
        });
        return value;
      }
      case 'record': {
        if (value === null || typeof value !== 'object') return value;
        const record = value as Record<string, unknown>;
        for (const key of Object.keys(record))
          record[key] = this.walk(def.valueType!, record[key], `${label}{}`, options);
        return value;
      }
      case 'string':
        return typeof value !== 'string' || NOT_TEXT.has(schema) || options.keep?.has(label)
          ? value
          : this.text(label, value, options);
      default:
        return value;
    }
  }

  private text(label: string, original: string | null, options: PlantOptions): string {
    this.counts.set(label, (this.counts.get(label) ?? 0) + 1);
    // Made from planted text already (a team named after its club): planted as it is.
    if (original !== null && original.includes(MARK)) {
      this.share(original, label);
      return original;
    }
    const key = original === null ? `null:${label}` : `text:${original}`;
    let planted = this.byOriginal.get(key);
    if (planted === undefined) {
      const long = options.long === 'all' || (options.long === 'first' && !this.longDone.has(label));
      this.longDone.add(label);
      planted = this.value(label, original, long, options.compact);
      this.byOriginal.set(key, planted);
    }
    this.share(planted, label);
    return planted;
  }

  private share(text: string, label: string): void {
    for (const m of text.matchAll(/ZQ(\d+)Q/g)) {
      const labels = this.sharedBy.get(Number(m[1])) ?? new Set<string>();
      labels.add(label);
      this.sharedBy.set(Number(m[1]), labels);
    }
  }
}
