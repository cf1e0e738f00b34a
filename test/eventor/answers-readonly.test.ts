/**
 * The client's answers are shared (one deep-frozen value per cached answer, handed to every
 * caller), so their types are read-only: writing into one fails `tsc` (each `@ts-expect-error`
 * below is itself an error once the write compiles) and throws at run time.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventorClient } from '../../src/eventor/client.js';
import { customInstance } from '../../src/eventor/instances.js';
import { type SandboxEventor, startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { runningTestClock } from '../support/clock.js';

describe("the client's answers are read-only", () => {
  let sandbox: SandboxEventor;
  let client: EventorClient;
  beforeAll(async () => {
    sandbox = await startSandboxEventor({ seed: 11, now: runningTestClock().now });
    client = new EventorClient({ instance: customInstance(sandbox.baseUrl), apiKey: sandbox.apiKey });
  });
  afterAll(async () => {
    await client?.close();
    await sandbox?.close();
  });

  it('writing into an answer does not compile, and fails at run time; the next caller is served the answer unchanged', async () => {
    const organisationId = sandbox.dataset.homeClub.id;
    const persons = await client.persons({ organisationId });
    expect(persons.length).toBeGreaterThan(0);
    const first = persons[0]!;
    const name = { ...first.name };
    expect(() => {
      // @ts-expect-error: an answer's fields are read-only
      first.name.given = 'Changed';
    }).toThrow(TypeError);
    expect(() => {
      // @ts-expect-error: an answer's lists are read-only
      persons.push(first);
    }).toThrow(TypeError);
    expect(() => {
      // @ts-expect-error: so are the lists inside it
      first.roles.pop();
    }).toThrow(TypeError);

    // The same through `call` and `callWithMeta`, which the CLI and the services use.
    const called = await client.call('persons', { organisationId });
    expect(() => {
      // @ts-expect-error: `call` answers the same read-only type
      called[0]!.id = null;
    }).toThrow(TypeError);
    const { data } = await client.callWithMeta('persons', { organisationId });
    expect(() => {
      // @ts-expect-error: and so does `callWithMeta`
      data.sort();
    }).toThrow(TypeError);

    // Served again from the cache: the very answer, unchanged.
    const again = await client.persons({ organisationId });
    expect(again).toBe(persons);
    expect(again[0]!.name).toEqual(name);
    expect(again.length).toBe(persons.length);
  });

  it('a caller that needs a changed value copies it', async () => {
    const events = await client.events({});
    const sorted = [...events].sort((a, b) => (b.start ?? '').localeCompare(a.start ?? ''));
    expect(sorted.length).toBe(events.length);
    expect(Object.isFrozen(events)).toBe(true);
    expect(Object.isFrozen(sorted)).toBe(false);
  });
});
