/**
 * The samples of what the bot answers in docs/members.md and docs/admins.md are written by the real
 * bot against the sandbox (harness/docs/answer-samples.ts, `npm run docs:samples`): what is
 * committed must be what the bot answers now, so a changed answer fails here until the docs follow.
 * The README's results post is taken from the recorded race weekend, which
 * test/e2e/feeds-race-day.test.ts holds to what the bot posts.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES, samplePages, sampleText } from '../../harness/docs/answer-samples.js';
import { REPO } from '../../harness/docs/written.js';

describe('the answer samples in the docs, from the real bot', () => {
  let pages: Map<string, string>;

  beforeAll(async () => {
    pages = await samplePages();
  }, 240_000);

  it('the committed pages hold what the bot answers now (run `npm run docs:samples` after changing an answer)', () => {
    expect([...pages.keys()].sort()).toEqual(['README.md', 'docs/admins.md', 'docs/members.md']);
    for (const [page, text] of pages) expect(readFileSync(path.join(REPO, page), 'utf8'), page).toBe(text);
  });

  it('every sample is on its page, once, with the answer in it', () => {
    for (const sample of SAMPLES) {
      const page = pages.get(sample.page)!;
      const opening = `<!-- ${sample.name}: written by \`npm run docs:samples\``;
      expect(page.split(opening).length - 1, sample.name).toBe(1);
      const inside = page.slice(page.indexOf(opening), page.indexOf(`<!-- End of ${sample.name}. -->`));
      expect(inside, sample.name).toMatch(/```text\n\S[^]*\n```/);
    }
  });

  it("the README's results post is the recorded weekend's, before and after the correction", () => {
    const readme = pages.get('README.md')!;
    expect(readme).toMatch(/When the organiser later corrected (.+)'s time from [\d:]+ to ([\d:]+), the bot edited/);
    const [, name, to] = /corrected (.+)'s time from [\d:]+ to ([\d:]+)/.exec(readme)!;
    expect(readme).toContain(`🥇 ${name} · ${to}`);
  });

  it('shows an answer as a member reads it: no quoting, Markdown marks or link targets, no login link', () => {
    expect(
      sampleText(
        '> **Results: [Höstsprinten](http://127.0.0.1:4000/Events/Show/1)**\n>\n> ~~Old~~ **D21**\n```\n #  Code\n```\n' +
          '[Log in to Eventor -> http://127.0.0.1:4000/login/abcDEF_12-3] [Refresh]',
      ),
    ).toBe('Results: Höstsprinten\n\nOld D21\n #  Code\n[Log in to Eventor] [Refresh]');
  });
});
