import { describe, expect, it } from 'vitest';
import { botConfigFromEnv } from '../../src/bot/config.js';
import { ConfigError } from '../../src/config/errors.js';
import { MAX_SHARD_COUNT, servesGuild, shardingFromEnv, shardOfGuild, splitShards } from '../../src/config/sharding.js';
import { shardOf } from '../../harness/sandbox/discord/index.js';

/**
 * SHARD_COUNT and SHARDS (docs/operators.md#several-processes-sharding): what they accept, the one
 * line each bad value gets, the shard of a server and which process serves it.
 */

const BASE = { DISCORD_TOKEN: 'sandbox.sharding-test-token', SECRET_KEY: 'sharding-test-secret-key-0123456789' };

function parsed(env: { SHARD_COUNT?: string; SHARDS?: string }): { value: unknown; problems: string[] } {
  const problems: string[] = [];
  const value = shardingFromEnv(env, problems);
  return { value, problems };
}

/** A guild id whose shard, of `count`, is `shard`: the base is a multiple of every count used here. */
const guildOn = (shard: number, count: number, k = 0): string =>
  String(((420_000_000_000n + BigInt(k * count + shard)) << 22n) | 12345n);

describe('SHARD_COUNT and SHARDS', () => {
  it('unset: unsharded (null), no problem', () => {
    expect(parsed({})).toEqual({ value: null, problems: [] });
    expect(parsed({ SHARD_COUNT: '  ' })).toEqual({ value: null, problems: [] });
  });

  it('SHARD_COUNT alone or with SHARDS=all runs every shard', () => {
    expect(parsed({ SHARD_COUNT: '3' }).value).toEqual({ shardCount: 3, shards: [0, 1, 2] });
    expect(parsed({ SHARD_COUNT: '2', SHARDS: 'ALL' }).value).toEqual({ shardCount: 2, shards: [0, 1] });
    expect(parsed({ SHARD_COUNT: '1' }).value).toEqual({ shardCount: 1, shards: [0] });
  });

  it('SHARDS lists ids with commas and spaces, any order, sorted', () => {
    expect(parsed({ SHARD_COUNT: '4', SHARDS: ' 3, 1 ' })).toEqual({
      value: { shardCount: 4, shards: [1, 3] },
      problems: [],
    });
  });

  it('every bad value is one line naming the variable', () => {
    const cases: Array<[{ SHARD_COUNT?: string; SHARDS?: string }, string]> = [
      [{ SHARD_COUNT: '0' }, `SHARD_COUNT must be a whole number from 1 to ${MAX_SHARD_COUNT} (got '0')`],
      [{ SHARD_COUNT: 'two' }, `SHARD_COUNT must be a whole number from 1 to ${MAX_SHARD_COUNT} (got 'two')`],
      [{ SHARD_COUNT: '-1' }, `SHARD_COUNT must be a whole number from 1 to ${MAX_SHARD_COUNT} (got '-1')`],
      [{ SHARD_COUNT: '2.5' }, `SHARD_COUNT must be a whole number from 1 to ${MAX_SHARD_COUNT} (got '2.5')`],
      [
        { SHARD_COUNT: '123456789012345678' },
        `SHARD_COUNT must be a whole number from 1 to ${MAX_SHARD_COUNT} (got '123456789012345678')`,
      ],
      [{ SHARD_COUNT: '2', SHARDS: '2' }, 'SHARDS: shard 2 does not exist with SHARD_COUNT=2 (shard ids are 0 to 1)'],
      [{ SHARD_COUNT: '2', SHARDS: '0,0' }, 'SHARDS names shard 0 twice'],
      [
        { SHARD_COUNT: '2', SHARDS: '[0,1]' },
        "SHARDS must be 'all' or shard ids separated by commas, e.g. 0,1 (got '[0,1]')",
      ],
      [
        { SHARD_COUNT: '2', SHARDS: '0,' },
        "SHARDS must be 'all' or shard ids separated by commas, e.g. 0,1 (got '0,')",
      ],
      [{ SHARDS: '0' }, 'SHARDS is set but SHARD_COUNT is not: set SHARD_COUNT to how many shards all processes run'],
    ];
    for (const [env, problem] of cases)
      expect(parsed(env), JSON.stringify(env)).toEqual({ value: null, problems: [problem] });
  });

  it('reach the bot configuration: sharding when set, absent when not, a ConfigError when bad', () => {
    expect(botConfigFromEnv(BASE).sharding).toBeUndefined();
    expect(botConfigFromEnv({ ...BASE, SHARD_COUNT: '2', SHARDS: '1' }).sharding).toEqual({
      shardCount: 2,
      shards: [1],
    });
    expect(() => botConfigFromEnv({ ...BASE, SHARD_COUNT: '2', SHARDS: '5' })).toThrow(ConfigError);
  });
});

describe('which process serves a server', () => {
  it("a server's shard is (id >> 22) % count, as Discord routes it", () => {
    for (const count of [1, 2, 3, 7])
      for (let shard = 0; shard < count; shard++) {
        const id = guildOn(shard, count, 5);
        expect(shardOfGuild(id, count)).toBe(shard);
        expect(shardOfGuild(id, count)).toBe(shardOf(id, count));
      }
    // A real-looking id: the low 22 bits (worker, process, increment) play no part.
    expect(shardOfGuild('41771983423143936', 2)).toBe(shardOf('41771983423143936', 2));
  });

  it('unsharded serves every server; sharded, exactly one process of a split serves each', () => {
    const ids = Array.from({ length: 12 }, (_, k) => guildOn(k % 4, 4, k));
    expect(ids.every((id) => servesGuild(undefined, id) && servesGuild(null, id))).toBe(true);
    const processes = splitShards(4, 3).map((shards) => ({ shardCount: 4, shards }));
    for (const id of ids) expect(processes.filter((p) => servesGuild(p, id))).toHaveLength(1);
    expect(servesGuild({ shardCount: 4, shards: [1, 2] }, guildOn(1, 4))).toBe(true);
    expect(servesGuild({ shardCount: 4, shards: [1, 2] }, guildOn(3, 4))).toBe(false);
  });

  it('splits shards into consecutive runs, as evenly as they go', () => {
    expect(splitShards(2, 2)).toEqual([[0], [1]]);
    expect(splitShards(4, 2)).toEqual([
      [0, 1],
      [2, 3],
    ]);
    expect(splitShards(5, 2)).toEqual([
      [0, 1],
      [2, 3, 4],
    ]);
    expect(splitShards(3, 3)).toEqual([[0], [1], [2]]);
    expect(splitShards(7, 3).flat()).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
