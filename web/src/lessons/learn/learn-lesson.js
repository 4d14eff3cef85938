// The Learn chapter at work: its controls, and the training session (a worker: learn-session.js) whose
// snapshots it publishes for its figures (chapter.js `figures`: the curves, every head on the probe, the
// history, the predictions), drawn by the explorer's figure scheduler like every other figure, at most
// once a frame and only while on screen. The figures are pure functions of the snapshots; the controls
// around them (ablation switches, the history's slider, the downloads) stay in place while training
// redraws the figures 14 times a second, so a press is never lost to a redraw.
import { element } from '../../views/layout.js';
import { download, exportFigure } from '../../views/figure-export.js';
import { buildLearnControls } from './learn-controls.js';
import { LearnSession } from './learn-session.js';
import { parseProbe, probeText } from './probe.js';
import { headName } from '../../models/run.js';
import { ablationSwitches } from './ablation-switches.js';
import { LANGUAGE_TASK } from './language-run.js';
import { learnTasks } from './tasks.js';
import { Autoplay } from './autoplay.js';

/** The trainer's options (core.createTrainer) for the Learn chapter's slice of the state; unset sizes take the task's defaults. */
export function trainerOptions(state) {
  const options = { task: state.trainTask, seed: state.trainSeed };
  const sizes = {
    numLayers: state.trainLayers,
    numHeads: state.trainHeads,
    dModel: state.trainDModel,
    learningRate: state.trainLearningRate,
  };
  for (const [name, value] of Object.entries(sizes)) if (value !== null) options[name] = value;
  return options;
}

function seconds(ms) {
  return ms < 60000
    ? `${(ms / 1000).toFixed(1)} s`
    : `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
}

export class LearnLesson {
  /**
   * @param {import('../chapters.js').ChapterParts} parts  core: the page's core (the worker starts the same build);
   *   edit: a change of the explorer's state; slots: where the figures are drawn; publish: hands the figures new data
   */
  constructor({ core, edit, slots, publish }) {
    this.edit = edit;
    this.publish = publish;
    this.session = new LearnSession({
      core,
      onModel: (model) => this.modelReady(model),
      onSnapshot: () => this.show(),
      onError: (message) => this.showError(message),
      onMainThread: (note) => Object.assign(this.threadNote, { textContent: note, hidden: false }),
    });
    this.controls = buildLearnControls(learnTasks(core.trainerLimits.tasks));
    this.controls.training.addEventListener('input', () => this.edit(this.controls.read()));
    this.controls.training.addEventListener('click', (event) => this.act(event.target.closest('button[data-action]')));
    this.controls.probe.addEventListener('input', () => this.edit({ trainProbe: this.controls.readProbe() }));
    this.controls.probe.addEventListener('click', (event) => this.act(event.target.closest('button[data-action]')));
    this.readout = element('p', 'learn-readout');
    this.readout.setAttribute('role', 'status');
    this.threadNote = element('p', 'hint learn-thread'); // where training runs, when not in a worker
    this.threadNote.hidden = true;
    this.error = element('p', 'status error learn-error');
    this.error.setAttribute('role', 'alert');
    this.probeError = element('p', 'status error probe-error');
    this.probeError.setAttribute('role', 'alert');
    // The figures' slots (chapter.js `figures`), with the names the chapter's style sheet gives them.
    this.slots = {
      curves: slots.learnCurves,
      heads: slots.learnHeads,
      history: slots.learnHistory,
      probe: slots.learnProbe,
    };
    for (const [name, slot] of Object.entries(this.slots)) slot.classList.add(`learn-${name}`);
    // These two scroll sideways on a phone: reachable by keyboard, named.
    for (const [name, label] of [
      ['history', 'History of every head'],
      ['probe', 'Predictions on the probe'],
    ]) {
      Object.assign(this.slots[name], { tabIndex: 0 });
      this.slots[name].setAttribute('role', 'region');
      this.slots[name].setAttribute('aria-label', label);
    }
    this.switches = ablationSwitches((layer, head, off) => this.session.ablate(layer, head, off));
    this.ablation = this.switches.element;
    // A head pressed in the grid flips its switch (pointerdown: the grid may be redrawn before a click completes).
    this.slots.heads.addEventListener('pointerdown', (event) => {
      const item = event.target.closest('[data-layer]');
      if (item && !this.readonly) this.switches.box(item.dataset.layer, item.dataset.head)?.click();
    });
    this.scrub = this.buildScrub();
    this.slots.history.addEventListener('pointerdown', (event) => {
      const thumb = event.target.closest('[data-index]');
      if (thumb) this.scrubTo(Number(thumb.dataset.index));
    });
    this.downloads = this.buildDownloads();
    this.at = null; // the history's snapshot shown instead of the live one (scrubbing), or null
    this.key = null; // the options the worker's model was made with (JSON)
    this.sentProbe = null; // the probe sent to the worker (JSON of its ids)
    this.running = false;
    this.opened = false;
    this.autoplay = new Autoplay();
    this.state = null;
    this.resolved = null; // the worker's model: { options (in effect, the task's defaults filled in), example, defaultProbe }
  }

  /** The chapter's content, in reading order. */
  content() {
    const top = element('div', 'learn-top');
    top.append(this.controls.training, this.readout, this.threadNote, this.error);
    const heads = element('div', 'learn-heads-area');
    heads.append(this.slots.heads, this.ablation);
    const history = element('div', 'learn-history-area');
    history.append(this.scrub.bar, this.slots.history);
    const probe = element('div', 'learn-probe-area');
    probe.append(this.controls.probe, this.probeError, this.slots.probe);
    this.ownParts = [this.readout, this.error, this.slots.curves, heads, history, probe, this.downloads];
    return [top, this.slots.curves, heads, history, probe, this.downloads];
  }

  buildScrub() {
    const bar = element('div', 'scrub-bar');
    const label = bar.appendChild(element('label', '', 'Moment '));
    const slider = label.appendChild(document.createElement('input'));
    Object.assign(slider, { type: 'range', name: 'learnScrub', min: 0, max: 0, step: 1, value: 0 });
    const readout = bar.appendChild(element('output'));
    const live = bar.appendChild(element('button', '', 'Back to live'));
    live.type = 'button';
    slider.addEventListener('input', () => this.scrubTo(Number(slider.value)));
    live.addEventListener('click', () => this.scrubTo(null));
    return { bar, slider, readout, live };
  }

  buildDownloads() {
    const bar = element('div', 'learn-downloads');
    bar.append(element('span', 'hint', 'Download:'));
    const items = [
      ['learn-loss', 'svg', 'loss curve SVG'],
      ['learn-loss', 'png', 'loss curve PNG'],
      ['learn-heads', 'svg', 'head grid SVG'],
      ['learn-heads', 'png', 'head grid PNG'],
      ['parameters', 'json', 'trained parameters JSON'],
    ];
    for (const [figure, format, text] of items) {
      const button = bar.appendChild(element('button', '', text));
      button.type = 'button';
      button.dataset.learnExport = `${figure}:${format}`;
    }
    bar.addEventListener('click', (event) => {
      const [figure, format] = event.target.closest('[data-learn-export]')?.dataset.learnExport.split(':') ?? [];
      if (figure === 'parameters') {
        if (this.session.latest) this.downloadParameters();
      } else if (figure) {
        const drawn =
          this.slots.curves.querySelector(`[data-figure="${figure}"]`) ??
          this.slots.heads.querySelector(`[data-figure="${figure}"]`);
        if (drawn) exportFigure(drawn, format, this.state);
      }
    });
    return bar;
  }

  /**
   * Follows the explorer's state.
   * @param {object} state  the explorer's state (its train* fields: chapter.js)
   * @param {{ open: string, readonly: boolean, autoplay: boolean, seen: boolean }} context  open: the id of the chapter
   *   shown; autoplay: the element's `autoplay` attribute (autoplay.js); seen: the element is on screen (on-screen.js)
   */
  sync(state, { open: chapter, readonly, autoplay, seen }) {
    // The language task has a lesson of its own (language-lesson.js): this one pauses and shows only the task's choice.
    const language = state.trainTask === LANGUAGE_TASK;
    for (const part of this.ownParts ?? []) part.hidden = language;
    this.controls.syncTask(state.trainTask);
    if (language) {
      if (this.running) this.pause();
      this.state = state;
      this.open = false;
      return;
    }
    const open = chapter === 'learn';
    this.state = state;
    this.readonly = readonly;
    this.open = open;
    if (!open && !this.opened) return; // nothing starts until the chapter is first opened
    const key = JSON.stringify(trainerOptions(state));
    if (key !== this.key) {
      // A new model, made and checked in the worker (a bad option is said by its message, and the last model stays).
      this.key = key;
      this.reset(state); // a new model starts paused
    } else this.sendProbe(state);
    this.opened = true;
    const action = this.autoplay.decide({ autoplay, seen, open, running: this.running });
    if (action === 'run') this.run();
    else if (action === 'pause') this.pause();
    if (this.running && state.trainSpeed !== this.speed) this.run();
    this.syncButtons();
    for (const control of [
      ...this.controls.training.elements,
      ...this.controls.probe.elements,
      ...this.ablation.elements,
    ]) {
      control.disabled = readonly;
    }
    if (open) this.show();
  }

  /** The worker's new model: its options in effect, example and default probe; the state's probe is sent once they are known. */
  modelReady({ options, example, defaultProbe }) {
    this.resolved = { options, example: Int32Array.from(example), defaultProbe };
    this.sentProbe = JSON.stringify(defaultProbe);
    this.showError('');
    this.sendProbe(this.state);
  }

  /** The probe's ids (the task's default for an empty one), or the last good ones when the typed probe is wrong (said why). */
  probeIds(state) {
    if (state.trainProbe.trim() === '') {
      this.probeError.textContent = '';
      return this.resolved.defaultProbe;
    }
    try {
      const ids = parseProbe(state.trainProbe, this.resolved.options);
      this.probeError.textContent = '';
      return ids;
    } catch (error) {
      this.probeError.textContent = `Probe: ${error.message}. The figures show the last probe that worked.`;
      return this.sentProbe === null ? this.resolved.defaultProbe : JSON.parse(this.sentProbe);
    }
  }

  /** A new model at step 0 (the seed's), paused; the worker answers with the model (modelReady) and its first snapshot. */
  reset(state) {
    this.resolved = null;
    this.sentProbe = null;
    this.running = false;
    this.at = null;
    this.session.reset(trainerOptions(state));
  }

  /** The state's probe to the worker, when it differs from the one sent (once the model is known: its tokens parse the probe). */
  sendProbe(state) {
    if (!this.resolved) return;
    const ids = this.probeIds(state);
    const key = JSON.stringify(ids);
    if (key === this.sentProbe) return;
    this.sentProbe = key;
    this.session.setProbe(ids);
  }

  run() {
    this.speed = this.state.trainSpeed;
    this.running = true;
    this.session.run(this.speed);
  }

  pause() {
    this.running = false;
    this.session.pause();
  }

  act(button) {
    if (!button || this.readonly) return;
    const { action } = button.dataset;
    if (['train', 'step', 'reset'].includes(action)) this.autoplay.stoppedByLearner();
    if (action === 'train') {
      if (this.running) this.pause();
      else this.run();
    } else if (action === 'step') {
      this.running = false;
      this.session.step(1);
    } else if (action === 'reset') {
      this.reset(this.state);
      this.show();
    } else if (action === 'default-probe') {
      this.edit({ trainProbe: '' });
    } else if (action === 'append' || action === 'backspace') {
      const current =
        this.state.trainProbe.trim() === '' && this.session.latest
          ? probeText(this.session.latest.probe, this.resolved.options)
          : this.state.trainProbe;
      const tokens = [...current.replace(/\s+/g, '')];
      if (action === 'append') tokens.push(button.textContent);
      else tokens.pop();
      this.edit({ trainProbe: tokens.join('') });
    }
    this.syncButtons();
  }

  /** The controls follow the state and the run (the Train button's label, the probe shown); none before the worker's model. */
  syncButtons() {
    const { latest } = this.session;
    if (!this.resolved) return;
    this.controls.sync(this.state, {
      defaults: this.resolved.options,
      example: this.resolved.example,
      running: this.running,
      step: latest?.step ?? 0,
      probe: latest ? probeText(latest.probe, this.resolved.options) : '',
    });
  }

  scrubTo(index) {
    const last = this.session.history.length - 1;
    this.at = index === null || index >= last ? null : Math.max(0, index);
    this.show();
  }

  showError(message) {
    this.error.textContent = message;
    if (message) this.running = false;
  }

  async downloadParameters() {
    const { parameters, options, step } = await this.session.parameters();
    const plain = (value) =>
      ArrayBuffer.isView(value)
        ? Array.from(value)
        : Array.isArray(value)
          ? value.map(plain)
          : value && typeof value === 'object'
            ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]))
            : value;
    const text = JSON.stringify({
      model: 'attention-only transformer (Attention Explorer, core.createTrainer)',
      options,
      step,
      layout: 'row-major: element [i, j] of a [rows, cols] matrix is data[i * cols + j]',
      parameters: plain(parameters),
    });
    download(
      new Blob([text], { type: 'application/json' }),
      `attention-explorer-${options.task}-step-${step}-parameters.json`,
    );
  }

  /**
   * The latest snapshot (or the one scrubbed back to): the readout, switches and slider follow at once; the figures get
   * it published, drawn in the next frame while on screen (snapshots arrive about 14 times a second).
   */
  show() {
    const { latest, history } = this.session;
    if (!this.open) {
      // Training goes on while another chapter is open: its figures keep the data for when they are shown, and nothing
      // else is touched (the learner is typing elsewhere).
      if (latest && this.resolved) this.publish('learn', this.figureData(latest, history));
      return;
    }
    this.syncButtons();
    if (!latest || !this.resolved) {
      this.readout.textContent = ''; // no model yet, or none: the settings' message says why
      return;
    }
    this.switches.sync(latest, this.readonly);
    const shown = this.at === null ? latest : history[this.at];
    const ablated = latest.ablated.map((key) => {
      const [layer, head] = key.split(',').map(Number);
      return headName({ layer, head });
    });
    this.readout.replaceChildren(
      element('strong', '', `Step ${latest.step}`),
      ` · ${latest.running ? `${Math.round(latest.stepsPerSecond)} steps/s` : 'paused'} · ${seconds(latest.elapsedMs)} of training · `,
      `held-out loss ${latest.loss.toFixed(3)} · accuracy ${(latest.accuracy * 100).toFixed(1)} %`,
      ablated.length ? ` with ${ablated.join(', ')} switched off` : '',
    );
    Object.assign(this.readout.dataset, {
      step: String(latest.step),
      loss: String(latest.loss),
      accuracy: String(latest.accuracy),
      running: String(latest.running),
    });
    const { slider, readout, live } = this.scrub;
    slider.max = String(Math.max(0, history.length - 1));
    slider.value = String(this.at ?? history.length - 1);
    readout.textContent = `step ${shown.step}${this.at === null ? ' (live)' : ''}`;
    live.hidden = this.at === null;
    this.publish('learn', this.figureData(latest, history));
  }

  /** What the chapter's figures draw (chapter.js `figures`): the run's history and the snapshot shown, named for the task. */
  figureData(latest, history) {
    const { task, vocabSize } = this.resolved.options;
    return { history, shown: this.at === null ? latest : history[this.at], at: this.at, names: { task, vocabSize } };
  }
}
