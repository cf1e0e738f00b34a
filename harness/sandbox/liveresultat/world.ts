/**
 * What both APIs of the sandbox LiveResultat read: the competitions, each race built on first use
 * (and again when an option that shapes it changes), and the clock.
 */
import type { SandboxDataset } from '../eventor/dataset.js';
import type { LiveOptions } from './options.js';
import { buildRace, type LiveCompetitionRecord, liveCompetitions, type LiveRaceRecord } from './races.js';

/** The options that shape the uploaded runners (the others only change how answers are written). */
const SHAPING: readonly (keyof LiveOptions)[] = [
  'clubNames',
  'slashClasses',
  'ghostRows',
  'tabInName',
  'missingStarts',
  'lateCorrection',
  'relayLegTime',
  'dnsAfterMinutes',
  'decoys',
];

export class LiveWorld {
  readonly dataset: SandboxDataset;
  readonly options: LiveOptions;
  readonly now: () => number;
  #shape = '';
  #competitions: LiveCompetitionRecord[] = [];
  #races = new Map<number, LiveRaceRecord>();

  constructor(dataset: SandboxDataset, options: LiveOptions, now: () => number) {
    this.dataset = dataset;
    this.options = options;
    this.now = now;
  }

  #fresh(): void {
    const shape = JSON.stringify(SHAPING.map((key) => this.options[key]));
    if (shape === this.#shape) return;
    this.#shape = shape;
    this.#competitions = liveCompetitions(this.dataset, this.options);
    this.#races.clear();
  }

  get competitions(): readonly LiveCompetitionRecord[] {
    this.#fresh();
    return this.#competitions;
  }

  competition(id: number): LiveCompetitionRecord | undefined {
    return this.competitions.find((c) => c.id === id);
  }

  /** The race of a competition, as uploaded (tests may change its runners: the change stays until an option reshapes it). */
  race(id: number): LiveRaceRecord | undefined {
    const competition = this.competition(id);
    if (competition === undefined) return undefined;
    let race = this.#races.get(id);
    if (race === undefined) {
      race = buildRace(this.dataset, competition, this.options);
      this.#races.set(id, race);
    }
    return race;
  }

  /** The competitions of an Eventor event's races, in race order. */
  competitionsOfEvent(eventId: string): LiveCompetitionRecord[] {
    return this.competitions.filter((c) => c.eventId === eventId);
  }
}
