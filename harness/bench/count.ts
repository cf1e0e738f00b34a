import type { ResultList } from '../../src/eventor/answers.js';

/** Race results and split times in a list: the bench's check that a parse really read everything. */
export function countResults(list: ResultList): { results: number; splits: number } {
  let results = 0;
  let splits = 0;
  for (const cls of list.classes) {
    for (const person of cls.persons) {
      for (const result of person.results) {
        results++;
        splits += result.splits.length;
      }
    }
  }
  return { results, splits };
}
