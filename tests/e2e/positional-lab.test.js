// The positional-encoding lab end to end in headless Chromium: sliders, the shuffle check, the same
// word twice, the score decomposition, the rotation and the norms, read back from the page.
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { after, before, test } from 'node:test';
import { openExplorer, showSlot as showSlotIn, oneProjectedHead } from './browser.js';

const OUTPUT = 'test-output';
let server, browser, page, consoleErrors;

before(async () => {
  mkdirSync(OUTPUT, { recursive: true });
  ({ server, browser, page, consoleErrors } = await openExplorer());
  await page.goto(server.url);
  await page.waitForSelector('[data-figure="attention-weights"]', { timeout: 20000 });
  await oneProjectedHead(page);
  await page.fill('attention-explorer textarea', 'the dog chased the cat');
});

after(async () => {
  await browser?.close();
  await server?.close();
});

const lab = (selector) => `[data-chapter="positions"] ${selector}`;

async function showSlot(slot) {
  await showSlotIn(page, slot);
}

async function figureShape(name) {
  return page.$eval(`[data-figure="${name}"]`, (f) => [Number(f.dataset.rows), Number(f.dataset.cols)]);
}

async function setPositional(kind) {
  await page.selectOption(lab('select[name="positionalEncoding"]'), kind);
}

test('the sliders and the d2l preset redraw the encoding, the bits and the curves', async () => {
  await showSlot('labEncoding');
  assert.deepEqual(await figureShape('lab-encoding'), [5, 100]);
  assert.deepEqual(await figureShape('binary-positions'), [5, 3]);
  await page.fill(lab('input[name="labDModel"]'), '16');
  assert.deepEqual(await figureShape('lab-encoding'), [5, 16]);
  await page.fill(lab('input[name="labPositions"]'), '300');
  assert.deepEqual(await figureShape('lab-encoding'), [300, 16]);
  assert.deepEqual(await figureShape('binary-positions'), [300, 9]);
  const before = await page.$eval('[data-figure="lab-encoding"] canvas', (c) => c.toDataURL());
  await page.fill(lab('input[name="labBase"]'), '2');
  assert.match(await page.textContent('[data-figure="lab-encoding"] figcaption'), /base = 100\b/);
  assert.notEqual(await page.$eval('[data-figure="lab-encoding"] canvas', (c) => c.toDataURL()), before);
  await page.click(lab('button[data-action="d2l-preset"]'));
  assert.deepEqual(await figureShape('lab-encoding'), [60, 32]);
  await showSlot('encodingCurves');
  const series = await page.$$eval('[data-figure="encoding-curves"] path.series', (paths) =>
    paths.map((p) => p.dataset.series),
  );
  assert.equal(series.length, 4);
  assert.match(series[0], /^column 6: sin, wavelength 2π·10000\^\(6\/32\) = 35\.3/);
  assert.match(series[3], /^column 9: cos/);
});

test('P Pᵀ is drawn over the positions and the rotation error is below 1e-5', async () => {
  await showSlot('positionSimilarity');
  assert.deepEqual(await figureShape('position-similarity'), [60, 60]);
  await showSlot('rotation');
  await page.selectOption(lab('select[name="rotationFrom"]'), '0');
  await page.selectOption(lab('select[name="rotationTo"]'), '4');
  assert.match(
    await page.textContent('[data-figure="rotation"] figcaption'),
    /“the” \(position 0\) to “cat” \(position 4\)/,
  );
  const maxError = Number(await page.getAttribute('[data-figure="rotation"]', 'data-max-error'));
  assert.ok(maxError < 1e-5, `rotation error ${maxError}`);
  assert.match(
    await page.textContent('[data-figure="rotation-error"] figcaption'),
    /float32 angles the error reaches 1e-5 at position \d+/,
  );
});

test('shuffle check: 0 after un-shuffling without position information, not with it', async () => {
  await showSlot('shuffle');
  await setPositional('none');
  const none = Number(await page.getAttribute('[data-figure="shuffle-check"]', 'data-max-weight-difference'));
  assert.ok(none < 1e-6, `none: ${none}`);
  assert.match(await page.textContent('[data-figure="shuffle-check"] .verdict'), /^Equal/);
  const order = await page.textContent('.shuffled-sentence');
  await page.click(lab('button[data-action="shuffle"]'));
  assert.notEqual(await page.textContent('.shuffled-sentence'), order);
  await setPositional('sinusoidal');
  const sinusoidal = Number(await page.getAttribute('[data-figure="shuffle-check"]', 'data-max-weight-difference'));
  assert.ok(sinusoidal > 1e-3, `sinusoidal: ${sinusoidal}`);
  assert.match(await page.textContent('[data-figure="shuffle-check"] .verdict'), /^Different/);
});

test('the same word twice: identical q, k, v without encoding, different with it', async () => {
  await showSlot('repeated');
  const verdict = () => page.textContent('[data-figure="repeated-word"] .verdict[data-word="the"]');
  assert.match(await verdict(), /different/);
  await setPositional('none');
  assert.match(await verdict(), /queries 0\.0e\+0, keys 0\.0e\+0, values 0\.0e\+0 — identical/);
  await setPositional('sinusoidal');
});

test('with the default designed heads, the checks run on a projected head of their own and say why; without P it sees no order', async () => {
  await page.$eval('attention-explorer', (el) =>
    el.change({ numHeads: 4, headKinds: ['semantic', 'previous', 'next', 'first'], head: 0 }),
  );
  await setPositional('none');
  await showSlot('repeated');
  const repeated = await page.textContent('[data-figure="repeated-word"] .verdict[data-word="the"]');
  assert.match(repeated, /over the head: queries 0\.0e\+0, keys 0\.0e\+0, values 0\.0e\+0 — identical/);
  assert.doesNotMatch(repeated, /different/);
  const note = await page.textContent('[data-figure="repeated-word"] .checked-head');
  assert.match(note, /projected head of their own/);
  assert.match(note, /head 1 \(semantic\) compares the word vectors without P/);
  assert.match(note, /heads 2, 3 and 4 \(previous token, next token, first token\) read positions by construction/);
  await showSlot('shuffle');
  const shuffle = await page.textContent('[data-figure="shuffle-check"] .verdict');
  assert.match(shuffle, /^Equal — max \|difference\| after un-shuffling: weights \d\.\de[-+]\d+,/);
  await setPositional('sinusoidal');
  await oneProjectedHead(page);
});

test('score decomposition: four terms and their sum for the selected head; a message for RoPE', async () => {
  await showSlot('scoreTerms');
  const names = await page.$$eval('[data-figure="score-terms"] figure', (figures) =>
    figures.map((f) => f.dataset.figure),
  );
  assert.deepEqual(names, [
    'score-contentContent',
    'score-contentPosition',
    'score-positionContent',
    'score-positionPosition',
    'score-sum',
  ]);
  assert.deepEqual(await figureShape('score-sum'), [5, 5]);
  // Each term is shown as it adds up to the scores: divided by √d_k like them, and the titles say so.
  const titles = await page.$$eval('[data-figure="score-terms"] figure figcaption', (captions) =>
    captions.map((c) => c.textContent),
  );
  assert.match(titles[0], /^content–content: XW_Q \(XW_K\)ᵀ \/ √d_k/);
  await setPositional('rope');
  assert.match(await page.textContent('[data-figure="score-terms"]'), /applies when P is added/);
  await setPositional('sinusoidal');
});

test('norm bars follow the P multiplier and √d_model scaling', async () => {
  await showSlot('norms');
  await page.fill(lab('input[name="positionalScale"]'), '2');
  await page.check(lab('input[name="embeddingScale"]'));
  // The trace holds the position checks' norms while a figure drawing them is on screen (the controls scroll away).
  await showSlot('norms');
  const trace = await page.$eval('attention-explorer', (el) => {
    const t = el.getTrace();
    return { p: [...t.positionChecks.positionalNorms.data], options: t.options };
  });
  assert.equal(trace.options.positionalScale, 2);
  assert.equal(trace.options.embeddingScale, 10);
  for (const norm of trace.p) assert.ok(Math.abs(norm - 2 * Math.sqrt(50)) < 1e-4);
  assert.equal(await page.$$eval('[data-figure="norm-bars"] [data-kind="position"] rect', (r) => r.length), 5);
  await page.locator('[data-chapter="positions"]').screenshot({ path: `${OUTPUT}/positional-lab.png` });
});

test('an empty sentence keeps the lab, which needs none: 10 positions and their rotation; the checks ask for a sentence', async () => {
  await page.$eval('attention-explorer', (el) => el.change({ labPositions: null, labDModel: 100 }));
  await page.fill('attention-explorer textarea', '');
  await showSlot('labEncoding');
  assert.deepEqual(await figureShape('lab-encoding'), [10, 100]);
  assert.equal(await page.$eval('attention-explorer', (el) => el.shadowRoot.querySelector('.chapters').hidden), false);
  await showSlot('rotation');
  assert.ok(Number(await page.getAttribute('[data-figure="rotation"]', 'data-max-error')) < 1e-5);
  assert.deepEqual(
    await page.$$eval(lab('select[name="rotationFrom"] option'), (o) => o.slice(0, 2).map((x) => x.textContent)),
    ['position 0', 'position 1'],
  );
  await showSlot('shuffle');
  assert.equal(
    await page.textContent('attention-explorer .slot-shuffle'),
    'Type a sentence above: this figure reads its words.',
  );
  await page.fill('attention-explorer textarea', 'the dog chased the cat');
  await showSlot('shuffle');
  assert.match(await page.textContent('[data-figure="shuffle-check"] .verdict'), /^(Equal|Different)/);
});

test('no console errors in the lab', () => {
  assert.deepEqual(consoleErrors, []);
});
