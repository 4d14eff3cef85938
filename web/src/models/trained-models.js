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

class TrainedModels {
  constructor(core) {
    this.core = core;
    this.models = new Map(); // kind → { model } | { error } | { loading: true }
    this.wanted = new Set(); // kinds a figure asked for (load): only their loads finishing redraw anything
    this.listeners = new Set(); // called when a wanted load finishes, either way
    this.preloaded = new Set(); // kinds whose preload has been scheduled (one each per core)
  }

  /** Starts loading `kind` unless it is loaded or loading; its figures compute again when it has (onSettled). */
  load(kind) {
    this.wanted.add(kind);
    this.start(kind);
  }

  start(kind) {
    if (this.models.has(kind)) return;
    this.models.set(kind, { loading: true });
    // core.languageModel reports every error, an unknown kind too, through its promise.
    const promise = this.core.languageModel(kind);
    // A preload nobody has asked for yet finishes quietly: nothing on screen changes, so nothing is redrawn (a redraw
    // would replace the figures, and their open menus, under the learner's pointer).
    promise
      .then(
        (model) => this.models.set(kind, { model }),
        (error) => this.models.set(kind, { error: error.message }),
      )
      .then(() => {
        if (this.wanted.has(kind)) for (const listener of this.listeners) listener();
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

  /** @returns {{ model?: object, error?: string, loading?: boolean }} what there is of `kind` now */
  get(kind) {
    return this.models.get(kind) ?? { loading: true };
  }

  /** `listener()` after each wanted load finishes, so its figures compute again. */
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
