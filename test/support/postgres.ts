import { afterAll, beforeAll, beforeEach } from 'vitest';
import {
  INITDB_TIMEOUT_MS,
  PORT_ATTEMPTS,
  type Postgres,
  PostgresUnavailable,
  START_TIMEOUT_MS,
  startPostgres,
} from '../../harness/loopback/postgres.js';

/**
 * A real PostgreSQL for the tests (the server itself is started by harness/loopback/postgres.ts, which
 * `npm run soak` uses too). Tests that need it put {@link NEEDS_POSTGRES} in their name; where it
 * cannot be found or started they skip with the reason, and the run's last line counts them
 * (`test/support/skipped-reporter.ts`).
 */
export const NEEDS_POSTGRES = '[needs PostgreSQL]';

export { PORT_ATTEMPTS, type Postgres, PostgresUnavailable, startPostgres };
export { postgresBinaries } from '../../harness/loopback/postgres.js';

/** Why PostgreSQL could not be started in this test process, once it has been tried and failed. */
let unavailable: string | null = null;

/**
 * One server for the test file: started before its tests, stopped after them. Where PostgreSQL is
 * absent or does not start, says so in one line and skips each test with the reason as its note.
 * Returns a getter for the running server (valid inside tests).
 */
export function usePostgres(): () => Postgres {
  let server: Postgres | null = null;
  beforeAll(
    async () => {
      // Once it failed in this file, the next suite skips at once with the same reason.
      if (unavailable !== null) return;
      try {
        server = await startPostgres();
      } catch (error) {
        unavailable = (error as Error).message;
        process.stderr.write(
          `PostgreSQL is not available, so the tests tagged ${NEEDS_POSTGRES} skip: ${unavailable}\n`,
        );
      }
    },
    INITDB_TIMEOUT_MS + START_TIMEOUT_MS * PORT_ATTEMPTS,
  );
  beforeEach((context) => {
    if (!server) context.skip(unavailable ?? 'PostgreSQL did not start');
  });
  afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('PostgreSQL is not running');
    return server;
  };
}
