import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe } from 'vitest';
import type { Dialect, Store } from '../../src/store/interfaces.js';
import { openPostgresStore } from '../../src/store/postgres/store.js';
import { SecretBox } from '../../src/store/secrets.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { NEEDS_POSTGRES, usePostgres } from './postgres.js';

/**
 * Fresh stores of every database the store runs on, for tests that must hold on each: one
 * `describe` per dialect ({@link describeEachDialect}), each test opening as many fresh stores as
 * it needs, all closed after it. The same database can be opened again, as a second process would
 * see it ({@link StoreFactory.again}), for races across connections.
 */

/** SECRET_KEY of every store these helpers open (scrypt is slow: the box is derived once). */
export const TEST_SECRET = 'a-test-secret-key-that-is-long-enough';
let box: SecretBox | null = null;
export function testSecrets(): SecretBox {
  return (box ??= new SecretBox(TEST_SECRET));
}

export interface StoreOptions {
  /** The store's clock (default: the real one). */
  now?: () => Date;
}

export interface StoreFactory {
  readonly dialect: Dialect;
  /** A new, empty, migrated database and a store on it; closed after the test. */
  fresh(options?: StoreOptions): Promise<Store>;
  /** Another store (its own connections) on the same database as `store`, as another process would open it. */
  again(store: Store, options?: StoreOptions): Promise<Store>;
  /** Where `store`'s database is: its file, or its `postgres://` URL. */
  location(store: Store): string;
}

/**
 * How to give tests stores of one dialect: `use()` is called inside a `describe` (it may register
 * hooks there, such as starting a server) and returns the factory valid inside its tests.
 */
export interface DialectSetup {
  readonly dialect: Dialect;
  /** Put in the describe's name: the skip tag of what the dialect needs (`[needs PostgreSQL]`). */
  readonly needs: string;
  use(): () => StoreFactory;
}

/** Stores opened by a factory: closed (and their databases removed) after each test. */
class Opened {
  readonly #where = new Map<Store, string>();

  add(store: Store, location: string): Store {
    this.#where.set(store, location);
    return store;
  }

  location(store: Store): string {
    const where = this.#where.get(store);
    if (where === undefined) throw new Error('not a store this factory opened');
    return where;
  }

  async closeAll(): Promise<string[]> {
    const locations = [...new Set(this.#where.values())];
    await Promise.all([...this.#where.keys()].map((s) => s.close().catch(() => undefined)));
    this.#where.clear();
    return locations;
  }
}

/**
 * PostgreSQL: one server per test file (`usePostgres`), one database per fresh store, copied from
 * a template migrated once per file (a copy takes milliseconds; migrating is what
 * `openPostgresStore` itself is tested for elsewhere).
 */
export const postgresDialect: DialectSetup = {
  dialect: 'postgres',
  needs: NEEDS_POSTGRES,
  use() {
    const server = usePostgres();
    const opened = new Opened();
    const TEMPLATE = 'eventor_template';
    let admin: pg.Client | null = null;
    let count = 0;
    const urlOf = (database: string) => {
      const url = new URL(server().url);
      url.pathname = `/${database}`;
      return url.toString();
    };
    beforeAll(async () => {
      let base: string;
      try {
        base = server().url;
      } catch {
        // Not running: usePostgres skips every test with the reason.
        return;
      }
      admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${TEMPLATE}`);
      const template = await openPostgresStore(urlOf(TEMPLATE), testSecrets());
      await template.close();
    });
    afterEach(async () => {
      const databases = await opened.closeAll();
      for (const url of databases)
        await admin?.query(`DROP DATABASE IF EXISTS ${new URL(url).pathname.slice(1)} WITH (FORCE)`);
    });
    afterAll(async () => {
      await admin?.end();
    });
    const factory: StoreFactory = {
      dialect: 'postgres',
      async fresh(options = {}) {
        const database = `store_${process.pid}_${++count}`;
        await admin!.query(`CREATE DATABASE ${database} TEMPLATE ${TEMPLATE}`);
        const url = urlOf(database);
        return opened.add(await openPostgresStore(url, testSecrets(), options.now), url);
      },
      async again(store, options = {}) {
        const url = opened.location(store);
        return opened.add(await openPostgresStore(url, testSecrets(), options.now), url);
      },
      location: (store) => opened.location(store),
    };
    return () => factory;
  },
};

/** Opens a file database of the store: the shape of the SQLite store's opener. */
export type FileStoreOpener = (file: string, secrets: SecretBox, now?: () => Date) => Promise<Store>;

/** An embedded dialect whose database is a file: one temporary folder per file of tests, one database file per fresh store. */
export function fileDialect(dialect: Dialect, open: FileStoreOpener): DialectSetup {
  return {
    dialect,
    needs: '',
    use() {
      const opened = new Opened();
      let dir = '';
      let count = 0;
      beforeAll(async () => {
        dir = await mkdtemp(path.join(tmpdir(), `eventor-bot-${dialect}-`));
      });
      afterEach(async () => {
        await opened.closeAll();
      });
      afterAll(async () => {
        await rm(dir, { recursive: true, force: true });
      });
      const factory: StoreFactory = {
        dialect,
        async fresh(options = {}) {
          const file = path.join(dir, `store-${++count}.sqlite`);
          return opened.add(await open(file, testSecrets(), options.now), file);
        },
        async again(store, options = {}) {
          const file = opened.location(store);
          return opened.add(await open(file, testSecrets(), options.now), file);
        },
        location: (store) => opened.location(store),
      };
      return () => factory;
    },
  };
}

/**
 * Every dialect the store runs on: a dialect added here runs every suite of
 * {@link describeEachDialect}.
 */
export const DIALECTS: readonly DialectSetup[] = [fileDialect('sqlite', openSqliteStore), postgresDialect];

/** `body` once per dialect, in a describe named with the dialect (and what it needs, to skip clearly). */
export function describeEachDialect(title: string, body: (stores: () => StoreFactory) => void): void {
  for (const setup of DIALECTS) {
    describe(`${title} on ${setup.dialect}${setup.needs ? ` ${setup.needs}` : ''}`, () => body(setup.use()));
  }
}
