// A trained head's label and its number agree at the precision shown: "mixed" means no score reached the label
// threshold (core.languageModelLimits.headLabelThreshold), so its best score never reads as the threshold itself
// ("mixed (previous word 0.40)" beside "previous word 0.45"); every name a label shows is defined where it is
// shown, on the head (title) and under the heads (a definitions list).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { distAndBrowser, openSite } from './browser.js';

const shared = distAndBrowser();

/** The heads' figure as shown: each head's label line and title, the definitions under them, the threshold. */
async function labels(page) {
  await page.waitForSelector('attention-explorer [data-figure="heads"] .head-thumb', { timeout: 30000 });
  return page.$eval('attention-explorer', (el) => {
    const figure = el.shadowRoot.querySelector('[data-figure="heads"]');
    return {
      threshold: el.core.languageModelLimits.headLabelThreshold,
      heads: [...figure.querySelectorAll('.head-thumb')].map((b) => ({
        kind: b.dataset.label,
        line: b.querySelector('.head-line').textContent,
        title: b.title,
      })),
      defined: Object.fromEntries(
        [...figure.querySelectorAll('.job-definitions dt')].map((dt) => [dt.textContent, dt.nextSibling.textContent]),
      ),
      definitionsShown: figure.querySelector('.job-definitions')?.checkVisibility() ?? false,
    };
  });
}

/** The names a label line shows: "previous word 0.45" → previous word; "mixed (best: itself 0.33)" → mixed, itself. */
function namesIn(line) {
  const match = line.match(/^(mixed \((?:best: )?)?(.+?) (\d\.\d+)\)?$/);
  return { names: match[1] ? ['mixed', match[2]] : [match[2]], number: match[3] };
}

for (const model of ['causal', 'masked']) {
  test(`#model=${model}: every head's number agrees with its label at the digits shown, and every name is defined`, async () => {
    const { page, errors } = await openSite(shared, `model=${model}`);
    const { threshold, heads, defined, definitionsShown } = await labels(page);
    assert.equal(threshold, 0.4, 'the C++ label rule, exported');
    assert.equal(heads.length, 4 * 4, 'a label per head of the model (both are 4 layers × 4 heads)');
    for (const { kind, line } of heads) {
      const { number } = namesIn(line);
      if (kind === 'mixed')
        assert.ok(Number(number) < threshold, `"${line}": a mixed head's best score reads below ${threshold}`);
      else assert.ok(Number(number) >= threshold, `"${line}": a labelled head's score reads at least ${threshold}`);
    }
    for (const { line, title } of heads) {
      for (const name of namesIn(line).names) {
        assert.ok(defined[name]?.length > 10, `"${name}" is defined under the heads`);
        assert.ok(title.includes(`${name}: ${defined[name]}`), `"${line}"'s title defines ${name}: ${title}`);
      }
    }
    assert.ok(definitionsShown, 'the definitions are visible');
    assert.deepEqual(errors, []);
    await page.close();
  });
}

test('the four jobs learners asked about are defined on the shipped models (same word, prefix matching, itself, first token)', async () => {
  const defined = {};
  for (const model of ['causal', 'masked']) {
    const { page } = await openSite(shared, `model=${model}`);
    Object.assign(defined, (await labels(page)).defined);
    await page.close();
  }
  for (const name of ['same word', 'prefix matching', 'itself', 'first token'])
    assert.match(defined[name] ?? '', /mean weight/, `"${name}" defined`);
  assert.match(defined.mixed, /no score reaches 0\.4/);
});
