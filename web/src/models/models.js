// The models the page shows, behind one call: run(state, parts) → Run. The designed heads compute with
// core.explain; a trained model with its own run(). Either way an update crosses into the core once: a
// trained model still loading stands in with the sentence's tokens (core.tokenize), and the encoder
// tokenizes the sentence only while the learner has masked some of its words (to write [MASK] in their
// place), then remembers those tokens until the sentence changes.
import { DESIGNED } from '../settings/limits.js';
import { runDesigned } from './designed.js';
import { modelEntry } from './registry.js';
import { runTrained, waitingRun } from './trained.js';
import { trainedModels } from './trained-models.js';

export { DESIGNED };

/** How many principal components of a checkpoint's learned positions the page computes (learnedPositions). */
export const POSITION_COMPONENTS = 3;

/** What the page says when GPT-2 is chosen and no checkpoint was given. */
export const NO_CHECKPOINT =
  'no checkpoint was given. Host a GPT-2 model.safetensors (with its config.json) beside the page and name it: the ' +
  'element’s checkpoint attribute, or #model=gpt2&checkpoint=models/gpt2/model.safetensors in the link ' +
  '(docs/language-models.md, “Bring a GPT-2 checkpoint”).';

export class Models {
  /** @param {object} core  createAttentionCore()'s core */
  constructor(core) {
    this.core = core;
    this.trained = trainedModels(core);
    this.tokenized = { sentence: null, tokens: [] };
    this.positions = new WeakMap(); // a checkpoint → its learned positions on principal axes (learnedPositions)
  }

  /**
   * @param {object} state  the explorer's state (model, sentence, head, the designed heads' settings)
   * @param {{ positionChecks: boolean, encoderBlock: boolean, project2d: boolean }} parts  the designed trace's optional
   *   parts, asked for only while a figure on screen draws them
   * @returns {import('./run.js').Run}
   * @throws the core's TypeError / RangeError for a state or a sentence it cannot compute; RangeError for a model the
   *   registry does not have
   */
  run(state, parts) {
    // What the model can do travels with its Run, so a chapter asks the run (run.can.generate), never the model's id.
    // compute() makes a new Run object on every call: it is given its abilities, not copied.
    return Object.assign(this.compute(state, parts), { can: modelEntry(state.model).can });
  }

  /** The Run of state.model, without its abilities (run()). */
  compute(state, parts) {
    if (state.model === DESIGNED) return runDesigned(this.core, state, parts);
    const entry = modelEntry(state.model);
    // A checkpoint is the one the state names (state.checkpoint); with none named there is nothing to load.
    const checkpoint = entry.can.checkpoint ? state.checkpoint : undefined;
    if (checkpoint === '') return waitingRun(state.model, { error: NO_CHECKPOINT }, this.tokens(state.sentence));
    this.trained.load(state.model, checkpoint);
    const { model, error, loading, progress } = this.trained.get(state.model, checkpoint);
    if (!model) return waitingRun(state.model, { error, loading, progress }, this.tokens(state.sentence));
    const masks = entry.can.fillBlanks && state.maskedPositions.length > 0;
    const labelThreshold = this.core.languageModelLimits.headLabelThreshold;
    const run = runTrained(model, state, { tokens: masks ? this.tokens(state.sentence) : undefined, labelThreshold });
    if (model.positionEmbeddings && run.ask) run.ask.learnedPositions = () => this.learnedPositions(model);
    return run;
  }

  /**
   * A checkpoint's learned position embeddings (wpe) on their first principal components (core.pca), once per model:
   * { pca, nPositions, dModel, total } (total: the summed variance of every column, for each component's share).
   */
  learnedPositions(model) {
    if (!this.positions.has(model)) {
      const wpe = model.positionEmbeddings();
      const [nPositions, dModel] = wpe.shape;
      let total = 0;
      for (let j = 0; j < dModel; j++) {
        let mean = 0;
        for (let i = 0; i < nPositions; i++) mean += wpe.data[i * dModel + j] / nPositions;
        for (let i = 0; i < nPositions; i++) total += (wpe.data[i * dModel + j] - mean) ** 2 / nPositions;
      }
      const pca = this.core.pca(wpe, { k: POSITION_COMPONENTS });
      this.positions.set(model, { pca, nPositions, dModel, total });
    }
    return this.positions.get(model);
  }

  /** The sentence's tokens, computed again only when it changes. */
  tokens(sentence) {
    if (this.tokenized.sentence !== sentence) this.tokenized = { sentence, tokens: this.core.tokenize(sentence) };
    return this.tokenized.tokens;
  }

  /** `listener()` after a model a figure asked for has loaded (or failed to), so the figures compute again. */
  onSettled(listener) {
    this.trained.onSettled(listener);
  }
}
