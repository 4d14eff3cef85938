// The section "Attention as a soft lookup" (d2l.ai §11.1): an editable table of keys and
// values, a typed query, τ on a log slider and the similarity, and the figure of the weights per key
// beside the exact lookup's Kronecker delta. Its inputs live in the explorer's state (lookupKeys,
// lookupValues, lookupQuery, lookupTemperature, lookupSimilarity; the page's normalizer), so links and
// embed code carry them. The explorer draws its figure (lookup) from lookupData(): one core.softLookup()
// call per change of those inputs while it is on screen; a table the core refuses shows why.
import { field, input, select } from '../../views/form-controls.js';
import { element, section } from '../../views/layout.js';
import { formula as namedFormula } from '../../views/formulas.js';

const TEMPERATURE_LOG_RANGE = [-2, 1]; // the slider: τ = 10^x, 0.01 … 10
const MAX_TEXT = 64;
const SIMILARITY_OPTIONS = [
  ['letters', 'letters: character bigrams (^lu, uk, …)'],
  ['wordVectors', 'word vectors: mean GloVe vector'],
];

/** τ from the slider's position, to 2 significant digits. */
function temperatureAt(position) {
  return Number((10 ** Number(position)).toPrecision(2));
}

/** The rows the core sees: blank rows (no key, no value) are left out; `rows` maps back to the table's rows. */
export function lookupTable(state) {
  const count = Math.max(state.lookupKeys.length, state.lookupValues.length);
  const keys = [],
    values = [],
    rows = [];
  for (let i = 0; i < count; i++) {
    const key = state.lookupKeys[i] ?? '',
      value = state.lookupValues[i] ?? '';
    if (key.trim() === '' && value.trim() === '') continue;
    keys.push(key);
    values.push(value);
    rows.push(i);
  }
  return { keys, values, rows };
}

/** The core's message, with keys[i] / values[i] named by the table's row as the learner sees it. */
function friendly(message, rows) {
  const text = message
    .replace(/^soft_?[lL]ookup: /, '')
    .replace(
      /(keys|values)\[(\d+)\]/g,
      (_, what, i) => `the ${what === 'keys' ? 'key' : 'value'} in row ${rows[Number(i)] + 1}`,
    );
  return `${text[0].toUpperCase()}${text.slice(1)}.`;
}

/** The soft lookup's default table (the classic names-to-surnames example), query and settings: its slice of the state. */
export const LOOKUP_DEFAULTS = {
  lookupKeys: ['Luke', 'Puke', 'Leia', 'Han', 'John'],
  lookupValues: ['Sprangers', 'Skywalker', 'Organa', 'Solo', 'Lennon'],
  lookupQuery: 'Luk',
  lookupTemperature: 0.2, // τ of the lookup, 0.01 … 10 on its slider
  lookupSimilarity: 'letters', // 'letters' (character bigrams) | 'wordVectors'
};

/** The lookup's inputs from the state: the table without blank rows (`rows` maps back to the table's rows), query, options. */
export function lookupInputs(state) {
  const { keys, values, rows } = lookupTable(state);
  return {
    query: state.lookupQuery,
    keys,
    values,
    rows,
    temperature: state.lookupTemperature,
    similarity: state.lookupSimilarity,
    normalizer: state.normalizer,
  };
}

/**
 * One core.softLookup() call.
 * @returns {{ result: object, options: { keys, values, query, temperature, similarity, normalizer } }}
 * @throws {Error} the core's message, naming the table's rows as the learner sees them
 */
export function lookupData(core, { query, rows, ...options }) {
  try {
    return { result: core.softLookup(query, options), options: { ...options, query } };
  } catch (error) {
    throw new Error(friendly(error.message, rows), { cause: error });
  }
}

/**
 * @param {object} core  the attention core (core.maxLookupRows)
 * @param {(change: object) => void} onChange  applies a state change (the explorer's edit)
 * @param {HTMLElement} slot  where the explorer draws the figure
 * @returns {{ element: HTMLElement, forms: HTMLFormElement[], message: HTMLElement,
 *   sync: (state: object, context: { readonly: boolean }) => void }}  message: why the table drew nothing new
 */
export function lookupSection(core, onChange, slot) {
  const form = element('form', 'controls lab-controls lookup-controls');
  form.setAttribute('aria-label', 'Soft lookup: query and temperature');
  form.addEventListener('submit', (event) => event.preventDefault());
  const query = field(
    form,
    'Query q',
    input('lookupQuery', { type: 'text', maxLength: MAX_TEXT, spellcheck: false, autocomplete: 'off' }),
  );
  const [low, high] = TEMPERATURE_LOG_RANGE;
  const temperature = field(
    form,
    'Temperature τ (log scale)',
    input('lookupTemperature', { type: 'range', min: low, max: high, step: 0.05 }),
  );
  const temperatureOut = temperature.parentElement.appendChild(element('output', 'hint'));
  const similarity = field(form, 'Similarity', select('lookupSimilarity', SIMILARITY_OPTIONS));
  form.addEventListener('input', (event) => {
    if (event.target === query) onChange({ lookupQuery: query.value });
    else if (event.target === temperature) onChange({ lookupTemperature: temperatureAt(temperature.value) });
    else if (event.target === similarity) onChange({ lookupSimilarity: similarity.value });
  });

  const tableForm = element('form', 'lookup-table-form');
  tableForm.setAttribute('aria-label', 'Soft lookup: the table of keys and values');
  tableForm.addEventListener('submit', (event) => event.preventDefault());
  const table = tableForm.appendChild(element('table', 'lookup-table'));
  table.appendChild(element('caption', '', 'The table: keys → values'));
  const head = table.appendChild(element('thead')).appendChild(element('tr'));
  for (const text of ['#', 'key k', 'value v']) head.appendChild(element('th', '', text)).scope = 'col';
  head.appendChild(element('td')); // above the remove buttons: no header
  const body = table.appendChild(element('tbody'));
  const addButton = tableForm.appendChild(element('button', 'lookup-add', 'Add row'));
  addButton.type = 'button';
  addButton.dataset.action = 'lookup-add';
  let current = null; // the state last synced
  const edited = () => {
    const cells = [...body.querySelectorAll('tr')];
    onChange({
      lookupKeys: cells.map((tr) => tr.querySelector('[name="lookupKey"]').value),
      lookupValues: cells.map((tr) => tr.querySelector('[name="lookupValue"]').value),
    });
  };
  tableForm.addEventListener('input', edited);
  tableForm.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    if (!button || !current) return;
    const { lookupKeys: keys, lookupValues: values } = current;
    if (button.dataset.action === 'lookup-add') {
      onChange({ lookupKeys: [...keys, ''], lookupValues: [...values, ''] });
      body.querySelector('tr:last-child [name="lookupKey"]')?.focus();
    } else if (button.dataset.action === 'lookup-remove') {
      const row = Number(button.dataset.row);
      onChange({ lookupKeys: keys.filter((_, i) => i !== row), lookupValues: values.filter((_, i) => i !== row) });
    }
  });

  const message = element('p', 'status error lookup-message');
  message.setAttribute('role', 'alert');
  const formula = namedFormula('lookup');
  const controls = element('div', 'lookup-inputs');
  controls.append(tableForm, form);
  const el = section(
    'Attention as a soft lookup',
    'A dictionary returns the value of the key that equals the query, or fails. Attention compares the query with every key, ' +
      'turns the similarities into weights, and returns the weighted mix of the values. Edit the table and type a query.',
    formula,
    controls,
    message,
    slot,
  );
  el.classList.add('lens-section', 'lookup-section');
  el.appendChild(
    element(
      'p',
      'intro lookup-notice',
      'Notice: a small τ puts all the weight on the most similar key — the exact lookup when the query is a key; ' +
        'a large τ spreads it evenly, so the answer becomes the average of all values.',
    ),
  );

  /** Rebuilds the table's rows only when their number changes (typing keeps its focus); sets their text. */
  const syncTable = (state, readonly) => {
    const count = Math.max(state.lookupKeys.length, state.lookupValues.length);
    if (body.children.length !== count) {
      body.replaceChildren(
        ...Array.from({ length: count }, (_, i) => {
          const tr = element('tr');
          tr.appendChild(element('th', 'row-number', String(i + 1))).scope = 'row';
          for (const [name, label] of [
            ['lookupKey', 'Key'],
            ['lookupValue', 'Value'],
          ]) {
            const box = tr
              .appendChild(element('td'))
              .appendChild(input(name, { type: 'text', maxLength: MAX_TEXT, spellcheck: false, autocomplete: 'off' }));
            box.setAttribute('aria-label', `${label} in row ${i + 1}`);
          }
          const remove = tr.appendChild(element('td')).appendChild(element('button', 'lookup-remove', '×'));
          remove.type = 'button';
          remove.dataset.action = 'lookup-remove';
          remove.dataset.row = String(i);
          remove.setAttribute('aria-label', `Remove row ${i + 1}`);
          return tr;
        }),
      );
    }
    [...body.children].forEach((tr, i) => {
      const key = tr.querySelector('[name="lookupKey"]'),
        value = tr.querySelector('[name="lookupValue"]');
      if (key.value !== (state.lookupKeys[i] ?? '')) key.value = state.lookupKeys[i] ?? '';
      if (value.value !== (state.lookupValues[i] ?? '')) value.value = state.lookupValues[i] ?? '';
    });
    for (const control of [...tableForm.elements, ...form.elements]) control.disabled = readonly;
    addButton.disabled = readonly || count >= core.maxLookupRows;
  };

  const sync = (state, { readonly }) => {
    current = state;
    syncTable(state, readonly);
    if (query.value !== state.lookupQuery) query.value = state.lookupQuery;
    temperature.value = String(Math.log10(state.lookupTemperature));
    temperatureOut.value = `τ = ${state.lookupTemperature}`;
    similarity.value = state.lookupSimilarity;
  };
  return { element: el, forms: [form, tableForm], message, sync };
}
