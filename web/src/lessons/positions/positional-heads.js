// Heads that read positions by construction (the designed previous-, next-, first-token and uniform
// heads: core explain() marks them positionalByConstruction) tell positions apart with no positional
// encoding in their input; the position checks compare the other heads and name these.
import { headKindLabel } from '../../models/designed.js';

/** Head numbers as the page shows them (1-based), "2" or "2, 3 and 4". */
export function headList(indices) {
  const names = indices.map((h) => String(h + 1));
  return names.length < 2 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`;
}

/**
 * The heads whose queries or keys are built from the positions themselves (core: positionalByConstruction)
 * tell any two positions apart with no encoding in their input, so the check compares like with like: the
 * heads that read only the input rows, and then names the others.
 */
export function positionalHeadsNote(trace, indices) {
  if (indices.length === 0) return '';
  const kinds = [...new Set(indices.map((h) => headKindLabel(trace.heads[h])))].join(', ');
  return (
    ` Head${indices.length > 1 ? 's' : ''} ${headList(indices)} (${kinds}) ${indices.length > 1 ? 'read' : 'reads'} positions by ` +
    'construction, so they tell positions apart with no encoding at all: a shortcut that a trained model has to learn from P.'
  );
}
