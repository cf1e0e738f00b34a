// The parse section's work that runs in a child process (harness/bench/parse.ts), one job per process
// so that each parser starts from the same fresh heap and the bench process itself stays small:
//   list (<file> <minBytes>)...   writes the sandbox's 20,000-runner result list, cut to its first
//                                 classes totalling at least minBytes (0: all of it), to each file,
//                                 and prints what each holds
//   time <parser> <file> <runs>   parses the file `runs` times with `ours`, `txml` or
//                                 `fast-xml-parser` and prints the CPU time of each parse
import { readFileSync, writeFileSync } from 'node:fs';
import { parseResultList } from '../../src/eventor/native/index.js';
import { libraryTree } from '../../src/eventor/xml.js';
// txml's main entry re-exports its types without file extensions, which NodeNext cannot follow.
import { parse as txmlParse } from 'txml/txml';
import { countResults } from './count.js';
import { largeResultListXml } from './parse.js';

/** The list's header, its first classes up to at least `minBytes`, and its end: still a whole ResultList. */
function firstClasses(xml: string, minBytes: number): string {
  const first = xml.indexOf('<ClassResult');
  const closing = xml.lastIndexOf('</ResultList>');
  if (minBytes <= 0 || first === -1 || closing === -1) return xml;
  let end = first;
  while (end - first < minBytes) {
    const next = xml.indexOf('</ClassResult>', end);
    if (next === -1 || next > closing) break;
    end = next + '</ClassResult>'.length;
  }
  return `${xml.slice(0, end)}\n${xml.slice(closing)}`;
}

/** What a parse read, so that a parse that skipped work cannot pass for a fast one. */
type Parse = (xml: string) => unknown;

const PARSERS: Readonly<Record<string, Parse>> = {
  ours: (xml) => countResults(parseResultList(xml, { timeZone: 'UTC' })),
  txml: (xml) => txmlParse(xml).length,
  'fast-xml-parser': (xml) => Object.keys(libraryTree(xml)).length,
};

async function main(): Promise<void> {
  const [job, ...args] = process.argv.slice(2);
  if (job === 'list') {
    // Pairs of <file> <minBytes>: one download of the list serves them all.
    const whole = await largeResultListXml();
    const written = [];
    for (let i = 0; i + 1 < args.length; i += 2) {
      const xml = firstClasses(whole, Number(args[i + 1]));
      writeFileSync(args[i]!, xml);
      const counts = countResults(parseResultList(xml, { timeZone: 'UTC' }));
      const runners = xml.split('<PersonResult>').length - 1;
      written.push({ bytes: Buffer.byteLength(xml), runners, ...counts });
    }
    process.stdout.write(JSON.stringify(written));
  } else if (job === 'time') {
    const [name, file, runs] = args as [string, string, string];
    const parse = PARSERS[name];
    if (parse === undefined) throw new Error(`no parser named ${name}`);
    const xml = readFileSync(file, 'utf8');
    const cpuMs: number[] = [];
    let read: unknown;
    for (let i = 0; i < Number(runs); i++) {
      const started = process.cpuUsage();
      read = parse(xml);
      const used = process.cpuUsage(started);
      cpuMs.push((used.user + used.system) / 1000);
    }
    process.stdout.write(JSON.stringify({ cpuMs, read }));
  } else {
    throw new Error(`unknown job ${job ?? '(none)'}`);
  }
}

await main();
