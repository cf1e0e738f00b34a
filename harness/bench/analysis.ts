/**
 * What the split analysis of large result lists takes from members' answers
 * (docs/splits.md#how-long-it-takes): rounds of 100 concurrent `/events` sent by the sandbox
 * Discord to the real bot (its own process, as in `interactions`) while the bot analyses a list of
 * 100,000 runners with split times as `/results` with splits does, and while it makes and draws a
 * results thread of 3,000 club runners as the results feed does. The lists are made up in the bot's
 * process before the rounds start (large-lists.ts); the figure is the worst round's p99
 * acknowledgement, held to the same 150 ms as `ack-p99-during-large-parse`.
 */
import type { BenchFigure } from './figure.js';
import { type Stage, round, summary, withStage } from './interactions.js';
import type { LargeListShape } from './large-lists.js';
import type { BenchContext, BenchSection } from './section.js';
import { percentile } from './stats.js';

const CONCURRENT = 100;
/** Rounds fired while the bot works, at most (a bound, should the work never end). */
const MAX_ROUNDS = 200;
/** The acknowledgement target of `ack-p99-during-large-parse`, which these share. */
const TARGET_MS = 150;
const CLUB = '4242';

/** The large list is analysed this many times in a row (`--quick` once): a few rounds meet it, not one. */
const ANALYSES = 3;
/** 100,000 runners in 20 classes of the most a class may have (docs/splits.md#limits), a club runner in each. */
const LARGE_LIST: LargeListShape = { classes: 20, runnersPerClass: 5_000, controls: 20, clubPerClass: 10, club: CLUB };
const LARGE_LIST_QUICK: LargeListShape = { ...LARGE_LIST, classes: 4 };
/** 3,000 club runners, 150 in each of 20 classes of 1,000 on 45 controls: 20 graphs, the thread's limits. */
const THREAD: LargeListShape = { classes: 20, runnersPerClass: 1_000, controls: 45, clubPerClass: 150, club: CLUB };
const THREAD_QUICK: LargeListShape = { ...THREAD, classes: 5 };

const ms = (value: number): string => `${value.toFixed(0)} ms`;
const p99 = (times: readonly { ackMs: number }[]): number =>
  percentile(
    times.map((t) => t.ackMs),
    99,
  );

/**
 * Rounds back to back while the bot does `kind` with the list it prepared; the p99 of each round,
 * and what the bot said of its work.
 */
async function roundsDuring(
  stage: Stage,
  kind: 'analyse' | 'thread',
  times: number,
): Promise<{ p99s: number[]; worst: string; work: { ms: number; pictures: number } }> {
  let done: { ms: number; pictures: number } | null = null;
  const working = stage.bot.work(kind, times).then((work) => {
    done = work;
  });
  const p99s: number[] = [];
  let worst = '';
  try {
    while (done === null && p99s.length < MAX_ROUNDS) {
      const times = await round(stage, CONCURRENT);
      const value = p99(times);
      if (p99s.length === 0 || value > Math.max(...p99s)) worst = summary(times);
      p99s.push(value);
    }
  } finally {
    await working;
  }
  return { p99s, worst, work: done! };
}

async function runAnalysis({ quick, write }: BenchContext): Promise<BenchFigure[]> {
  const large = quick ? LARGE_LIST_QUICK : LARGE_LIST;
  const thread = quick ? THREAD_QUICK : THREAD;
  const runners = (shape: LargeListShape) => shape.classes * shape.runnersPerClass;
  write(
    `# rounds of ${CONCURRENT} /events while the bot analyses ${runners(large)} runners on ${large.controls} controls (${large.classes} classes), then while it makes and draws the results thread of ${thread.classes * thread.clubPerClass} club runners (${thread.classes} classes of ${thread.runnersPerClass}, ${thread.controls} controls)` +
      (quick ? ` (quick: ${large.classes} and ${thread.classes} classes instead of 20)` : ''),
  );
  return withStage(async (stage) => {
    // A first round fills the caches: the rounds measured are warm, as a bot's are on a race day.
    await round(stage, CONCURRENT);
    const quiet: number[] = [];
    for (let k = 0; k < 3; k++) quiet.push(p99(await round(stage, CONCURRENT)));
    write(`# with nothing else to do, three rounds' ack p99: ${quiet.map(ms).join(', ')}`);

    const figures: BenchFigure[] = [];
    for (const [kind, shape, name, title, about] of [
      [
        'analyse',
        large,
        'ack-p99-during-large-analysis',
        "The worst round's ack p99 while the bot analyses 100,000 runners",
        `Rounds of ${CONCURRENT} concurrent \`/events\` fired back to back at the real bot while it analyses a made-up result list of 100,000 runners with split times on 20 controls (20 classes of 5,000, the most a class may have, a club runner in each; \`--quick\` 4 classes) as \`/results\` with splits does, in slices of its event loop, ${ANALYSES} times in a row (\`--quick\` once): the worst round's p99 acknowledgement.`,
      ],
      [
        'thread',
        thread,
        'ack-p99-during-thread-pictures',
        'The same while it makes and draws a thread of 3,000 club runners',
        `The same while the bot makes a results thread's split pictures as the results feed does, for a club of 3,000 runners (150 in each of 20 classes of 1,000 on 45 controls; \`--quick\` 5 classes): the classes analysed in slices, 20 graphs drawn one after another in the drawing thread.`,
      ],
    ] as const) {
      const prepared = await stage.bot.prepareList(shape);
      const times = kind === 'analyse' && !quick ? ANALYSES : 1;
      const { p99s, worst, work } = await roundsDuring(stage, kind, times);
      write(
        `# ${kind === 'analyse' ? `analysing ${prepared} runners ${times === 1 ? 'once' : `${times} times`}` : `the thread of ${prepared} runners`} took the bot ${ms(work.ms)}${work.pictures > 0 ? ` (${work.pictures} pictures)` : ''}: ${p99s.length} rounds meanwhile, their ack p99s ${p99s.map(ms).join(', ')}; the worst: ${worst}`,
      );
      figures.push({ name, value: Math.max(...p99s), unit: 'ms', op: '<=', target: TARGET_MS, title, about });
    }
    const logged = [...stage.bot.logged].map(([message, count]) => `${count}× ${message}`);
    write(`# the bot logged ${logged.length === 0 ? 'no warning or error' : logged.join('; ')}`);
    return figures;
  });
}

export const analysisSection: BenchSection = { name: 'analysis', run: runAnalysis };
