/**
 * Typed custom ids: each component declares its id as a codec, a name (`<command>:<action>`, what
 * the router dispatches on) and a zod object schema of what the id carries. The id comes back from
 * the member's client, so nothing in it is trusted: it is decoded and validated before a handler
 * sees it, and a forged or stale one is refused with one message instead of reaching the handler.
 *
 * The wire form is `<name>:<field>:<field>…`, one field per schema key in declaration order:
 * numbers in decimal, booleans as 1/0, strings percent-encoded (so a `:` cannot shift the fields),
 * an absent optional field empty and trailing empty fields dropped. That is as compact as the
 * positional ids it replaces, and ids already posted in that form (the `login:button` of automatic
 * posts above all) still decode.
 */
import { type z, z as zod } from 'zod';
import { LANGUAGES, type Language } from '../i18n/index.js';

/** Discord's limit on a component's custom id. */
export const CUSTOM_ID_MAX = 100;

export interface CustomIdCodec<Value> {
  /** `<command>:<action>`: what the router dispatches on. */
  readonly name: string;
  /** The custom id carrying `value`; throws when it would not fit Discord's 100 characters. */
  encode(value: Value): string;
  /** The value an id carries, validated by the schema; null for an id that is not this codec's, forged or stale. */
  decode(customId: string): Value | null;
}

/** The value a codec carries, for a handler's parameter. */
export type CustomIdValue<Codec> = Codec extends CustomIdCodec<infer Value> ? Value : never;

/** Discord's and Eventor's ids: digits only, so a forged one cannot carry anything else into a lookup. */
export const idField = (): z.ZodString => zod.string().regex(/^\d{1,20}$/);
/** A page number of a paged answer (the renderer clamps it to the pages there are). */
export const pageField = (): z.ZodNumber => zod.number().int().min(1).max(10_000);
/** The language a public answer was written in, so paging keeps it whoever clicks. */
export const languageField = () => zod.enum(LANGUAGES as [Language, ...Language[]]);

const NAME_SHAPE = /^[a-z][a-z0-9-]*:[a-z][a-z0-9-]*$/;

type FieldKind = 'number' | 'boolean' | 'string';

/** How a field travels, from its schema: optional, nullable and default wrappers looked through. */
function fieldKind(schema: z.ZodType): FieldKind {
  let def = schema._zod.def as { type: string; innerType?: z.ZodType };
  while ((def.type === 'optional' || def.type === 'nullable' || def.type === 'default') && def.innerType) {
    def = def.innerType._zod.def as { type: string; innerType?: z.ZodType };
  }
  if (def.type === 'number') return 'number';
  if (def.type === 'boolean') return 'boolean';
  return 'string';
}

function encodeField(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'boolean') return value ? '1' : '0';
  if (typeof value === 'number') return String(value);
  return encodeURIComponent(String(value));
}

function decodeField(raw: string, kind: FieldKind): unknown {
  if (raw === '') return undefined;
  // Anything else than the forms encode writes is left for the schema to refuse (NaN fails z.number()).
  if (kind === 'number') return /^-?\d+(?:\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
  if (kind === 'boolean') return raw === '1' ? true : raw === '0' ? false : raw;
  return decodeURIComponent(raw);
}

export function customIdCodec<Schema extends z.ZodObject>(
  name: string,
  schema: Schema,
): CustomIdCodec<z.output<Schema>> {
  if (!NAME_SHAPE.test(name)) throw new TypeError(`custom id name must be <command>:<action>: ${name}`);
  const keys = Object.keys(schema.shape);
  const kinds = keys.map((key) => fieldKind(schema.shape[key] as z.ZodType));
  return {
    name,
    encode(value) {
      // Validated on the way out too: an id the decoder would refuse is a bug here, not the member's.
      const checked = schema.parse(value) as Record<string, unknown>;
      const fields = keys.map((key) => encodeField(checked[key]));
      while (fields.length > 0 && fields[fields.length - 1] === '') fields.pop();
      const id = [name, ...fields].join(':');
      // Discord would refuse the whole message; failing here names the component instead.
      if (id.length > CUSTOM_ID_MAX)
        throw new RangeError(`custom id of ${name} is ${id.length} characters, over Discord's ${CUSTOM_ID_MAX}`);
      return id;
    },
    decode(customId) {
      if (customId.length > CUSTOM_ID_MAX) return null;
      if (customId !== name && !customId.startsWith(`${name}:`)) return null;
      const fields = customId === name ? [] : customId.slice(name.length + 1).split(':');
      if (fields.length > keys.length) return null;
      const candidate: Record<string, unknown> = {};
      try {
        keys.forEach((key, i) => {
          const value = decodeField(fields[i] ?? '', kinds[i]!);
          if (value !== undefined) candidate[key] = value;
        });
      } catch {
        // A malformed percent escape.
        return null;
      }
      const parsed = schema.safeParse(candidate);
      return parsed.success ? parsed.data : null;
    },
  };
}

/** The codec name a custom id is addressed to (its first two parts), for the router's dispatch. */
export function customIdName(customId: string): string {
  return customId.split(':', 2).join(':');
}
