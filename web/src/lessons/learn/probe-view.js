// The model's predictions on the probe: each token, the token the model says comes next, and the token
// the task's rule says comes next where it says one (probe.js expectedNext), right ones marked.
// Pure: new DOM from a snapshot.
import { expectedNext, tokenName } from './probe.js';

/**
 * @param {object} snapshot  from the training worker (probe, predictions, step)
 * @param {{ task: string, vocabSize: number }} options
 * @returns {HTMLElement} <figure data-figure="learn-probe"> holding a table (data-correct / data-scored on the figure)
 */
export function probeView(snapshot, options) {
  const { probe, predictions } = snapshot;
  const expected = expectedNext(probe, options);
  const figure = document.createElement('figure');
  figure.className = 'probe-view';
  figure.dataset.figure = 'learn-probe';
  figure.appendChild(document.createElement('figcaption')).textContent =
    `What the model predicts after each token of the probe (step ${snapshot.step})`;
  const table = figure.appendChild(document.createElement('table'));
  table.className = 'probe-table';
  const rows = [
    ['position', (t) => String(t)],
    ['probe', (t) => tokenName(probe[t], options)],
    ['model predicts next', (t) => tokenName(predictions[t], options)],
    ['task says next', (t) => (expected[t] < 0 ? '·' : tokenName(expected[t], options))],
  ];
  let scored = 0,
    correct = 0;
  for (const [title, text] of rows) {
    const row = table.appendChild(document.createElement('tr'));
    row.appendChild(document.createElement('th')).textContent = title;
    row.lastChild.scope = 'row';
    for (let t = 0; t < probe.length; t++) {
      const cell = row.appendChild(document.createElement('td'));
      cell.textContent = text(t);
      if (title === 'model predicts next' && expected[t] >= 0) {
        const right = predictions[t] === expected[t];
        cell.className = right ? 'right' : 'wrong';
        cell.title = right ? 'as the task says' : `the task says ${tokenName(expected[t], options)}`;
        scored++;
        correct += right ? 1 : 0;
      }
    }
  }
  figure.dataset.scored = String(scored);
  figure.dataset.correct = String(correct);
  const note = figure.appendChild(document.createElement('p'));
  note.className = 'hint';
  note.textContent = scored
    ? `Right at ${correct} of the ${scored} positions where the task's rule says what comes next (green: right, red: wrong).`
    : "The task's rule says nothing about what follows this probe's tokens: type a probe with a repeat (induction), " +
      'a separator | (reverse, sort), or any tokens (previous token).';
  return figure;
}
