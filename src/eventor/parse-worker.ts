/**
 * Large Eventor documents are parsed off the main thread, in one worker thread shared by every
 * client of the process, so that a 20,000-runner result list (seconds of parsing) never holds back
 * other members' acknowledgements. The worker runs the same parseResponse as the main thread; its
 * errors come back as the same InvalidResponse. It is started on the first large document (the
 * bot's start-up pays nothing for it), kept for the next ones, and holds the process open only
 * while it has work. If it dies, the documents it held fail cleanly and the next one starts a new
 * worker.
 *
 * This one file is both sides: imported, it is the main thread's pool; started as the worker
 * (workerData names its role), it serves parse jobs.
 */
import { deserialize, serialize } from 'node:v8';
import type { MessagePort } from 'node:worker_threads';
import { OnePerTurn } from '../loop/one-per-turn.js';
import { isWorkerFor, SharedWorker, type WorkerCall } from '../loop/shared-worker.js';
import { InvalidResponse } from './errors.js';
import { type OperationName, type OperationResult, type ParseContext, parseResponse } from './operations.js';
import { deepFreeze } from './response-cache.js';

const ROLE = 'eventor-parse-worker';

interface Job {
  id: number;
  operation: OperationName;
  /** The document, as text or as the bytes that arrived (UTF-8, decoded in the worker). */
  xml: string | Uint8Array;
  context: ParseContext;
}

/** An error as it crosses the thread boundary (class instances do not). */
interface WireError {
  problem: string;
  path: string | null;
  operation: string | undefined;
}

/**
 * The worker's answers to one job. A list's classes travel as a message per class and one per
 * PIECE_SIZE of its persons or teams, an array's items PIECE_SIZE to a message; `done` carries the
 * rest of the value. Each answer crosses as its serialized bytes, moved rather than copied: a
 * message port hands the main thread every message that has arrived in one go, so a model sent as
 * plain messages would be copied in all at once (about 150 ms for a 22 MB list). As bytes they
 * arrive at once and cheaply, and the main thread reads them one per turn of its event loop
 * (`unread`), between other work.
 */
type Answer =
  | { id: number; kind: 'class'; value: object }
  | { id: number; kind: 'persons' | 'teams' | 'items'; value: unknown[] }
  | { id: number; kind: 'done'; shape: 'classes' | 'array' | 'whole'; value: unknown }
  | { id: number; kind: 'error'; error: WireError };

/** Runners (or items) per message: reading 100 runners with splits in takes a few milliseconds. */
const PIECE_SIZE = 100;

/** Sends an answer as its serialized bytes, moving their memory to the main thread. */
function send(port: MessagePort, answer: Answer): void {
  const bytes = serialize(answer);
  // Moved when the bytes own their memory (they do as serialize returns them), else copied once.
  const own = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : new Uint8Array(bytes);
  port.postMessage(own, [own.buffer]);
}

function postInPieces(
  port: MessagePort,
  id: number,
  kind: 'persons' | 'teams' | 'items',
  values: readonly unknown[],
): void {
  for (let i = 0; i < values.length; i += PIECE_SIZE) send(port, { id, kind, value: values.slice(i, i + PIECE_SIZE) });
}

// ---------------------------------------------------------------------------------------------
// The worker's side.

function serve(port: MessagePort): void {
  // A failure to send rejects, which ends the worker as a throw here did: its jobs then fail cleanly.
  port.on('message', (job: Job) => void answer(port, job));
}

async function answer(port: MessagePort, job: Job): Promise<void> {
  let value: unknown;
  try {
    // UTF-8 with a BOM dropped, as the transport decodes what it keeps on the main thread.
    const xml = typeof job.xml === 'string' ? job.xml : new TextDecoder('utf-8').decode(job.xml);
    value = await parseResponse(job.operation, xml, job.context);
  } catch (error) {
    const wire: WireError =
      error instanceof InvalidResponse
        ? { problem: error.problem, path: error.path, operation: error.operation }
        : {
            problem: `could not read the XML (${error instanceof Error ? error.message.slice(0, 200) : 'unknown error'})`,
            path: null,
            operation: job.operation,
          };
    send(port, { id: job.id, kind: 'error', error: wire });
    return;
  }
  const classes = (value as { classes?: unknown } | null)?.classes;
  if (Array.isArray(classes)) {
    for (const c of classes as Array<{ persons: unknown[]; teams: unknown[] }>) {
      send(port, { id: job.id, kind: 'class', value: { ...c, persons: [], teams: [] } });
      postInPieces(port, job.id, 'persons', c.persons);
      postInPieces(port, job.id, 'teams', c.teams);
    }
    send(port, { id: job.id, kind: 'done', shape: 'classes', value: { ...(value as object), classes: [] } });
  } else if (Array.isArray(value)) {
    postInPieces(port, job.id, 'items', value);
    send(port, { id: job.id, kind: 'done', shape: 'array', value: null });
  } else {
    send(port, { id: job.id, kind: 'done', shape: 'whole', value });
  }
}

const served = isWorkerFor(ROLE);
if (served !== null) serve(served);

// ---------------------------------------------------------------------------------------------
// The main thread's side.

interface ParseCall extends WorkerCall {
  operation: OperationName;
  pieces: unknown[];
  resolve: (value: unknown) => void;
}

/** Answers that arrived, read one per turn of the event loop in the order they came. */
const unread = new OnePerTurn<Uint8Array>((bytes) => {
  stats.answersRead++;
  handleAnswer(deserialize(bytes) as Answer);
});

const parsing = new SharedWorker<ParseCall, Uint8Array>({
  role: ROLE,
  moduleUrl: import.meta.url,
  builtUrl: new URL('../../dist/src/eventor/parse-worker.js', import.meta.url),
  name: 'the parser thread',
  onMessage: (bytes: Uint8Array) => unread.push(bytes),
  failure: (call, reason) =>
    new InvalidResponse(`could not read the XML (${reason})`, null, { operation: call.operation }),
});
const stats = { documentsParsed: 0, documentsRejected: 0, answersRead: 0 };

/**
 * Counts for tests and logs: workers started so far, documents parsed (or found unusable) off the
 * main thread, and the worker's answers (pieces of models) the main thread has read.
 */
export function parseWorkerStats(): {
  workersStarted: number;
  documentsParsed: number;
  documentsRejected: number;
  answersRead: number;
  inFlight: number;
} {
  return { ...stats, workersStarted: parsing.workersStarted, inFlight: parsing.inFlight };
}

/**
 * Puts a piece where it belongs: a class at the end of the list, persons and teams into the last
 * class. Each piece is frozen as it is read, on its own turn of the event loop: the client freezes
 * every answer it shares (`deepFreeze`), and frozen pieces are skipped there, so the 20,000-runner
 * list is not walked in one go on the main thread (about 400 ms) once the last piece is in. A
 * class's own persons and teams stay open until their pieces have come.
 */
function addPiece(job: ParseCall, answer: Extract<Answer, { kind: 'class' | 'persons' | 'teams' | 'items' }>): void {
  if (answer.kind === 'class') {
    for (const [key, child] of Object.entries(answer.value))
      if (key !== 'persons' && key !== 'teams') deepFreeze(child);
    job.pieces.push(answer.value);
  } else if (answer.kind === 'items') {
    for (const item of answer.value) deepFreeze(item);
    job.pieces.push(...answer.value);
  } else {
    for (const item of answer.value) deepFreeze(item);
    const last = job.pieces[job.pieces.length - 1] as { persons: unknown[]; teams: unknown[] };
    last[answer.kind].push(...answer.value);
  }
}

function handleAnswer(answer: Answer): void {
  const job = parsing.call(answer.id);
  if (job === undefined) return;
  if (answer.kind !== 'done' && answer.kind !== 'error') {
    addPiece(job, answer);
    return;
  }
  parsing.finish(answer.id);
  if (answer.kind === 'error') {
    stats.documentsRejected++;
    const { problem, path, operation } = answer.error;
    job.reject(new InvalidResponse(problem, path, operation === undefined ? {} : { operation }));
    return;
  }
  stats.documentsParsed++;
  if (answer.shape === 'classes') {
    // The pieces are frozen; freezing the classes that hold them here (a few hundred objects)
    // leaves the client's deepFreeze nothing to walk but the list's own few fields.
    for (const cls of job.pieces as Array<{ persons?: unknown[]; teams?: unknown[] }>) {
      if (cls.persons) Object.freeze(cls.persons);
      if (cls.teams) Object.freeze(cls.teams);
      Object.freeze(cls);
    }
    job.resolve({ ...(answer.value as object), classes: Object.freeze(job.pieces) });
  } else if (answer.shape === 'array') job.resolve(job.pieces);
  else job.resolve(answer.value);
}

/** Parses a document in the worker: the same value, or the same error, as parseResponse. */
export function parseResponseOffThread<N extends OperationName>(
  operation: N,
  xml: string | Uint8Array,
  context: ParseContext,
): Promise<OperationResult<N>> {
  const answer = new Promise<unknown>((resolve, reject) => {
    parsing.send({ operation, pieces: [], resolve, reject }, (thread, id) => {
      const job: Job = { id, operation, xml, context };
      // Bytes are moved, not copied: the caller lets go of them (http.ts reads them into a buffer of their own).
      if (typeof xml === 'string') thread.postMessage(job);
      else if (xml.byteOffset === 0 && xml.byteLength === xml.buffer.byteLength && xml.buffer instanceof ArrayBuffer)
        thread.postMessage(job, [xml.buffer]);
      else thread.postMessage({ ...job, xml: xml.slice() }, []);
    });
  });
  return answer as Promise<OperationResult<N>>;
}

/** Stops the worker; documents it held fail as they would if it had died. The next document starts a new one. */
export function stopParseWorker(): Promise<void> {
  return parsing.stop();
}
