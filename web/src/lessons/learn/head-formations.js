// When the heads of a training run formed, as the curves mark them. A previous-token head: a head whose
// previous-token score reaches its threshold. An induction head: a head in layer ℓ ≥ 1 whose
// prefix-matching score reaches its threshold while a head in a layer below ℓ is a previous-token head —
// the circuit of Olsson et al. 2022 (§2, "induction heads"; Elhage et al. 2021, K-composition): the
// induction head finds "the token after an earlier occurrence" through the key that an earlier
// previous-token head wrote. Counting each score alone marked the induction head first on the default
// run (seed 0: layer-1 prefix matching 0.43 at step 340, while the layer-0 head it reads was at 0.32 and
// reached 0.4 only at step 420), contradicting the circuit.
import { HEAD_SCORES } from './tasks.js';
import { headName } from '../../models/run.js';

const PREVIOUS = HEAD_SCORES.find((score) => score.key === 'previousToken');
const PREFIX = HEAD_SCORES.find((score) => score.key === 'prefixMatching');

/** The heads of one snapshot whose score `score` reaches its threshold, as [layer, head]. */
function formed(snapshot, score) {
  const {
    data,
    shape: [, numHeads],
  } = snapshot[score.key];
  const heads = [];
  data.forEach((value, at) => {
    if (value >= score.threshold) heads.push([Math.floor(at / numHeads), at % numHeads]);
  });
  return heads;
}

/**
 * The first snapshot of `history` at which a previous-token head, and then an induction head (see
 * above), formed; each with the text saying what was reached.
 * @param {{ step: number, previousToken: object, prefixMatching: object }[]} history  in step order; scores [numLayers, numHeads]
 * @returns {{ x: number, label: string, key: string, layer: number, head: number, after?: [number, number] }[]}
 *   in step order; `after`: the previous-token head an induction head reads
 */
export function headFormations(history) {
  const found = [];
  const previous = history.find((snapshot) => formed(snapshot, PREVIOUS).length);
  if (previous) {
    const [layer, head] = formed(previous, PREVIOUS)[0];
    found.push({
      x: previous.step,
      key: PREVIOUS.key,
      layer,
      head,
      label: `${headName({ layer, head })} ${PREVIOUS.head}: ${PREVIOUS.label} score ≥ ${PREVIOUS.threshold}`,
    });
  }
  for (const snapshot of history) {
    const below = formed(snapshot, PREVIOUS);
    const induction = formed(snapshot, PREFIX)
      .map(([layer, head]) => ({ layer, head, after: below.find(([l]) => l < layer) }))
      .find(({ after }) => after);
    if (!induction) continue;
    const { layer, head, after } = induction;
    found.push({
      x: snapshot.step,
      key: PREFIX.key,
      layer,
      head,
      after,
      label:
        `${headName({ layer, head })} ${PREFIX.head}: ${PREFIX.label} score ≥ ${PREFIX.threshold}, ` +
        `reading ${headName({ layer: after[0], head: after[1] })}`,
    });
    break;
  }
  return found;
}
