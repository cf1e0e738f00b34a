import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The real Eventor and IOF files live beside the repository, in `../shared/fixtures`, under their
 * own licences; they are never copied in. Tests that read them put {@link NEEDS_SHARED_FIXTURES} in
 * their name, so that when the folder is absent the run ends with one line counting what skipped
 * and why (`test/support/skipped-reporter.ts`).
 */
export const SHARED_FIXTURES = path.resolve(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures');

export const NEEDS_SHARED_FIXTURES = '[needs ../shared/fixtures]';

/** The folder under `../shared/fixtures`, or null when it is absent. */
export function sharedFixtures(...parts: string[]): string | null {
  const dir = path.join(SHARED_FIXTURES, ...parts);
  return existsSync(dir) ? dir : null;
}
