// The Learn chapter at work: its controls, the training session (a worker: learn-session.js), and the
// figures it redraws from each snapshot while the chapter is open — the curves, every head on the
// probe, the history, the predictions. The figures are pure functions of the snapshots; the controls
// around them (ablation switches, the history's slider, the downloads) stay in place while training
// redraws the figures 14 times a second, so a press is never lost to a redraw.
import { element } from '../../explorer/layout.js';
import { download, exportFigure } from '../../explorer/figure-export.js';
import { buildLearnControls } from './learn-controls.js';
import { LearnSession } from './learn-session.js';
import { defaultProbe, parseProbe, probeText } from './probe.js';
import { takeSnapshot } from './snapshot.js';
import { probeView } from './probe-view.js';
import { historyStrip } from './history-strip.js';
import { trainedHeads } from './trained-heads.js';
import { headName } from './head-formations.js';
import { trainingCurves } from './training-curves.js';

/** The trainer's options (core.createTrainer) for the Learn chapter's slice of the state; unset sizes take the task's defaults. */
export function trainerOptions(state) {
  const options = { task: state.trainTask, seed: state.trainSeed };
  const sizes = { numLayers: state.trainLayers, numHeads: state.trainHeads, dModel: state.trainDModel, learningRate: state.trainLearningRate };
  for (const [name, value] of Object.entries(sizes)) if (value !== null) options[name] = value;
  return options;
}

function seconds(ms) {
  return ms < 60000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.floor(ms / 60000)} min ${Math.round((ms % 60000) / 1000)} s`;
}

export class LearnLesson {
  /**
   * @param {{ core: object, edit: (change: object) => void }} parts
   *   core: the page's core (each task's defaults and example; the worker starts the same build); edit: a change of
   *   the explorer's state
   */
  constructor({ core, edit }) {
    this.core = core;
    this.edit = edit;
    this.session = new LearnSession({ onSnapshot: () => this.scheduleDraw(), onError: (message) => this.showError(message), core });
    this.controls = buildLearnControls(core.trainerLimits.tasks);
    this.controls.training.addEventListener('input', () => this.edit(this.controls.read()));
    this.controls.training.addEventListener('click', (event) => this.act(event.target.closest('button[data-action]')));
    this.controls.probe.addEventListener('input', () => this.edit({ trainProbe: this.controls.readProbe() }));
    this.controls.probe.addEventListener('click', (event) => this.act(event.target.closest('button[data-action]')));
    this.readout = element('p', 'learn-readout');
    this.readout.setAttribute('role', 'status');
    this.error = element('p', 'status error learn-error');
    this.error.setAttribute('role', 'alert');
    this.probeError = element('p', 'status error probe-error');
    this.probeError.setAttribute('role', 'alert');
    this.slots = Object.fromEntries(['curves', 'heads', 'history', 'probe'].map((name) => [name, element('div', `slot learn-${name}`)]));
    // These two scroll sideways on a phone: reachable by keyboard, named.
    for (const [name, label] of [['history', 'History of every head'], ['probe', 'Predictions on the probe']]) {
      Object.assign(this.slots[name], { tabIndex: 0 });
      this.slots[name].setAttribute('role', 'region');
      this.slots[name].setAttribute('aria-label', label);
    }
    this.ablation = element('fieldset', 'ablation');
    this.ablation.append(element('legend', '', 'Switch heads off (ablation): which heads does the accuracy need?'));
    this.ablation.addEventListener('change', (event) => {
      const { layer, head } = event.target.dataset;
      this.session.ablate(Number(layer), Number(head), event.target.checked);
    });
    // A head pressed in the grid flips its switch (pointerdown: the grid may be redrawn before a click completes).
    this.slots.heads.addEventListener('pointerdown', (event) => {
      const item = event.target.closest('[data-layer]');
      if (item && !this.readonly) this.ablationBox(item.dataset.layer, item.dataset.head)?.click();
    });
    this.scrub = this.buildScrub();
    this.slots.history.addEventListener('pointerdown', (event) => {
      const thumb = event.target.closest('[data-index]');
      if (thumb) this.scrubTo(Number(thumb.dataset.index));
    });
    this.downloads = this.buildDownloads();
    this.at = null;          // the history's snapshot shown instead of the live one (scrubbing), or null
    this.key = null;         // the options the worker's model was made with (JSON)
    this.sentProbe = null;   // the probe sent to the worker (JSON of its ids)
    this.running = false;
    this.opened = false;
    this.state = null;
    this.resolved = null;    // { options (in effect, the task's defaults filled in), example, defaultProbe }
    this.model = null;       // the page's copy of the model at step 0 (the first snapshot is taken from it)
  }

  /** The chapter's content, in reading order. */
  content() {
    const top = element('div', 'learn-top');
    top.append(this.controls.training, this.readout, this.error);
    const heads = element('div', 'learn-heads-area');
    heads.append(this.slots.heads, this.ablation);
    const history = element('div', 'learn-history-area');
    history.append(this.scrub.bar, this.slots.history);
    const probe = element('div', 'learn-probe-area');
    probe.append(this.controls.probe, this.probeError, this.slots.probe);
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
    const items = [['learn-loss', 'svg', 'loss curve SVG'], ['learn-loss', 'png', 'loss curve PNG'], ['learn-heads', 'svg', 'head grid SVG'],
      ['learn-heads', 'png', 'head grid PNG'], ['parameters', 'json', 'trained parameters JSON']];
    for (const [figure, format, text] of items) {
      const button = bar.appendChild(element('button', '', text));
      button.type = 'button';
      button.dataset.learnExport = `${figure}:${format}`;
    }
    bar.addEventListener('click', (event) => {
      const [figure, format] = event.target.closest('[data-learn-export]')?.dataset.learnExport.split(':') ?? [];
      if (figure === 'parameters') this.downloadParameters();
      else if (figure) {
        const drawn = this.slots.curves.querySelector(`[data-figure="${figure}"]`) ?? this.slots.heads.querySelector(`[data-figure="${figure}"]`);
        if (drawn) exportFigure(drawn, format, this.state);
      }
    });
    return bar;
  }

  ablationBox(layer, head) {
    return this.ablation.querySelector(`input[data-layer="${layer}"][data-head="${head}"]`);
  }

  /**
   * Follows the explorer's state.
   * @param {object} state  the explorer's state (its train* fields: chapter.js)
   * @param {{ open: string, readonly: boolean, autoplay: boolean }} context  open: the id of the chapter shown; autoplay:
   *   start training when this chapter first opens (the element's `autoplay` attribute)
   */
  sync(state, { open: chapter, readonly, autoplay }) {
    const open = chapter === 'learn';
    this.state = state;
    this.readonly = readonly;
    this.open = open;
    if (!open && !this.opened) return;  // nothing starts until the chapter is first opened
    const options = trainerOptions(state);
    const key = JSON.stringify(options);
    if (key !== this.key) {
      let trainer;
      try {
        trainer = this.core.createTrainer(options);  // checks the options here, where the message can be shown at once
      } catch (error) {
        this.showError(`Training settings: ${error.message}`);
        return;
      }
      this.showError('');
      // The default probe first, from a fresh sample stream: the same as the worker's model would draw.
      const probe = Array.from(defaultProbe(trainer));
      this.resolved = { options: trainer.options, example: trainer.sample(1).tokens, defaultProbe: probe };
      this.model = trainer;
      this.key = key;
      this.reset(state);
      // A new model starts paused, unless the element plays on its own (autoplay) when first shown.
      if (autoplay && !this.opened) this.run();
    } else this.sendProbe(state);
    this.opened = true;
    if (this.running && state.trainSpeed !== this.speed) this.run();
    this.syncButtons();
    for (const control of [...this.controls.training.elements, ...this.controls.probe.elements, ...this.ablation.elements]) {
      control.disabled = readonly;
    }
    // Drawn now, not in a later frame: the chapter has its full height when the explorer (or the tour) lays it out.
    if (open) this.draw();
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

  /** A new model at step 0 (the seed's), paused, on the state's probe; its first snapshot taken here. */
  reset(state) {
    const ids = this.probeIds(state);
    this.sentProbe = JSON.stringify(ids);
    this.running = false;
    this.at = null;
    this.session.reset(trainerOptions(state), ids, takeSnapshot(this.model, Int32Array.from(ids)));
  }

  sendProbe(state) {
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

  act(button) {
    if (!button || this.readonly) return;
    const { action } = button.dataset;
    if (action === 'train') {
      if (this.running) {
        this.running = false;
        this.session.pause();
      } else this.run();
    } else if (action === 'step') {
      this.running = false;
      this.session.step(1);
    } else if (action === 'reset') {
      this.reset(this.state);
      this.draw();
    } else if (action === 'default-probe') {
      this.edit({ trainProbe: '' });
    } else if (action === 'append' || action === 'backspace') {
      const current = this.state.trainProbe.trim() === '' && this.session.latest
        ? probeText(this.session.latest.probe, this.resolved.options) : this.state.trainProbe;
      const tokens = [...current.replace(/\s+/g, '')];
      if (action === 'append') tokens.push(button.textContent);
      else tokens.pop();
      this.edit({ trainProbe: tokens.join('') });
    }
    this.syncButtons();
  }

  /** The controls follow the state and the run (the Train button's label, the probe shown). */
  syncButtons() {
    const { latest } = this.session;
    this.controls.sync(this.state, { defaults: this.resolved.options, example: this.resolved.example, running: this.running,
      step: latest?.step ?? 0, probe: latest ? probeText(latest.probe, this.resolved.options) : '' });
  }

  scrubTo(index) {
    const last = this.session.history.length - 1;
    this.at = index === null || index >= last ? null : Math.max(0, index);
    this.scheduleDraw();
  }

  showError(message) {
    this.error.textContent = message;
    if (message) this.running = false;
  }

  async downloadParameters() {
    const { parameters, options, step } = await this.session.parameters();
    const plain = (value) => (ArrayBuffer.isView(value) ? Array.from(value)
      : Array.isArray(value) ? value.map(plain)
        : value && typeof value === 'object' ? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)])) : value);
    const text = JSON.stringify({ model: 'attention-only transformer (Attention Explorer, core.createTrainer)', options, step,
      layout: 'row-major: element [i, j] of a [rows, cols] matrix is data[i * cols + j]', parameters: plain(parameters) });
    download(new Blob([text], { type: 'application/json' }), `attention-explorer-${options.task}-step-${step}-parameters.json`);
  }

  /** Snapshots arrive about 14 times a second: the figures are drawn once per frame at most, and only while the chapter is open. */
  scheduleDraw() {
    if (this.drawPending || !this.open) return;
    this.drawPending = true;
    requestAnimationFrame(() => {
      this.drawPending = false;
      if (this.open) this.draw();
    });
  }

  draw() {
    const { latest, history } = this.session;
    this.syncButtons();
    if (!latest) {
      this.readout.textContent = '';  // no model: the settings' message says why
      return;
    }
    this.syncAblation(latest);
    const shown = this.at === null ? latest : history[this.at];
    const names = { task: this.resolved.options.task, vocabSize: this.resolved.options.vocabSize };
    const ablated = latest.ablated.map((key) => headName(...key.split(',').map(Number)));
    this.readout.replaceChildren(
      element('strong', '', `Step ${latest.step}`),
      ` · ${latest.running ? `${Math.round(latest.stepsPerSecond)} steps/s` : 'paused'} · ${seconds(latest.elapsedMs)} of training · `,
      `held-out loss ${latest.loss.toFixed(3)} · accuracy ${(latest.accuracy * 100).toFixed(1)} %`,
      ablated.length ? ` with ${ablated.join(', ')} switched off` : '');
    Object.assign(this.readout.dataset, { step: String(latest.step), loss: String(latest.loss), accuracy: String(latest.accuracy),
      running: String(latest.running) });
    this.slots.curves.replaceChildren(trainingCurves(history, { log: this.state.trainLog }));
    this.slots.heads.replaceChildren(trainedHeads(shown, { ...names, colorMap: this.state.colorMap, canvas: this.canvas('heads'),
      caption: this.at === null ? undefined : `Every head's attention on the probe at step ${shown.step} (scrubbed back in history)` }));
    this.slots.history.replaceChildren(historyStrip(history, { at: this.at, colorMap: this.state.colorMap, canvas: this.canvas('history') }));
    this.slots.probe.replaceChildren(probeView(shown, names));
    const { slider, readout, live } = this.scrub;
    slider.max = String(Math.max(0, history.length - 1));
    slider.value = String(this.at ?? history.length - 1);
    readout.textContent = `step ${shown.step}${this.at === null ? ' (live)' : ''}`;
    live.hidden = this.at === null;
  }

  /** One switch per head, rebuilt when the model's shape changes; checked = switched off. */
  syncAblation(snapshot) {
    const [numLayers, numHeads] = snapshot.weights.shape;
    const shape = `${numLayers}x${numHeads}`;
    if (this.ablation.dataset.shape !== shape) {
      this.ablation.dataset.shape = shape;
      this.ablation.replaceChildren(this.ablation.firstChild);
      for (let l = 0; l < numLayers; l++) {
        for (let h = 0; h < numHeads; h++) {
          const label = this.ablation.appendChild(element('label', 'ablation-switch'));
          const box = label.appendChild(document.createElement('input'));
          Object.assign(box, { type: 'checkbox', disabled: this.readonly });
          Object.assign(box.dataset, { layer: String(l), head: String(h) });
          label.append(headName(l, h));
        }
      }
    }
    for (const box of this.ablation.querySelectorAll('input')) box.checked = snapshot.ablated.includes(`${box.dataset.layer},${box.dataset.head}`);
  }

  /** A figure's canvases by key, the same ones from draw to draw (making a canvas costs more than filling it). */
  canvas(figure) {
    const pool = (this.canvases ??= {})[figure] ??= new Map();
    return (key) => {
      if (!pool.has(key)) pool.set(key, document.createElement('canvas'));
      return pool.get(key);
    };
  }
}
