// The Harvard sentences (IEEE 1969, "IEEE Recommended Practice for Speech Quality Measurements", appendix: 72
// lists of 10 short everyday sentences, "The birch canoe slid on the smooth planks."), as the R package stringr
// ships them (`sentences`; Debian r-cran-stringr, read with Rscript from r-base-core). No model trains on them: they
// are an everyday cloze set beside the held-out text's (scripts/lm/cloze-items.mjs --lines).
//
//   node scripts/lm/harvard-text.mjs [out.txt]     (default build/lm/harvard.raw.txt; one sentence a line)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const HARVARD_SENTENCES = 720;
const R_PROGRAM = 'library(stringr); writeLines(sentences)';

/** The 720 sentences, one a line, as R prints them. Throws naming the Debian packages when R or stringr is missing. */
export function readHarvardSentences() {
  const hint =
    'install the Debian packages r-base-core and r-cran-stringr (apt-get install -y r-base-core r-cran-stringr)';
  let text;
  try {
    text = execFileSync('Rscript', ['--vanilla', '-e', R_PROGRAM], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, LC_ALL: 'C.UTF-8' },
    });
  } catch (error) {
    if (error.code === 'ENOENT') throw new Error(`harvard-text: Rscript not found; ${hint}`, { cause: error });
    const detail = `${error.stderr ?? ''}`.trim().split('\n')[0];
    throw new Error(`harvard-text: Rscript could not read stringr's sentences (${detail}); ${hint}`, { cause: error });
  }
  const lines = text.split('\n').filter(Boolean);
  if (lines.length !== HARVARD_SENTENCES) {
    throw new Error(`harvard-text: expected ${HARVARD_SENTENCES} sentences from stringr, got ${lines.length}`);
  }
  return lines;
}

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  try {
    const out = path.resolve(REPO, process.argv[2] ?? 'build/lm/harvard.raw.txt');
    const lines = readHarvardSentences();
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, `${lines.join('\n')}\n`);
    console.log(`wrote ${lines.length} Harvard sentences to ${path.relative(REPO, out)}`);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
