import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log/logger.js';
import { secretForms } from '../support/secret-forms.js';

function collect() {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

describe('logger', () => {
  it('writes one JSON line per event with the child fields', () => {
    const out = collect();
    const log = createLogger({ write: out.write, now: () => new Date('2026-05-01T10:00:00Z') }).child({
      interaction: 'abc',
    });
    log.info('command', { name: 'events' });
    expect(out.lines).toHaveLength(1);
    expect(JSON.parse(out.lines[0]!)).toEqual({
      time: '2026-05-01T10:00:00.000Z',
      level: 'info',
      msg: 'command',
      interaction: 'abc',
      name: 'events',
    });
  });

  it('drops levels below the threshold', () => {
    const out = collect();
    const log = createLogger({ level: 'warn', write: out.write });
    log.info('quiet');
    log.debug('quieter');
    log.error('loud');
    expect(out.lines.map((l) => (JSON.parse(l) as { msg: string }).msg)).toEqual(['loud']);
  });

  it('masks secret-named fields and registered secrets anywhere in the line', () => {
    const out = collect();
    const log = createLogger({ write: out.write });
    const key = '058b7db0e5714f779d8821e7fbcd0307';
    log.redact(key);
    log.warn(`request failed for key ${key}`, {
      apiKey: 'x',
      nested: { password: 'hunter2', note: `url?k=${key}` },
      err: new Error(`bad ${key}`),
    });
    const line = out.lines[0]!;
    expect(line).not.toContain(key);
    expect(line).not.toContain('hunter2');
    expect(line).toContain('[redacted]');
    expect(JSON.parse(line)).toMatchObject({ nested: { password: '[redacted]' } });
  });
});

describe('logger redaction lifetimes', () => {
  it('keeps permanent secrets masked however many transient ones come and go', () => {
    const out = collect();
    const log = createLogger({ write: out.write });
    log.redact('permanent-token-123456');
    for (let i = 0; i < 2_500; i++) log.redact(`http://127.0.0.1/login/${String(i).padStart(6, '0')}`, 'transient');
    log.info('permanent-token-123456 http://127.0.0.1/login/002499 http://127.0.0.1/login/000000');
    const line = out.lines[0]!;
    expect(line).not.toContain('permanent-token-123456');
    expect(line).not.toContain('login/002499');
    // The oldest transient ones were let go; they expired long before (login links live 5 minutes).
    expect(line).toContain('login/000000');
  });
});

describe('letting go of a transient secret', () => {
  it('stops holding a password once the handler that used it says so', () => {
    const out = collect();
    const log = createLogger({ write: out.write });
    const forget = log.redact('hunter2-password', 'transient');
    log.info('using hunter2-password');
    forget();
    log.info('later hunter2-password');
    expect(out.lines[0]).not.toContain('hunter2-password');
    // Nothing logs it after the call; if something did, it would show: the logger no longer holds it.
    expect(out.lines[1]).toContain('hunter2-password');
  });
});

describe('a registered secret is masked in every form it takes in a line', () => {
  // Independent of the logger's own list of forms: what other code would make of the secret.
  const PASSWORD = 'pa"ss\\wo&rd=+ åÅ-42';
  const LOGIN_URL = 'https://eventor.orientering.se/login/8c1f2e9a?token=Zx9%2Fq&redirect=/Events/Show/123#top';
  const API_KEY = '058b7db0e5714f779d8821e7fbcd0307';

  const base64 = (s: string) => Buffer.from(s, 'utf8').toString('base64');
  const forms = secretForms;

  /** Every form in a place a log line can carry it: the message, a nested value, a field name, an error. */
  function logEveryForm(secret: string): { lines: string[]; shown: string[] } {
    const out = collect();
    const log = createLogger({ write: out.write, level: 'debug' });
    log.redact(secret, secret === PASSWORD || secret === LOGIN_URL ? 'transient' : 'permanent');
    const shown: string[] = [];
    for (const [name, form] of Object.entries(forms(secret))) {
      log.info(`before ${form} after`, { form: name });
      log.warn('nested', {
        form: name,
        request: { url: `https://example.org/cb?next=${form}&x=1`, list: [`<${form}>`] },
      });
      log.debug('as a field name', { form: name, seen: { [form]: true } });
      const error = new Error(`failed with ${form}`, { cause: new Error(`deeper ${form}`) });
      log.error('error', { form: name, error });
      shown.push(form);
    }
    // A stack that holds it where the message does not, and a code.
    const quiet = new Error('quiet');
    quiet.stack = `Error: quiet\n    at handler (/srv/${secret}/bot.js:1:1)`;
    Object.assign(quiet, { code: `E_${secret}` });
    log.error('stack', { error: quiet });
    // Inside a longer base64 text, at each of the three alignments.
    for (const prefix of ['u:', 'us:', 'use:']) log.info('basic auth', { header: `Basic ${base64(prefix + secret)}` });
    return { lines: out.lines, shown };
  }

  for (const [label, secret] of [
    ['a password with "\\&=+ å', PASSWORD],
    ['a login URL with a query string', LOGIN_URL],
    ['an API key', API_KEY],
  ] as const) {
    it(`${label}: no form of it in any line, the rest of the line intact`, () => {
      const { lines } = logEveryForm(secret);
      expect(lines.length).toBe(Object.keys(forms(secret)).length * 4 + 4);
      const every = Object.values(forms(secret));
      for (const line of lines) {
        for (const form of every) expect(line, `form ${JSON.stringify(form)} in ${line}`).not.toContain(form);
        // Decoded, the line holds nothing of it either.
        const decoded = JSON.stringify(JSON.parse(line));
        expect(JSON.parse(line)).toBeTruthy();
        expect(decoded).not.toContain(JSON.stringify(secret).slice(1, -1));
        expect(line).toContain('[redacted]');
      }
      const first = JSON.parse(lines[0]!) as { msg: string };
      expect(first.msg).toBe('before [redacted] after');
      const errorLine = JSON.parse(lines[3]!) as {
        error: { message: string; stack: string; cause: { message: string } };
      };
      expect(errorLine.error.message).toBe('failed with [redacted]');
      expect(errorLine.error.stack).toContain('failed with [redacted]');
      expect(errorLine.error.cause.message).toBe('deeper [redacted]');
      const stackLine = JSON.parse(lines.at(-4)!) as { error: { stack: string; code: string } };
      expect(stackLine.error.stack).toBe('Error: quiet\n    at handler (/srv/[redacted]/bot.js:1:1)');
      expect(stackLine.error.code).toBe('E_[redacted]');
      for (const line of lines.slice(-3)) {
        const header = (JSON.parse(line) as { header: string }).header;
        expect(
          Buffer.from(header.replace(/^Basic /, '').replace(/\[redacted\]/g, ''), 'base64').toString('utf8'),
        ).not.toContain(secret);
      }
    });
  }

  it('lets go of every form of a transient secret at once, and keeps a permanent one that shares it', () => {
    const out = collect();
    const log = createLogger({ write: out.write });
    const forget = log.redact(PASSWORD, 'transient');
    log.info(`a ${encodeURIComponent(PASSWORD)}`);
    forget();
    log.info(`b ${encodeURIComponent(PASSWORD)}`);
    expect(out.lines[0]).not.toContain(encodeURIComponent(PASSWORD));
    expect(out.lines[1]).toContain(encodeURIComponent(PASSWORD));
    log.redact(API_KEY);
    const forgetKey = log.redact(API_KEY, 'transient');
    forgetKey();
    log.info(`c ${API_KEY} ${base64(API_KEY)}`);
    expect(out.lines[2]).toBe(out.lines[2]!.replace(API_KEY, '').replace(base64(API_KEY), ''));
  });

  it('does not log error fields that libraries fill with request details (a Discord interaction URL holds its token)', () => {
    const out = collect();
    const log = createLogger({ write: out.write });
    const error = Object.assign(new Error('Unknown interaction'), {
      url: 'https://discord.com/api/v10/interactions/1/aW50ZXJhY3Rpb24tdG9rZW4/callback',
      requestBody: { json: { content: 'x' } },
    });
    log.error('reply failed', { error });
    expect(out.lines[0]).not.toContain('aW50ZXJhY3Rpb24tdG9rZW4');
    expect(out.lines[0]).toContain('Unknown interaction');
  });
});
