/**
 * Rows as SQLite gives them (snake_case columns) turned into the camelCase objects the rest of the
 * program uses. The tables' columns and our property names differ only in that spelling, so one
 * rule serves every table; each reader still narrows what SQLite cannot type (enumerations, flags).
 */

/** A snake_case column name as a camelCase property name: `guild_id` → `guildId`. */
type CamelCase<Name extends string> = Name extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<CamelCase<Tail>>}`
  : Name;

/** A row type with its columns renamed to camelCase, each value's type kept. */
export type CamelCased<Row> = {
  [Column in keyof Row as Column extends string ? CamelCase<Column> : Column]: Row[Column];
};

/** A row with every column renamed to camelCase and its value kept as it is. */
export function camelCased<Row extends object>(row: Row): CamelCased<Row> {
  return Object.fromEntries(
    Object.entries(row).map(([column, value]) => [
      column.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()),
      value,
    ]),
  ) as CamelCased<Row>;
}
