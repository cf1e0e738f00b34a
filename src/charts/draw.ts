/**
 * The one way the bot draws pictures (docs/splits.md#pictures): a request that is plain data (the
 * course, what it is of, the language), a picture back. Callers never hold the renderers' functions
 * or words, so where the drawing happens (this thread or another) can change behind this call.
 */
import type { CourseAnalysis } from '../splits/analysis.js';
import type { ChartPicture } from './splits-graph.js';
import { renderLostBars } from './lost-bars.js';
import { renderSplitsGraph } from './splits-graph.js';
import { chartWords, type ChartLanguage } from './words.js';

export type PictureRequest =
  | {
      kind: 'graph';
      course: CourseAnalysis;
      /** What the picture is of, e.g. the class name `H21`. */
      title: string;
      /** Indices into `course.results` of the runners to draw strong (the club's), at most a dozen. */
      highlight: readonly number[];
      language: ChartLanguage;
    }
  | {
      kind: 'bars';
      course: CourseAnalysis;
      title: string;
      /** Index into `course.results` of the runner. */
      runner: number;
      language: ChartLanguage;
    };

/** A drawn picture: PNG bytes, their size and the alt text. */
export type Picture = Pick<ChartPicture, 'png' | 'alt' | 'width' | 'height'>;

/** Draws one picture. Throws RangeError on a request that names no runner of the course. */
export async function drawPicture(request: PictureRequest): Promise<Picture> {
  const words = chartWords(request.language);
  const drawn =
    request.kind === 'graph'
      ? await renderSplitsGraph({ course: request.course, title: request.title, highlight: request.highlight, words })
      : await renderLostBars({ course: request.course, title: request.title, runner: request.runner, words });
  return { png: drawn.png, alt: drawn.alt, width: drawn.width, height: drawn.height };
}
