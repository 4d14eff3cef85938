// The Learn chapter's controls: the task (with its description and an example drawn as chips), Train /
// Pause, Step, Reset, the speed, the loss axis, and under "More" the model's size, learning rate and
// seed; and the probe editor (type tokens, or click them in the task's vocabulary).
import { clampInteger, field, input, select } from '../../views/form-controls.js';
import { coreLimits } from '../../settings/limits.js';
import { SIZES, SPEEDS, taskDescription } from './tasks.js';
import { tokenName, vocabulary } from './probe.js';

function form(className, label) {
  const el = document.createElement('form');
  el.className = `controls ${className}`;
  el.setAttribute('aria-label', label);
  el.addEventListener('submit', (event) => event.preventDefault());
  return el;
}

function button(text, action, label) {
  const el = document.createElement('button');
  el.type = 'button';
  el.textContent = text;
  el.dataset.action = action;
  if (label) el.setAttribute('aria-label', label);
  return el;
}

/** Chips of a token sequence (names as probe.js gives them). */
function tokenChips(ids, options, className = 'learn-chips') {
  const list = document.createElement('ol');
  list.className = className;
  for (const id of ids) {
    const item = list.appendChild(document.createElement('li'));
    item.className = 'learn-chip';
    item.textContent = tokenName(id, options);
  }
  return list;
}

/** Field names of the model's size, in the order of the trainer's options they set. */
const SIZE_OPTIONS = {
  trainLayers: 'numLayers',
  trainHeads: 'numHeads',
  trainDModel: 'dModel',
  trainLearningRate: 'learningRate',
};
const SIZE_LABELS = {
  trainLayers: 'Layers',
  trainHeads: 'Heads per layer',
  trainDModel: 'd_model',
  trainLearningRate: 'Learning rate',
};

/**
 * @param {string[]} tasks  tasks.js learnTasks()
 * @returns {{ training: HTMLFormElement, probe: HTMLFormElement, read: () => object, readProbe: () => string,
 *   syncTask: (task: string) => void,
 *   sync: (state: object, info: { defaults: object, example: Int32Array, running: boolean, step: number, probe: string }) => void }}
 *   syncTask: the task shown and described (the form's data-task: the language task's own controls replace the rest)
 *   info.probe: the probe shown in the box while the state has none of its own (the task's default)
 *   Buttons carry data-action: 'train' (Train / Pause), 'step', 'reset', 'default-probe', 'append' (data-token: an id), 'backspace'.
 */
export function buildLearnControls(tasks) {
  const training = form('learn-controls', 'Training');
  const task = field(
    training,
    'Task',
    select(
      'trainTask',
      tasks.map((name) => [name, name]),
    ),
  );
  const about = training.appendChild(document.createElement('div'));
  about.className = 'task-about';
  const description = about.appendChild(document.createElement('p'));
  description.className = 'hint task-description';
  const example = about.appendChild(document.createElement('div'));
  example.className = 'task-example';
  const actions = training.appendChild(document.createElement('div'));
  actions.className = 'learn-actions';
  const train = actions.appendChild(button('Train', 'train'));
  train.className = 'primary';
  actions.append(
    button('Step', 'step', 'One training step'),
    button('Reset', 'reset', 'Reset to step 0 (the same seed gives the same start)'),
  );
  const speed = field(training, 'Speed', select('trainSpeed', SPEEDS));
  const log = field(
    training,
    'Loss axis',
    select('trainLog', [
      ['false', 'linear'],
      ['true', 'logarithmic'],
    ]),
  );
  const details = training.appendChild(document.createElement('details'));
  details.className = 'more-settings';
  details.appendChild(document.createElement('summary')).textContent = 'More';
  const more = details.appendChild(document.createElement('div'));
  more.className = 'more-controls';
  const sizes = Object.fromEntries(
    Object.entries(SIZES).map(([name, choices]) => [
      name,
      field(more, SIZE_LABELS[name], select(name, [['', 'task default'], ...choices.map((v) => [v, String(v)])])),
    ]),
  );
  const seed = field(more, 'Seed', input('trainSeed', { type: 'number', min: 0, max: coreLimits().maxSeed, step: 1 }));

  const probe = form('probe-controls', 'Probe sequence');
  const text = field(probe, 'Probe', input('trainProbe', { type: 'text', spellcheck: false, autocomplete: 'off' }));
  const palette = probe.appendChild(document.createElement('div'));
  palette.className = 'probe-palette';
  palette.setAttribute('role', 'group');
  palette.setAttribute('aria-label', 'Add a token to the probe');
  const edits = probe.appendChild(document.createElement('div'));
  edits.className = 'learn-actions';
  edits.append(button('⌫', 'backspace', 'Remove the last token'), button('Default probe', 'default-probe'));
  let paletteKey = '';

  return {
    training,
    probe,
    read() {
      const change = {
        trainTask: task.value,
        trainSpeed: Number(speed.value),
        trainLog: log.value === 'true',
        trainSeed: clampInteger(seed.value, 0, coreLimits().maxSeed),
      };
      for (const [name, el] of Object.entries(sizes)) change[name] = el.value === '' ? null : Number(el.value);
      return change;
    },
    readProbe: () => text.value,
    syncTask(name) {
      if (training.dataset.task === name) return; // called at every update: the DOM is written only when the task changes
      task.value = name;
      description.textContent = taskDescription(name);
      training.dataset.task = name;
    },
    sync(state, { defaults, example: tokens, running, step, probe: shownProbe }) {
      this.syncTask(state.trainTask);
      example.replaceChildren(
        Object.assign(document.createElement('span'), { className: 'hint', textContent: 'Example:' }),
        tokenChips(tokens, defaults),
      );
      speed.value = String(state.trainSpeed);
      log.value = String(state.trainLog);
      if (Number(seed.value) !== state.trainSeed || seed.value === '') seed.value = String(state.trainSeed);
      for (const [name, el] of Object.entries(sizes)) {
        el.value = state[name] === null ? '' : String(state[name]);
        // The core's defaults are float32 (a learning rate of 0.01 arrives as 0.009999999776482582): 6 digits say it.
        el.options[0].text = `task default (${Number(defaults[SIZE_OPTIONS[name]].toPrecision(6))})`;
      }
      train.textContent = running ? 'Pause' : step > 0 ? 'Continue' : 'Train';
      train.setAttribute('aria-pressed', String(running));
      // The box shows the typed probe, or the default one; never rewritten under the learner's typing.
      const wanted = state.trainProbe || shownProbe;
      if (text.value !== wanted && text.getRootNode().activeElement !== text) text.value = wanted;
      const key = `${state.trainTask}/${defaults.vocabSize}`;
      if (key !== paletteKey) {
        paletteKey = key;
        palette.replaceChildren(
          ...vocabulary(defaults).map((name, id) => {
            const chip = button(name, 'append', `Add ${name}`);
            chip.dataset.token = String(id);
            return chip;
          }),
        );
      }
      text.placeholder = `${defaults.seqLen} tokens at most, e.g. ${vocabulary(defaults).slice(0, 4).join('')}`;
    },
  };
}
