import type { TestProject } from 'vitest/node';
import { startPostgres } from './postgres.js';

/**
 * Vitest global setup of the `postgres-feeds` project: one PostgreSQL for the whole project run,
 * its URL given to every test file (`inject('postgresUrl')`), where `world-database.ts` makes a
 * database per loopback world. When it cannot start, the reason is given instead and every test of
 * the project skips with it (`[needs PostgreSQL]`).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string | null;
    postgresUnavailable: string | null;
  }
}

export default async function postgresForProject(project: TestProject): Promise<() => Promise<void>> {
  try {
    const server = await startPostgres();
    project.provide('postgresUrl', server.url);
    project.provide('postgresUnavailable', null);
    return () => server.stop();
  } catch (error) {
    const why = (error as Error).message;
    process.stderr.write(`PostgreSQL is not available, so the postgres-feeds project skips: ${why}\n`);
    project.provide('postgresUrl', null);
    project.provide('postgresUnavailable', why);
    return async () => undefined;
  }
}
