// Writes the Learn chapter's sample of the language-model corpus (corpus-text.mjs): the text the page's
// "language (real English)" task trains on, small enough to ship with the page, and a held-out part taken
// only from the corpus's held-out documents (so the page's held-out loss is never measured on training text).
//
//   node scripts/lm/learn-sample.mjs [corpus-dir] [out-dir]      (defaults build/lm/corpus, web/assets/corpus)
//   node scripts/lm/learn-sample.mjs --check [corpus-dir]        exit 1 if the shipped files differ from a fresh sample
//
// Rule: the corpus files are cut into blocks of BLOCK_LINES consecutive lines (so a sample keeps runs of a
// document's sentences: a training window spans the lines after its first); the sample keeps every
// TRAIN_EVERY-th block of train.raw.txt and every HELD_OUT_EVERY-th block of held-out.raw.txt, from the first.
// Deterministic: the same corpus gives the same bytes.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BLOCK_LINES = 40;
export const TRAIN_EVERY = 14; // ≈ 1.2 MB of the 16.6 MB training text: ~237,000 tokens
export const HELD_OUT_EVERY = 40; // ≈ 30 KB of the 1.1 MB held-out text: ~5,700 tokens, scored whole at every evaluation
export const FILES = { train: 'learn-train.txt', heldOut: 'learn-held-out.txt' };

/** Every `every`-th block of BLOCK_LINES lines of `text`, from the first, as text ending in a newline. */
export function everyNthBlock(text, every) {
  const lines = text.split('\n').filter((line) => line !== '');
  const kept = lines.filter((_, i) => Math.floor(i / BLOCK_LINES) % every === 0);
  return `${kept.join('\n')}\n`;
}

/** The two sample texts from the corpus directory. */
export function learnSample(corpusDir) {
  const read = (name) => fs.readFileSync(path.join(corpusDir, name), 'utf8');
  return {
    train: everyNthBlock(read('train.raw.txt'), TRAIN_EVERY),
    heldOut: everyNthBlock(read('held-out.raw.txt'), HELD_OUT_EVERY),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const check = args[0] === '--check';
  const [corpusDir = path.join(REPO, 'build/lm/corpus'), outDir = path.join(REPO, 'web/assets/corpus')] = check
    ? args.slice(1)
    : args;
  const sample = learnSample(corpusDir);
  let differs = false;
  for (const [part, name] of Object.entries(FILES)) {
    const file = path.join(outDir, name);
    if (check) {
      const same = fs.existsSync(file) && fs.readFileSync(file, 'utf8') === sample[part];
      if (!same)
        console.error(`${file} differs from the sample of ${corpusDir} (node scripts/lm/learn-sample.mjs writes it)`);
      differs ||= !same;
    } else {
      fs.mkdirSync(outDir, { recursive: true });
      fs.writeFileSync(file, sample[part]);
      console.log(`${file}: ${sample[part].split('\n').length - 1} lines, ${Buffer.byteLength(sample[part])} bytes`);
    }
  }
  if (check) {
    if (differs) process.exit(1);
    console.log(`the Learn sample in ${outDir} is the sample of ${corpusDir}`);
  }
}
