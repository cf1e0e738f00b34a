/**
 * Pictures of the split-time analysis (docs/splits.md#pictures): pure, the analysis's course in,
 * PNG bytes and alt text out. Nothing here knows Discord; the caller passes the words in its language.
 */
export { FONT_FAMILY, PALETTE, GREY, KEY_HEIGHT, MARGIN, fontRegistered, runnerColour, tint } from './canvas.js';
export { renderSplitsGraph, GRAPH_WIDTH, GRAPH_HEIGHT } from './splits-graph.js';
export type { ChartPicture, SplitsGraph, SplitsGraphInput } from './splits-graph.js';
export { renderLostBars, barColours, BARS_WIDTH, BARS_HEIGHT, BAR_COLOUR, MISTAKE_COLOUR } from './lost-bars.js';
export { canDrawBars, canDrawGraph, noGraph } from './request.js';
export type { LostBars, LostBarsInput } from './lost-bars.js';
export { ENGLISH, NORWEGIAN, SWEDISH, type ChartWords } from './words.js';
export {
  chartWorkerStats,
  DrawingFailed,
  drawPicture,
  drawPictureHere,
  stopChartWorker,
  type Picture,
  type PictureRequest,
  type SeasonPictureRequest,
} from './draw.js';
export { chartWords, type ChartLanguage } from './words.js';
export { CODE_MAX, pictureCode, pictureName, pictureTitle, TITLE_MAX } from './text.js';
export { renderClubYear, renderSeasonYear, SEASON_HEIGHT, SEASON_WIDTH } from './season-graph.js';
export type { ClubYearInput, SeasonYearInput } from './season-graph.js';
export { seasonChartWords, type SeasonChartWords } from './season-words.js';
