// The core's trained language models as the attention chapter reads them: each loaded once per core (every
// explorer on a page shares the core, so they share its models), when a learner first chooses it or, for the
// decoder, when the page is first idle with the model choice on screen (the causal model's file is 2.2 MB), and for
// the other trained models once a learner shows one (switching from the decoder to the encoder loaded the encoder's
// file at the click: a 130–210 ms task of checking and unpacking it, on top of the switch's own redraw),
// then run on every keystroke. Loading is the only asynchronous step: until a model is
// there, its figures say that it is loading, or why it failed.

/**
 * Whether the build ships the models' files, so that loading one before anyone asks cannot fail for want of it. The
 * single file does not (scripts/build-web.mjs): there a model's file is looked for, beside it, only when chosen.
 */
const MODELS_SHIPPED = true;

/** How often a checkpoint's progress redraws its figures while it loads, at most (ms). */
const PROGRESS_EVERY_MS = 250;

/** The key a model is kept under: its kind, and for a checkpoint its URL too (an author may name another). */
const keyOf = (kind, checkpoint) => (checkpoint ? `${kind} ${checkpoint}` : kind);

class TrainedModels {
  constructor(core) {
    this.core = core;
    this.models = new Map(); // key → { model } | { error } | { loading: true, progress? }
    this.wanted = new Set(); // keys a figure asked for (load): only their loads finishing redraw anything
    this.listeners = new Set(); // called when a wanted load finishes, either way, and as a checkpoint's load progresses
    this.preloaded = new Set(); // kinds whose preload has been scheduled (one each per core)
  }

  /**
   * Starts loading `kind` unless it is loaded or loading; its figures compute again when it has (onSettled).
   * @param {string} kind  one of our models' kinds, or a checkpoint's architecture (core.languageModelLimits)
   * @param {string} [checkpoint]  a checkpoint's URL (state.checkpoint), for an architecture
   */
  load(kind, checkpoint) {
    this.wanted.add(keyOf(kind, checkpoint));
    this.start(kind, checkpoint);
  }

  start(kind, checkpoint) {
    const key = keyOf(kind, checkpoint);
    if (this.models.has(key)) return;
    this.models.set(key, { loading: true });
    let shown = 0;
    const onProgress = (progress) => {
      this.models.set(key, { loading: true, progress });
      const now = performance.now();
      if (now - shown < PROGRESS_EVERY_MS || !this.wanted.has(key)) return;
      shown = now;
      for (const listener of this.listeners) listener();
    };
    // core.languageModel reports every error, an unknown kind too, through its promise.
    const promise = checkpoint
      ? this.core.languageModel({ url: checkpoint, architecture: kind, onProgress })
      : this.core.languageModel(kind);
    // A preload nobody has asked for yet finishes quietly: nothing on screen changes, so nothing is redrawn (a redraw
    // would replace the figures, and their open menus, under the learner's pointer).
    promise
      .then(
        (model) => this.models.set(key, { model }),
        (error) => this.models.set(key, { error: error.message }),
      )
      .then(() => {
        if (this.wanted.has(key)) for (const listener of this.listeners) listener();
      });
  }

  /**
   * Starts loading `kind` when the page is next idle (requestIdleCallback where there is one), so the model is ready
   * when a learner chooses it: loading costs one ~150 ms task (checking the file, packing the output layer), which then
   * falls between keystrokes instead of after a choice.
   */
  preload(kind) {
    if (this.preloaded.has(kind) || !MODELS_SHIPPED) return;
    this.preloaded.add(kind);
    const idle = globalThis.requestIdleCallback ?? ((callback) => setTimeout(callback, 200));
    idle(() => this.start(kind), { timeout: 2000 });
  }

  /**
   * @param {string} kind @param {string} [checkpoint]  as load()'s
   * @returns {{ model?: object, error?: string, loading?: boolean, progress?: { stage: string, loaded: number, total: number } }}
   *   what there is of it now
   */
  get(kind, checkpoint) {
    return this.models.get(keyOf(kind, checkpoint)) ?? { loading: true };
  }

  /** `listener()` after each wanted load finishes (and as a checkpoint arrives), so its figures compute again. */
  onSettled(listener) {
    this.listeners.add(listener);
  }
}

const byCore = new WeakMap();

/** @param {object} core  createAttentionCore()'s core @returns {TrainedModels} the models of that core */
export function trainedModels(core) {
  if (!byCore.has(core)) byCore.set(core, new TrainedModels(core));
  return byCore.get(core);
}
