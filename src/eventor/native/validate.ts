/**
 * Output validation against the model's zod schemas. The normalisers build values that are
 * correct by construction (ids from non-empty text, instants from localToInstant, integers
 * from a digit check), so zod here guards against a normaliser bug, not against the document.
 * That is why big lists are validated by sample: zod-checking every one of 20,000 runners
 * would cost more than parsing them.
 */
import type { z } from 'zod';
import { InvalidResponse } from '../errors.js';

/** Lists longer than this are validated by sample. */
const FULL_VALIDATION_LIMIT = 500;
const SAMPLE_SIZE = 50;

function formatPath(base: string, path: readonly PropertyKey[]): string {
  let out = base;
  for (const key of path) out += typeof key === 'number' ? `[${key}]` : `.${String(key)}`;
  return out;
}

function fail(error: z.ZodError, base: string): never {
  const issue = error.issues[0];
  const where = issue ? formatPath(base, issue.path) : base;
  throw new InvalidResponse(`normalised value does not match the model: ${issue?.message ?? 'invalid'}`, where, {
    cause: error,
  });
}

/** Validates one value; returns the value itself (not zod's copy, to avoid doubling memory). */
export function validateOne<T>(schema: z.ZodType<T>, value: T, base: string): T {
  const result = schema.safeParse(value);
  if (!result.success) fail(result.error, base);
  return value;
}

/** Indices to check in a list of `length`: all of a short list, else an even spread including both ends. */
function sampleIndices(length: number): number[] {
  if (length <= FULL_VALIDATION_LIMIT) return Array.from({ length }, (_, i) => i);
  const out: number[] = [];
  const step = (length - 1) / (SAMPLE_SIZE - 1);
  for (let k = 0; k < SAMPLE_SIZE; k++) out.push(Math.round(k * step));
  return out;
}

export function validateList<T>(schema: z.ZodType<T>, items: T[], base: string): T[] {
  for (const i of sampleIndices(items.length)) {
    const result = schema.safeParse(items[i]);
    if (!result.success) fail(result.error, `${base}[${i}]`);
  }
  return items;
}

/**
 * Validates a start or result list whose classes hold many persons: every class with a sample
 * of its persons and teams (the whole list when small).
 */
export function validateClassedList<L extends { classes: C[] }, C extends { persons: unknown[]; teams: unknown[] }>(
  schema: z.ZodType<L>,
  list: L,
  base: string,
): L {
  let total = 0;
  for (const c of list.classes) total += c.persons.length + c.teams.length;
  if (total <= FULL_VALIDATION_LIMIT * 4) return validateOne(schema, list, base);
  const perClass = Math.max(3, Math.ceil((SAMPLE_SIZE * 4) / Math.max(1, list.classes.length)));
  const pick = <X>(arr: X[]): X[] => {
    if (arr.length <= perClass) return arr;
    const out: X[] = [];
    const step = (arr.length - 1) / (perClass - 1);
    for (let k = 0; k < perClass; k++) out.push(arr[Math.round(k * step)]!);
    return out;
  };
  const sampled = {
    ...list,
    classes: list.classes.map((c) => ({ ...c, persons: pick(c.persons), teams: pick(c.teams) })),
  };
  const result = schema.safeParse(sampled);
  // Paths into a sample do not index the real list, so name the class and say it was a sample.
  if (!result.success) fail(result.error, `${base} (sampled)`);
  return list;
}
