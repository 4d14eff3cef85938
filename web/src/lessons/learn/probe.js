// The probe: one token sequence on which the Learn chapter shows every head's attention and the
// model's predictions. Tokens are the trainer's integer ids, shown as letters (A, B, …; the reverse and
// sort tasks' separator, the last id, as "|"), so a learner can type a probe.
// The tasks are defined in cpp/include/attn/train/tasks.hpp; expectedNext restates their rules for
// one sequence, to mark which predictions are right.

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const SEPARATOR = '|';

/** Whether the task's last id is a separator (reverse, sort: tasks.hpp). */
export function hasSeparator(task) {
  return task === 'reverse' || task === 'sort';
}

/** The name of token `id` in a vocabulary of `vocabSize` ids: a letter, "|" for a separator, else the number. */
export function tokenName(id, { task, vocabSize }) {
  if (hasSeparator(task) && id === vocabSize - 1) return SEPARATOR;
  return vocabSize <= LETTERS.length ? LETTERS[id] : String(id);
}

/** The names a learner can type: every id's name, in id order. */
export function vocabulary(options) {
  return Array.from({ length: options.vocabSize }, (_, id) => tokenName(id, options));
}

/**
 * The ids of a typed probe: letters (either case) and "|", spaces ignored; with more than 26 ids,
 * numbers separated by spaces or commas.
 * @returns {number[]} ids
 * @throws RangeError naming the first unknown token, or when the probe is empty or longer than seqLen
 */
export function parseProbe(text, options) {
  const names = vocabulary(options);
  const items =
    options.vocabSize <= LETTERS.length
      ? [...text.toUpperCase().replace(/[\s,]+/g, '')]
      : text.split(/[\s,]+/).filter(Boolean);
  const ids = items.map((item) => {
    const id = names.indexOf(item);
    if (id < 0) {
      const separator = hasSeparator(options.task);
      throw new RangeError(
        `“${item}” is not a token of this task: use ${names[0]}–${names.at(separator ? -2 : -1)}` +
          (separator ? ' and | (the separator)' : ''),
      );
    }
    return id;
  });
  if (ids.length === 0) throw new RangeError('the probe is empty: type at least one token');
  if (ids.length > options.seqLen)
    throw new RangeError(`the probe has ${ids.length} tokens; the model reads at most ${options.seqLen}`);
  return ids;
}

/** The probe as typed text (the inverse of parseProbe). */
export function probeText(ids, options) {
  return Array.from(ids, (id) => tokenName(id, options)).join(options.vocabSize <= LETTERS.length ? '' : ' ');
}

/** The position of the latest earlier occurrence of tokens[t] (before t), or −1: where an induction head looks back to. */
export function earlierOccurrence(tokens, t) {
  for (let p = t - 1; p >= 0; p--) if (tokens[p] === tokens[t]) return p;
  return -1;
}

/**
 * The token the task says comes after each position of `tokens`, or −1 where it does not say
 * (tasks.hpp): previous-token: the token before; reverse / sort: after the separator, the values
 * reversed / sorted; induction: the token after the latest earlier occurrence of this one.
 * @returns {Int32Array} [T]
 */
export function expectedNext(tokens, { task, vocabSize }) {
  const T = tokens.length;
  const out = new Int32Array(T).fill(-1);
  if (task === 'previous-token') {
    for (let t = 1; t < T; t++) out[t] = tokens[t - 1];
  } else if (task === 'induction') {
    for (let t = 1; t < T; t++) {
      const p = earlierOccurrence(tokens, t);
      if (p >= 0) out[t] = tokens[p + 1];
    }
  } else {
    const separator = Array.prototype.indexOf.call(tokens, vocabSize - 1);
    if (separator > 0) {
      const values = Array.from(tokens.slice(0, separator));
      const after = task === 'sort' ? [...values].sort((a, b) => a - b) : values.reverse();
      for (let t = separator; t < T && t - separator < after.length; t++) out[t] = after[t - separator];
    }
  }
  return out;
}

/**
 * The default probe of a trainer: for induction, ⌊T/2⌋ distinct tokens then the same again — the
 * sequence Olsson et al. 2022 score induction heads on, where an induction head draws a stripe one
 * cell right of the diagonal of repeats; for the other tasks, one sequence of the task (trainer.sample).
 * @returns {Int32Array} [T]
 */
export function defaultProbe(trainer) {
  const { task, seqLen } = trainer.options;
  if (task !== 'induction') return trainer.sample(1).tokens;
  const half = Math.floor(seqLen / 2);
  const seen = [];
  for (const id of trainer.sample(8).tokens) {
    if (!seen.includes(id)) seen.push(id);
    if (seen.length === half) break;
  }
  const tokens = [...seen, ...seen];
  return Int32Array.from(tokens.length < seqLen ? [...tokens, seen[0]] : tokens);
}
