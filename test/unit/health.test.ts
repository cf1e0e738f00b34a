import { describe, expect, it } from 'vitest';
import {
  FEEDS_GRACE_MS,
  GATEWAY_GRACE_MS,
  judgeHealth,
  retiredHeartbeats,
  STALE_AFTER_MS,
} from '../../src/app/health.js';
import type { Heartbeat } from '../../src/store/interfaces.js';
import { testNow } from '../support/clock.js';

const NOW = testNow().getTime();
const at = (agoMs: number): string => new Date(NOW - agoMs).toISOString();
const SECOND = 1_000;
const MINUTE = 60_000;

/** A process that started an hour ago and is fine: beat 10 s ago, gateway ready, posts ran 20 s ago. */
function beat(shards = '0', shardCount = 1, change: Partial<Heartbeat> = {}): Heartbeat {
  return {
    process: `${shards}/${shardCount}`,
    shardCount,
    shards,
    pid: 4242,
    host: 'bot-host',
    startedAt: at(60 * MINUTE),
    beatAt: at(10 * SECOND),
    stoppedAt: null,
    gateway: 'ready',
    gatewaySince: at(59 * MINUTE),
    feedsRanAt: at(20 * SECOND),
    eventorOkAt: at(2 * MINUTE),
    eventorFailedAt: null,
    discordOkAt: at(5 * SECOND),
    discordFailedAt: null,
    ...change,
  };
}

describe('health: the verdict on the heartbeats', () => {
  it('a process that beats, is connected and runs its posts is healthy, said in one line', () => {
    const verdict = judgeHealth([beat()], testNow());
    expect(verdict.healthy).toBe(true);
    expect(verdict.line).toBe(
      'healthy: the bot, heartbeat 10 s ago, gateway ready, automatic posts ran 20 s ago, Discord answered 5 s ago, Eventor answered 2 min ago',
    );
    expect(verdict.line).not.toContain('\n');
  });

  it('no heartbeat at all: not running, or not started yet', () => {
    expect(judgeHealth([], testNow())).toEqual({
      healthy: false,
      line: 'no bot process has recorded a heartbeat: the bot is not running, or has not finished starting',
    });
  });

  it('each way a process is unwell is named, with how long', () => {
    const cases: Array<[Partial<Heartbeat>, string]> = [
      [{ stoppedAt: at(3 * MINUTE) }, 'stopped 3 min ago'],
      [{ beatAt: at(STALE_AFTER_MS + 5 * SECOND) }, 'no heartbeat for 95 s: the process is gone or stuck'],
      [
        { gateway: 'connecting', gatewaySince: at(GATEWAY_GRACE_MS + MINUTE) },
        'the Discord gateway has been connecting for 3 min',
      ],
      [{ feedsRanAt: at(FEEDS_GRACE_MS + MINUTE) }, 'the automatic posts last ran 11 min ago'],
      [{ feedsRanAt: null }, 'the automatic posts have not run since the start 60 min ago'],
      [
        { discordOkAt: at(15 * MINUTE), discordFailedAt: at(10 * SECOND) },
        'Discord has failed every request for 15 min',
      ],
      [{ eventorOkAt: at(45 * MINUTE), eventorFailedAt: at(MINUTE) }, 'Eventor has failed every request for 45 min'],
      [{ eventorOkAt: null, eventorFailedAt: at(MINUTE) }, 'Eventor has failed every request for 60 min'],
    ];
    for (const [change, words] of cases) {
      const verdict = judgeHealth([beat('0', 1, change)], testNow());
      expect(verdict, words).toEqual({ healthy: false, line: `unhealthy: the bot (pid 4242 on bot-host): ${words}` });
    }
  });

  it('what passes by itself is not yet a fault: a short reconnect, a young process, a short outage', () => {
    for (const change of [
      { gateway: 'connecting', gatewaySince: at(GATEWAY_GRACE_MS - SECOND) },
      { startedAt: at(MINUTE), feedsRanAt: null },
      { discordOkAt: at(5 * MINUTE), discordFailedAt: at(SECOND) },
      { eventorOkAt: at(20 * MINUTE), eventorFailedAt: at(SECOND) },
      // A failure followed by an answer is over.
      { eventorOkAt: at(SECOND), eventorFailedAt: at(50 * MINUTE) },
    ] satisfies Array<Partial<Heartbeat>>)
      expect(judgeHealth([beat('0', 1, change)], testNow()).healthy, JSON.stringify(change)).toBe(true);
  });

  it('several processes: each unwell one is named by its shards; with one process asked for, only it counts', () => {
    const beats = [
      beat('0', 3),
      beat('1', 3, { beatAt: at(10 * MINUTE), pid: 11 }),
      beat('2', 3, { stoppedAt: at(MINUTE), pid: 12 }),
    ];
    const all = judgeHealth(beats, testNow());
    expect(all).toEqual({
      healthy: false,
      line:
        'unhealthy: process shards 1 of 3 (pid 11 on bot-host): no heartbeat for 10 min: the process is gone or stuck; ' +
        'process shards 2 of 3 (pid 12 on bot-host): stopped 60 s ago',
    });
    expect(judgeHealth(beats, testNow(), '0/3').healthy).toBe(true);
    expect(judgeHealth(beats, testNow(), '1/3').healthy).toBe(false);
    expect(judgeHealth(beats, testNow(), '5/6')).toEqual({
      healthy: false,
      line: 'process 5 of 6 has recorded no heartbeat: it is not running, or has not finished starting',
    });
    const fine = judgeHealth([beat('0', 2), beat('1', 2)], testNow());
    expect(fine.healthy).toBe(true);
    expect(fine.line).toMatch(/^healthy: 2 processes, /);
  });

  it('a shard no process runs is said', () => {
    expect(judgeHealth([beat('0-1', 4), beat('3', 4)], testNow())).toEqual({
      healthy: false,
      line: 'unhealthy: no process runs shard 2 of 4',
    });
  });

  it('a starting process replaces the heartbeats of an earlier configuration that no longer runs, and only those', () => {
    const me = beat('0', 2);
    const beats = [
      beat('0', 1, { beatAt: at(2 * STALE_AFTER_MS) }), // the unsharded bot before: silent, another count
      beat('0-1', 4, { stoppedAt: at(MINUTE) }), // stopped, another count
      beat('0', 3), // running: kept, health names it until it stops
      beat('1', 2, { beatAt: at(2 * STALE_AFTER_MS) }), // the other half of this configuration: kept, health says it is gone
      beat('0', 2, { stoppedAt: at(MINUTE) }), // this very process's own last heartbeat: replaced by the beat itself
    ];
    expect(retiredHeartbeats(beats, me, testNow()).sort()).toEqual(['0-1/4', '0/1']);
  });
});
