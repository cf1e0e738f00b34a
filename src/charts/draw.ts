/**
 * The one way the bot draws pictures (docs/splits.md#pictures): a request that is plain data (the
 * course, what it is of, the language), a picture back. Callers never hold the renderers' functions
 * or words, so the drawing happens in another thread behind this call.
 *
 * Drawing a splits graph costs 60 to 100 ms of CPU, most of it in Chart.js on whichever thread
 * runs it; on the bot's event loop a results thread of five classes would hold other members'
 * acknowledgements for half a second. So pictures are drawn in one worker thread shared by the
 * process (docs/decisions/chart-worker.md): started on the first picture (start-up pays nothing),
 * kept for the next ones, holding the process open only while it has work. If it dies, the
 * pictures it held fail with {@link DrawingFailed} and the next picture starts a new worker.
 *
 * This one file is both sides: imported, it is the main thread's pool and loads no renderer;
 * started as the worker (workerData names its role), it loads the renderers and draws.
 */
import { constants, setPriority } from 'node:os';
import type { MessagePort } from 'node:worker_threads';
import { isWorkerFor, SharedWorker, type WorkerCall } from '../loop/shared-worker.js';
import { type PictureRequest, shownRunners } from './request.js';
import type { ClubYearInput, SeasonYearInput } from './season-graph.js';
import type { ChartPicture } from './splits-graph.js';
import type { ChartLanguage } from './words.js';

export { type PictureRequest, shownRunners } from './request.js';

/** The season's pictures (season-graph.ts): a member's year, and the club's. */
export type SeasonPictureRequest =
  | ({ kind: 'season'; language: ChartLanguage } & Omit<SeasonYearInput, 'words'>)
  | ({ kind: 'club-season'; language: ChartLanguage } & Omit<ClubYearInput, 'words'>);

/** Every picture the drawing thread draws. */
export type AnyPictureRequest = PictureRequest | SeasonPictureRequest;

/** A drawn picture: PNG bytes, their size and the alt text. */
export type Picture = Pick<ChartPicture, 'png' | 'alt' | 'width' | 'height'>;

/** A picture that could not be drawn because the drawing thread failed or was stopped. */
export class DrawingFailed extends Error {
  override name = 'DrawingFailed';
}

const ROLE = 'eventor-chart-worker';
/**
 * The drawing thread's priority on Linux: below normal, so the event loop wins a contested core, yet
 * not the lowest, at which a host busy with other work would leave pictures waiting for seconds.
 */
const DRAWING_PRIORITY = constants.priority.PRIORITY_BELOW_NORMAL;

interface Job {
  id: number;
  request: AnyPictureRequest;
}

/** An answer as it crosses the thread boundary: the PNG's bytes are moved, errors travel as words. */
type Answer =
  | { id: number; ok: true; png: Uint8Array; alt: string; width: number; height: number }
  | { id: number; ok: false; range: boolean; message: string };

/**
 * Draws one picture on the calling thread. The worker uses it; so may code that needs the picture
 * where it is (a bench comparing the two). The renderers load on the first call, not at import.
 */
export async function drawPictureHere(request: AnyPictureRequest): Promise<Picture> {
  if (request.kind === 'season' || request.kind === 'club-season') {
    const [{ renderSeasonYear, renderClubYear }, { seasonChartWords }] = await Promise.all([
      import('./season-graph.js'),
      import('./season-words.js'),
    ]);
    const words = seasonChartWords(request.language);
    const drawn =
      request.kind === 'season'
        ? await renderSeasonYear({ title: request.title, year: request.year, races: request.races, words })
        : await renderClubYear({ title: request.title, months: request.months, words });
    return { png: drawn.png, alt: drawn.alt, width: drawn.width, height: drawn.height };
  }
  const [{ renderSplitsGraph }, { renderLostBars }, { chartWords }] = await Promise.all([
    import('./splits-graph.js'),
    import('./lost-bars.js'),
    import('./words.js'),
  ]);
  const words = chartWords(request.language);
  const drawn =
    request.kind === 'graph'
      ? await renderSplitsGraph({
          course: request.course,
          title: request.title,
          highlight: request.highlight,
          ...(request.references === undefined ? {} : { referenceLines: request.references }),
          ...(request.runners === undefined ? {} : { runners: request.runners }),
          words,
        })
      : await renderLostBars({
          course: request.course,
          title: request.title,
          runner: request.runner,
          ...(request.colour === undefined ? {} : { colour: request.colour }),
          words,
        });
  return { png: drawn.png, alt: drawn.alt, width: drawn.width, height: drawn.height };
}

// ---------------------------------------------------------------------------------------------
// The worker's side.

/**
 * Pictures give way to the event loop when the two want the same core (a busy 2-core host): a
 * drawing thread at the bot's priority took as much of the core as the main thread, and members'
 * acknowledgements waited longer than with the drawing on the event loop itself. On Linux a
 * priority set from a thread is that thread's alone, so the drawing thread runs below normal and
 * the bot's main thread keeps its own. Elsewhere the call would lower the whole process, so it is
 * not made.
 */
function lowerThisThreadsPriority(): void {
  if (process.platform !== 'linux') return;
  try {
    setPriority(DRAWING_PRIORITY);
  } catch {
    // Not allowed here (a sandboxed host): the pictures are drawn at the usual priority.
  }
}

async function answer(port: MessagePort, job: Job): Promise<void> {
  let picture: Picture;
  try {
    picture = await drawPictureHere(job.request);
  } catch (error) {
    const message = error instanceof Error ? error.message.slice(0, 300) : 'unknown error';
    port.postMessage({ id: job.id, ok: false, range: error instanceof RangeError, message } satisfies Answer);
    return;
  }
  // The encoder's buffer is external memory, which a message port copies rather than moves; one
  // copy here, in the worker, gives bytes that move to the main thread without another.
  const png = new Uint8Array(picture.png);
  const { alt, width, height } = picture;
  port.postMessage({ id: job.id, ok: true, png, alt, width, height } satisfies Answer, [png.buffer]);
}

const served = isWorkerFor(ROLE);
if (served !== null) {
  lowerThisThreadsPriority();
  // A failure to send rejects, which ends the worker as a throw would: its pictures then fail cleanly.
  served.on('message', (job: Job) => void answer(served, job));
}

// ---------------------------------------------------------------------------------------------
// The main thread's side.

interface PictureCall extends WorkerCall {
  resolve: (picture: Picture) => void;
}

const drawing = new SharedWorker<PictureCall, Answer>({
  role: ROLE,
  moduleUrl: import.meta.url,
  builtUrl: new URL('../../dist/src/charts/draw.js', import.meta.url),
  name: 'the drawing thread',
  onMessage: handleAnswer,
  failure: (_call, reason) => new DrawingFailed(`could not draw the picture: ${reason}`),
});
const stats = { picturesDrawn: 0, picturesRefused: 0 };

/** Counts for tests and logs: workers started so far, pictures drawn and refused there, pictures under way. */
export function chartWorkerStats(): {
  workersStarted: number;
  picturesDrawn: number;
  picturesRefused: number;
  inFlight: number;
} {
  return { ...stats, workersStarted: drawing.workersStarted, inFlight: drawing.inFlight };
}

function handleAnswer(answer: Answer): void {
  const job = drawing.finish(answer.id);
  if (job === undefined) return;
  if (!answer.ok) {
    stats.picturesRefused++;
    job.reject(answer.range ? new RangeError(answer.message) : new Error(answer.message));
    return;
  }
  stats.picturesDrawn++;
  const { png, alt, width, height } = answer;
  // A view of the moved bytes, not a copy.
  job.resolve({ png: Buffer.from(png.buffer, png.byteOffset, png.byteLength), alt, width, height });
}

/**
 * Draws one picture in the drawing thread. Throws RangeError on a request that names no runner of
 * the course, {@link DrawingFailed} when the thread dies or is stopped while drawing it.
 */
export function drawPicture(request: AnyPictureRequest): Promise<Picture> {
  return new Promise<Picture>((resolve, reject) => {
    // Only the runners drawn cross the thread boundary: a whole class would be cloned on this thread.
    const shown = request.kind === 'graph' || request.kind === 'bars' ? shownRunners(request) : request;
    try {
      drawing.send({ resolve, reject }, (thread, id) => thread.postMessage({ id, request: shown } satisfies Job));
    } catch (error) {
      // A request that is not plain data (a function in it) cannot cross: refused here, nothing held.
      throw new TypeError(`could not draw the picture: the request is not plain data (${String(error)})`, {
        cause: error,
      });
    }
  });
}

/** Stops the worker; pictures it held fail as they would if it had died. The next picture starts a new one. */
export function stopChartWorker(): Promise<void> {
  return drawing.stop();
}
