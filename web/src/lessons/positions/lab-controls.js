// Controls of the positional-encoding lab: the encoding's own d_model, base and positions; the token
// pair of the rotation; and what is added to the word vectors (P's multiplier, √d_model scaling,
// shuffling). Three small forms, each beside the figures it drives.
import { clampInteger, field, input, select } from '../../views/form-controls.js';
import { coreLimits, labelled } from '../../settings/limits.js';
import { POSITIONS_WITHOUT_SENTENCE, labPositions, rotationPair } from './lab-data.js';
import { setText } from '../../views/dom-update.js';

function form(label) {
  const el = document.createElement('form');
  el.className = 'controls lab-controls';
  el.setAttribute('aria-label', label);
  el.addEventListener('submit', (event) => event.preventDefault());
  return el;
}

function withOutput(control) {
  const out = control.parentElement.appendChild(document.createElement('output'));
  out.className = 'hint';
  return out;
}

function button(text, action) {
  const el = document.createElement('button');
  el.type = 'button';
  el.textContent = text;
  el.dataset.action = action;
  return el;
}

/** Round a base to 3 significant digits (the slider moves in log steps). */
function roundBase(value) {
  return Number(value.toPrecision(3));
}

/**
 * @returns {{ encoding: HTMLFormElement, rotation: HTMLFormElement, input: HTMLFormElement,
 *   read: () => object, sync: (state: object, tokens: object[]) => void }}
 *   Buttons carry data-action "d2l-preset" or "shuffle" for the chapter to handle (positions/chapter.js).
 */
export function buildLabControls() {
  const { maxLabDModel: LAB_MAX_D_MODEL, maxLabPositions: LAB_MAX_POSITIONS } = coreLimits();
  const encoding = form('Positional-encoding lab: the encoding');
  const dModel = field(
    encoding,
    'd_model (this view)',
    input('labDModel', { type: 'range', min: 2, max: LAB_MAX_D_MODEL, step: 2 }),
  );
  const dModelOut = withOutput(dModel);
  const base = field(encoding, 'base (log scale)', input('labBase', { type: 'range', min: 2, max: 5, step: 0.05 }));
  const baseOut = withOutput(base);
  const positions = field(
    encoding,
    'Positions shown',
    input('labPositions', { type: 'range', min: 1, max: LAB_MAX_POSITIONS, step: 1 }),
  );
  const positionsOut = withOutput(positions);
  const firstColumn = field(
    encoding,
    'Curves: first column',
    input('labFirstColumn', { type: 'number', min: 0, max: LAB_MAX_D_MODEL - 1, step: 1 }),
  );
  const similarity = field(
    encoding,
    'Similarity',
    select('labCosine', [
      ['false', 'dot product P Pᵀ'],
      ['true', 'cosine'],
    ]),
  );
  encoding.append(button('d2l preset: d_model 32, 60 positions, columns 6–9', 'd2l-preset'));

  const rotation = form('Positional-encoding lab: the rotation');
  const from = field(rotation, 'From token i', select('rotationFrom', []));
  const to = field(rotation, 'To token i + δ', select('rotationTo', []));

  const added = form('Positional-encoding lab: what is added');
  const positional = field(
    added,
    'Position information',
    select('positionalEncoding', labelled('positionalEncodings')),
  );
  const scale = field(added, 'Multiply P by', input('positionalScale', { type: 'range', min: 0, max: 4, step: 0.1 }));
  const scaleOut = withOutput(scale);
  const sqrtD = field(added, 'Word vectors × √d_model = 10 (§3.4)', input('embeddingScale', { type: 'checkbox' }));
  added.append(button('Shuffle words', 'shuffle'));

  const read = () => ({
    labDModel: clampInteger(dModel.value, 2, LAB_MAX_D_MODEL),
    labBase: roundBase(10 ** Number(base.value)),
    labPositions: clampInteger(positions.value, 1, LAB_MAX_POSITIONS),
    labFirstColumn: clampInteger(firstColumn.value, 0, LAB_MAX_D_MODEL - 1),
    labCosine: similarity.value === 'true',
    rotationFrom: Number(from.value),
    rotationTo: Number(to.value),
    positionalEncoding: positional.value,
    positionalScale: Number(scale.value),
    embeddingScale: sqrtD.checked ? 10 : 1,
  });

  // The rotation's choices: the sentence's tokens, or positions alone while it is empty (the lab needs none).
  const choices = (tokens) =>
    tokens.length
      ? tokens.map((t, i) => `${i}: ${t.text}`)
      : Array.from({ length: POSITIONS_WITHOUT_SENTENCE }, (_, i) => `position ${i}`);
  const sync = (state, tokens) => {
    dModel.value = String(state.labDModel);
    dModelOut.value = String(state.labDModel);
    base.value = String(Math.log10(state.labBase));
    baseOut.value = String(state.labBase);
    const shown = labPositions(state, tokens.length);
    positions.value = String(shown);
    positionsOut.value = String(shown);
    firstColumn.value = String(state.labFirstColumn);
    similarity.value = String(state.labCosine);
    const labels = choices(tokens);
    // Options rewritten in place: a keystroke changes a word's label, seldom how many there are.
    for (const menu of [from, to]) {
      labels.forEach((label, i) => {
        const option = menu.options[i] ?? menu.appendChild(new Option('', String(i)));
        setText(option, label);
      });
      while (menu.options.length > labels.length) menu.lastChild.remove();
    }
    const pair = rotationPair(state, tokens.length);
    from.value = String(pair.from);
    to.value = String(pair.to);
    positional.value = state.positionalEncoding;
    scale.value = String(state.positionalScale);
    scaleOut.value = `× ${Number(state.positionalScale).toFixed(1)}`;
    sqrtD.checked = state.embeddingScale !== 1;
  };
  return { encoding, rotation, input: added, read, sync };
}
