import { describe, expect, it } from 'vitest';
import { createLogger } from '../src/log/logger.js';

function collect() {
  const lines: string[] = [];
  return { lines, write: (line: string) => void lines.push(line) };
}

describe('logger', () => {
  it('writes one JSON line per event with the child fields', () => {
    const out = collect();
    const log = createLogger({ write: out.write, now: () => new Date('2026-05-01T10:00:00Z') }).child({ interaction: 'abc' });
    log.info('command', { name: 'events' });
    expect(out.lines).toHaveLength(1);
    expect(JSON.parse(out.lines[0]!)).toEqual({ time: '2026-05-01T10:00:00.000Z', level: 'info', msg: 'command', interaction: 'abc', name: 'events' });
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
    log.warn(`request failed for key ${key}`, { apiKey: 'x', nested: { password: 'hunter2', note: `url?k=${key}` }, err: new Error(`bad ${key}`) });
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
