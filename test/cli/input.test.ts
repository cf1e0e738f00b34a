import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli/main.js';
import { EventorClient } from '../../src/eventor/client.js';
import { ValidationError } from '../../src/eventor/errors.js';
import { customInstance } from '../../src/eventor/instances.js';
import { prepareRequest } from '../../src/eventor/operations.js';
import { startSandboxEventor } from '../../harness/sandbox/eventor/server.js';
import { capture } from '../support/cli-process.js';
import { runningTestClock } from '../support/clock.js';

type Sandbox = Awaited<ReturnType<typeof startSandboxEventor>>;

describe('the command line refuses a mistake before any request, and says what is wrong', () => {
  let sandbox: Sandbox;
  let env: NodeJS.ProcessEnv;
  let dir: string;

  beforeAll(async () => {
    sandbox = await startSandboxEventor({ port: 0, seed: 7, now: runningTestClock().now });
    env = { EVENTOR_BASE_URL: sandbox.baseUrl, EVENTOR_API_KEY: sandbox.apiKey };
    dir = await mkdtemp(path.join(tmpdir(), 'eventor-bot-cli-input-'));
  });
  afterAll(async () => {
    await sandbox?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('an impossible date and a non-numeric id are refused naming the parameter; nothing reaches Eventor', async () => {
    const before = sandbox.requests.length;
    const date = capture(env);
    expect(await main(['query', 'events', '--fromDate', '2026-02-30', '--toDate', '2026-03-10'], date)).toBe(2);
    expect(date.stderr()).toContain('fromDate');
    expect(date.stderr()).toContain('2026-02-30 does not exist');
    const time = capture(env);
    expect(await main(['query', 'events', '--fromDate', '2026-02-01 24:30:00', '--toDate', '2026-03-10'], time)).toBe(
      2,
    );
    expect(time.stderr()).toContain('real time of day');
    const id = capture(env);
    expect(await main(['query', 'event', '--eventId', 'abc'], id)).toBe(2);
    expect(id.stderr()).toContain("'eventId'");
    expect(id.stderr()).toContain('whole number');
    const list = capture(env);
    expect(
      await main(
        ['query', 'events', '--fromDate', '2026-02-01', '--toDate', '2026-03-10', '--organisationIds', '12,x3'],
        list,
      ),
    ).toBe(2);
    expect(list.stderr()).toContain('organisationIds');
    // The client refuses as well: the check is in the operation's parameters, not in the CLI.
    const client = new EventorClient({
      instance: customInstance(sandbox.baseUrl),
      apiKey: sandbox.apiKey,
      cache: false,
    });
    try {
      await expect(client.call('events', { fromDate: '2026-02-30', toDate: '2026-03-10' })).rejects.toBeInstanceOf(
        ValidationError,
      );
      await expect(client.call('event', { eventId: 'abc' })).rejects.toBeInstanceOf(ValidationError);
    } finally {
      await client.close();
    }
    expect(sandbox.requests.length).toBe(before);
    // A real leap day still goes through.
    expect(await main(['query', 'events', '--fromDate', '2028-02-29', '--toDate', '2028-03-01'], capture(env))).toBe(0);
  });

  it('the error line names the operation once', async () => {
    const io = capture(env);
    expect(await main(['query', 'events', '--fromDate', 'yesterday-ish'], io)).toBe(2);
    expect(io.stderr()).toMatch(/^eventor-bot query events: invalid parameter 'fromDate'/);
    expect(io.stderr()).not.toContain('events: events:');
  });

  it('--raw before the operation keeps the operation; --raw on an operation without IOF XML is refused', async () => {
    const events = await sandboxEventWithResults();
    const before = capture(env);
    expect(await main(['query', '--raw', 'results-event-iofxml', '--eventId', events], before)).toBe(0);
    expect(before.stdout()).toMatch(/^<\?xml|<ResultList/);
    const other = capture(env);
    const requests = sandbox.requests.length;
    expect(await main(['query', 'organisation-apikey', '--raw'], other)).toBe(2);
    expect(other.stderr()).toContain('--raw prints the IOF XML of');
    expect(sandbox.requests.length).toBe(requests);
  });

  it('a base URL without /api: the NotFound says where /api belongs', async () => {
    const io = capture({ EVENTOR_BASE_URL: sandbox.baseUrl.replace(/\/api$/, ''), EVENTOR_API_KEY: sandbox.apiKey });
    expect(await main(['query', 'organisation-apikey'], io)).toBe(1);
    expect(io.stderr()).toContain('NotFound');
    expect(io.stderr()).toContain('must end in /api');
  });

  it('deploy-commands --guild 123 says the id is too short; letters are not digits', async () => {
    const short = capture({ DISCORD_TOKEN: 'x' });
    expect(await main(['deploy-commands', '--guild', '123'], short)).toBe(2);
    expect(short.stderr()).toContain('too short for a Discord server id (17 to 20 digits');
    const letters = capture({ DISCORD_TOKEN: 'x' });
    expect(await main(['deploy-commands', '--guild', 'abc'], letters)).toBe(2);
    expect(letters.stderr()).toContain('digits only');
  });

  it('parse says what it reads, not "unusable response", for an IOF document it does not read', async () => {
    const file = path.join(dir, 'organisations.xml');
    await writeFile(
      file,
      '<?xml version="1.0"?><OrganisationList xmlns="http://www.orienteering.org/datastandard/3.0" iofVersion="3.0"/>',
    );
    const io = capture();
    expect(await main(['parse', file], io)).toBe(1);
    expect(io.stderr()).not.toContain('unusable response');
    expect(io.stderr()).toContain('OrganisationList is not read');
    expect(io.stderr()).toContain('ResultList and StartList');
  });

  it('the configuration error lists every instance, no-se-host included', async () => {
    const io = capture({ EVENTOR_API_KEY: 'k' });
    expect(await main(['query', 'organisation-apikey'], io)).toBe(2);
    expect(io.stderr()).toContain('no-se-host');
  });

  it('the JSON that the docs give for save-competitor is accepted as it stands', async () => {
    // The command line is documented for operators in docs/, not in the README; whichever page
    // gives the example, it must work as printed.
    const pages = ['README.md', ...(await readdir('docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
    const blocks: string[] = [];
    for (const page of pages) {
      const block = /`save-competitor` takes[\s\S]*?```json\n([\s\S]*?)```/.exec(await readFile(page, 'utf8'));
      if (block) blocks.push(block[1]!.trim());
    }
    expect(blocks.length).toBeGreaterThan(0);
    for (const competitor of blocks) {
      const request = prepareRequest('save-competitor', { competitor });
      expect(request.method).toBe('PUT');
      expect(String(request.body)).toContain('9407999');
    }
  });

  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { version: string };
    const io = capture();
    expect(await main(['--version'], io)).toBe(0);
    expect(io.stdout()).toBe(`eventor-bot ${pkg.version}\n`);
  });

  /** The id of a sandbox event that has results. */
  async function sandboxEventWithResults(): Promise<string> {
    const event = sandbox.dataset.events.find((e) => e.hasResults);
    expect(event).toBeDefined();
    return event!.id;
  }
});
