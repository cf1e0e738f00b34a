/**
 * The sandbox's older `api.php` (docs/live-results.md#the-two-apis): every answer HTTP 200 but a
 * missing or unknown method, JSON written by hand as the real one writes it (names pasted in with
 * only `"` escaped, so a raw tab makes it invalid; `DT_RowClass` twice in a changed row), `hash` an
 * MD5 of the payload and "NOT MODIFIED" when `last_hash` matches it.
 */
import { createHash } from 'node:crypto';
import { instantToLocal } from '../../../src/time/zones.js';
import { LIVE_TIME_ZONE, type LiveRaceRecord } from './races.js';
import { classRows, type RowView } from './view.js';
import type { LiveWorld } from './world.js';

export interface TextReply {
  status: number;
  text: string;
}

/** A string as the hand-built JSON writes it: backslashes and quotes escaped, nothing else (control characters stay raw). */
function str(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
}

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

/** `{"status":"OK", <payload>, "hash":…}`, or NOT MODIFIED when the caller's hash is the payload's. */
function hashed(payload: string, lastHash: string | null): TextReply {
  const hash = md5(payload);
  if (lastHash === hash) return { status: 200, text: '{ "status": "NOT MODIFIED"}' };
  return { status: 200, text: `{"status":"OK",${payload},"hash":"${hash}"}` };
}

const ERR = (message: string): TextReply => ({ status: 400, text: `{ "status": "ERR", "message": ${str(message)}}` });

export function legacyRoute(world: LiveWorld, query: URLSearchParams): TextReply {
  const method = (query.get('method') ?? '').toLowerCase();
  const lastHash = query.get('last_hash');
  const comp = Number(query.get('comp'));
  const race = Number.isInteger(comp) && comp > 0 ? world.race(comp) : undefined;
  const waiting = world.options.legacyWaitingStatus;
  switch (method) {
    case '':
      return ERR('No method given');
    case 'getcompetitions':
      return { status: 200, text: competitions(world) };
    case 'getcompetitioninfo': {
      if (race === undefined) return { status: 200, text: `{"id": ${Number.isFinite(comp) ? comp : 0}}` };
      const c = race.competition;
      const stages =
        c.multiDayStage === null ? '' : `,"multidaystage":${c.multiDayStage},"multidayfirstday":${c.multiDayFirstDay}`;
      return {
        status: 200,
        text: `{"id":${c.id},"name":${str(c.name)},"organizer":${str(c.organizer)},"date":"${c.date}","timediff":${c.timediff},"timezone":"","isPublic":1${stages}}`,
      };
    }
    case 'getclasses': {
      const classes = race === undefined ? [] : uploaded(world, race).map((c) => `{"className":${str(c.name)}}`);
      return hashed(`"classes":[${classes.join(',')}]`, lastHash);
    }
    case 'getclassresults': {
      const name = query.get('class') ?? '';
      const cls = race === undefined ? undefined : uploaded(world, race).find((c) => c.name === name);
      const rows = race === undefined || cls === undefined ? [] : classRows(race, cls, world.now(), waiting);
      const controls = (cls?.radioControls ?? []).map((c) => `{"code":${c.code},"name":${str(c.name)}}`);
      return hashed(
        `"className":${str(name)},"splitcontrols":[${controls.join(',')}],"results":[${rows.map((row) => legacyRow(row, true)).join(',')}]`,
        lastHash,
      );
    }
    case 'getclubresults': {
      const club = query.get('club') ?? '';
      const rows =
        race === undefined
          ? []
          : uploaded(world, race).flatMap((cls) =>
              classRows(race, cls, world.now(), waiting)
                .filter((row) => row.runner.club === club)
                .map((row) => legacyRow(row, false, cls.name)),
            );
      return hashed(`"clubName":${str(club)},"results":[${rows.join(',')}]`, lastHash);
    }
    case 'getlastpassings':
      return hashed(`"passings":[${race === undefined ? '' : lastPassings(world, race)}]`, lastHash);
    case 'getsplitcontrols': {
      // The class name printed unquoted, as the real method does: invalid JSON for any class not a number.
      const controls =
        race === undefined
          ? []
          : uploaded(world, race).flatMap((cls) =>
              cls.radioControls.map(
                (c, order) => `{"class":${cls.name},"code":${c.code},"name":${str(c.name)},"order":${order}}`,
              ),
            );
      return hashed(`"splitcontrols":[${controls.join(',')}]`, lastHash);
    }
    default:
      return ERR('No method given');
  }
}

function uploaded(world: LiveWorld, race: LiveRaceRecord) {
  return world.now() < race.uploadAt ? [] : race.classes;
}

function competitions(world: LiveWorld): string {
  const list = [...world.competitions]
    .sort((a, b) => b.date.localeCompare(a.date) || b.id - a.id)
    .map((c) => {
      const stages =
        c.multiDayStage === null ? '' : `,"multidaystage":${c.multiDayStage},"multidayfirstday":${c.multiDayFirstDay}`;
      return `{"id":${c.id},"name":${str(c.name)},"organizer":${str(c.organizer)},"date":"${c.date}","timediff":${c.timediff}${stages}}`;
    });
  return `{"competitions":[${list.join(',')}]}`;
}

/** A row as api.php writes it: times as strings, `""` where there is none; club rows without splits. */
function legacyRow(row: RowView, withSplits: boolean, className?: string): string {
  const parts = [
    `"place":${str(row.place === null ? (row.status === 9 || row.status === 10 ? '' : '-') : row.tied ? '=' : String(row.place))}`,
    `"name":${str(row.runner.name)}`,
    // The club's `"` replaced by `'`.
    `"club":${str(row.runner.club.replace(/"/g, "'"))}`,
  ];
  if (className !== undefined) parts.push(`"class":${str(className)}`);
  parts.push(
    `"result":"${row.result ?? (row.status === 9 || row.status === 10 ? '' : '-3')}"`,
    `"status":${row.status}`,
    `"timeplus":"${row.timeplus ?? ''}"`,
  );
  if (withSplits) {
    parts.push(`"progress":${row.progress}`);
    if (row.splits.length > 0) {
      const ok = row.status === 0 || row.status === 9 || row.status === 10;
      const splits = row.splits.map((s) =>
        s.time === null
          ? `"${s.code}":"","${s.code}_status":1,"${s.code}_place":""`
          : `"${s.code}":${s.time},"${s.code}_status":${ok ? 0 : row.status},"${s.code}_place":${ok ? s.place : '"-"'},"${s.code}_timeplus":${s.timeplus}`,
      );
      parts.push(`"splits":{${splits.join(',')}}`);
    }
  }
  parts.push(`"start":${row.runner.start === null || row.runner.startMissing ? '""' : row.runner.start}`);
  // A row changed in the last 120 s is marked, and in class results the mark is printed twice.
  if (row.fresh)
    parts.push(withSplits ? '"DT_RowClass":"new_result","DT_RowClass":"new_result"' : '"DT_RowClass":"new_result"');
  return `{${parts.join(',')}}`;
}

/** The five newest passings; `time` formatted ("126:47"), `passtime` the upload's local time. */
function lastPassings(world: LiveWorld, race: LiveRaceRecord): string {
  const now = world.now();
  const all: { at: number; text: string }[] = [];
  for (const cls of uploaded(world, race)) {
    for (const row of classRows(race, cls, now, world.options.legacyWaitingStatus)) {
      const add = (at: number, control: number, name: string, time: number) =>
        all.push({
          at,
          text: `{"passtime":"${instantToLocal(new Date(at), LIVE_TIME_ZONE).clock}","runnerName":${str(row.runner.name)},"class":${str(cls.name)},"control":${control},"controlName":${str(name)},"time":"${formatted(time)}"}`,
        });
      for (const split of row.splits)
        if (split.time !== null)
          add(
            split.changed! * 1000,
            split.code,
            cls.radioControls.find((c) => c.code === split.code)?.name ?? '',
            split.time,
          );
      if (row.result !== null && row.runner.final !== null) add(row.runner.final.at, 1000, '', row.result);
    }
  }
  return all
    .sort((a, b) => b.at - a.at)
    .slice(0, 5)
    .map((p) => p.text)
    .join(',');
}

function formatted(hundredths: number): string {
  const seconds = Math.floor(hundredths / 100);
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}
