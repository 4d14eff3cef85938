// Types of the <attention-explorer> custom element (package exports "./element": the built bundle
// dist/element/attention-explorer.js, and "./single": the single file; each defines the element when
// imported in a browser, and imports without error where there is no DOM, e.g. Node).
import type {
  AttentionCore,
  LookupSimilarity,
  Normalizer,
  PositionalEncoding,
  ScoreFunction,
  Trace,
  TrainingTask,
} from '../core/index.js';
import type { Architecture, LanguageModelKind } from '../core/language-model.js';

/** A head of a model: its layer and its place in the layer, both from 0. */
export interface HeadRef {
  layer: number;
  head: number;
}

/** What the model shown computed on the sentence (web/src/models/run.js): the same shape for every model. */
export interface Run {
  /** 'designed', 'causal' or 'masked'. */
  model: string;
  /** A trained model still loading (or failed to) has no attention yet. */
  status: 'ready' | 'loading' | 'error';
  tokens: { text: string; start: number; end: number; oov: boolean; masked: boolean; id?: number }[];
  totalTokens: number;
  truncated: boolean;
  validLength: number;
  /** [L, H, T, T]: the weight query i of head h in layer l puts on key j is data[((l · H + h) · T + i) · T + j]. */
  attention: { data: Float32Array; shape: [number, number, number, number] };
  /** L · H of them, layer-major: what each does in a few words (a designed kind, or a trained head's measured job). */
  heads: { layer: number; head: number; label: string; kind: string; score: number; scores: object | null }[];
  causal: boolean;
  /** A trained model's block outputs, [T, dModel] per layer. */
  hidden?: { data: Float32Array; shape: [number, number] }[];
  /** A trained model's outputs: the decoder's next word, the encoder's blanks. */
  predictions?: object[];
  /** The designed heads' whole trace (core.explain). */
  trace?: Trace;
}

/** A head's kind: 'projected' uses W_Q, W_K; the others are designed (docs/js-api.md, "Designed heads"). */
export type HeadKind = 'projected' | 'semantic' | 'previous' | 'next' | 'offset' | 'first' | 'uniform';

/**
 * Everything the learner has chosen; the element's `state` and the `change` event's detail. One field per setting of
 * the state schema (web/src/settings/schema.js; tests/js/state-schema.test.js checks this interface against it): the
 * settings every chapter reads (settings/state.js), then each chapter's (lessons/<chapter>/chapter.js). Ranges are the
 * core's limits (core.limits); el.change() refuses a value outside them.
 */
export interface ExplorerState {
  sentence: string;
  /** Show `sentence` and `compareSentence` together, on shared axes (the Other lenses chapter's comparison). */
  compare: boolean;
  compareSentence: string;
  /** The chapter shown: 'attention', 'inside-head', 'positions', 'lenses' or 'learn' (an unknown one: the first). */
  chapter: string;
  /** The number of heads: it must divide d_model (core.dModel). */
  numHeads: number;
  /** Per head, its kind (a missing entry is 'projected'). */
  headKinds: (HeadKind | undefined)[];
  /**
   * Whose attention the page shows: the 'designed' heads (every setting below applies), or one of the core's trained
   * language models (core.languageModelLimits.objectives): 'causal', the decoder, with its next-word predictions;
   * 'masked', the encoder, filling in the words of maskedPositions. A trained model fixes the heads, mask, position
   * information, projections, score function and normalizer it was trained with. 'gpt2': the GPT-2 checkpoint at
   * `checkpoint` (core.languageModelLimits.architectures).
   */
  model: 'designed' | LanguageModelKind | Architecture;
  /**
   * The URL of a GPT-2 checkpoint (a safetensors file in Hugging Face's layout, config.json beside it) that the model
   * 'gpt2' loads, with a progress bar; '' (the default): none. Attribute `checkpoint`, URL key `checkpoint`.
   */
  checkpoint: string;
  /**
   * The selected head of the model shown, layer and head from 0 (the page labels them from 1: "L1 H2"); the designed
   * heads are one layer. Choosing another model starts at its first head. change() also takes a number h, the
   * designed head { layer: 0, head: h }; in the URL it is head=layer,head (old links' head= and trainedHead= still open).
   */
  head: HeadRef;
  /**
   * Heads switched off in the trained models (knocked out: their outputs are 0 before W_O, core languageModel run()'s
   * `ablate`), each { layer, head } from 0 and listed once; the designed heads ignore it. In the URL and the `knockout`
   * attribute: layer,head pairs separated by ';' (knockout=0,1;1,3). A head the model does not have shows its RangeError.
   */
  knockout: HeadRef[];
  projection: 'identity' | 'random';
  /** Seeds the random projections (0 … 2³²−1). */
  seed: number;
  /** δ of 'offset' heads. */
  offset: number;
  mask: 'bidirectional' | 'causal' | 'padding';
  /** With mask 'padding': keys at positions ≥ validLength are padding. */
  validLength: number;
  /** Token positions replaced by [MASK]. */
  maskedPositions: number[];
  positionalEncoding: PositionalEncoding;
  /** τ: scores are divided by it (0.05 – 5). */
  temperature: number;
  /** How scores become weights; sparsemax / entmax15 give exact zeros. */
  normalizer: Normalizer;
  /** How a query and a key become a score: q·k/√d_k, q·k, or vᵀ tanh(W_q q + W_k k) (Bahdanau). */
  scoreFunction: ScoreFunction;
  /** Hidden units of the additive score. */
  additiveHidden: number;
  colorMap: 'viridis' | 'cividis';
  /** The guided tour's step shown (a step id, as in `#tour=<id>` links); '' when the tour is closed. */
  tour: string;
  /**
   * The Attention chapter's line view, of any model: the heads it draws (layer-major indices into the Run's heads, those
   * past the model's last left out; with none left, the selected head), the pinned query (null: none), the least weight
   * drawn.
   */
  lineHeads: number[];
  lineQuery: number | null;
  lineThreshold: number;
  /**
   * Sampling a trained model's next word: the output softmax's temperature (0.05 … 5, default 1; not `temperature`,
   * the attention's), top-k (0 … 100; 0, the default: every word) and the seed of the next Generate (0 … 2³²−1,
   * default 0; it advances by one after each).
   */
  outputTemperature: number;
  topK: number;
  sampleSeed: number;
  /** The step the Inside one head chapter shows, from 1. */
  step: number;
  /** The Positions chapter: P × positionalScale and the word vectors × embeddingScale before they are added. */
  positionalScale: number;
  embeddingScale: number;
  /** The shuffled order of the shuffle check. */
  shuffleSeed: number;
  /** The positional-encoding lab's own width, base and positions (null: as many as the sentence has tokens). */
  labDModel: number;
  labBase: number;
  labPositions: number | null;
  /** The lab's curves: columns labFirstColumn … + 3. */
  labFirstColumn: number;
  /** Position similarity as cosine instead of P Pᵀ. */
  labCosine: boolean;
  /** The token pair of the rotation check. */
  rotationFrom: number;
  rotationTo: number;
  /** The simplex figure's three scores, its temperature and whose level sets it draws. */
  simplexScores: [number, number, number];
  simplexTemperature: number;
  simplexLevelSets: Normalizer;
  /** The target sentence of the cross-attention section (the source is `sentence`). */
  crossTarget: string;
  /** The soft lookup's table (keys and values, row by row), its query, τ and similarity. */
  lookupKeys: string[];
  lookupValues: string[];
  lookupQuery: string;
  lookupTemperature: number;
  lookupSimilarity: LookupSimilarity;
  /** The cost section's convolution kernel size k. */
  costKernel: number;
  /** The Learn chapter's task (core.trainerLimits.tasks, or 'language': real English). */
  trainTask: TrainingTask | 'language';
  /** The Learn chapter's model size and learning rate; null: the task's default (core.createTrainer). */
  trainLayers: number | null;
  trainHeads: number | null;
  trainDModel: number | null;
  trainLearningRate: number | null;
  /** Seeds the model, its batches and the probe (0 … 2³²−1): the same seed gives the same run. */
  trainSeed: number;
  /** Training pace in steps per second: 25, 100, 400, or 0 (as fast as the worker runs). */
  trainSpeed: number;
  /** The loss curve on a logarithmic axis. */
  trainLog: boolean;
  /** The probe as typed (letters A, B, …; "|" the separator of reverse and sort); '' the task's default. */
  trainProbe: string;
}

/**
 * <attention-explorer>: attributes sentence, model ("designed", "causal" or "masked"), heads ("4" or kinds "previous,semantic"), projection, seed,
 * mask, valid-length, positional-encoding, temperature, normalizer, score-function, target-sentence, color-map,
 * tour (empty, a step number from 1 or a step id: opens the guided tour there), state (URL-hash syntax), views,
 * controls ("none" or a list), height, readonly, url-state, assets-base, models-base (the language models' folder
 * only), theme ("auto", "light" or "dark"),
 * task (the Learn chapter's: previous-token, reverse, sort, induction, language) and autoplay (the Learn chapter starts
 * training the first time the element is at least half on screen, pauses while it is out of sight and goes on when
 * seen again unless the learner paused: views="learn" task="induction" autoplay).
 * Attribute changes re-render. The page is chapters (state.chapter: 'attention', 'inside-head', 'positions',
 * 'lenses', 'learn'); only the open one computes and draws, and a keystroke's figures follow it by a frame. The Learn
 * chapter trains in a Web Worker (dist/element/assets/ holds its script: host the element's folder whole; the single
 * file is its own worker); where the page's Content-Security-Policy refuses the worker, it trains on the page's thread
 * in short slices and says so.
 * Fires `change` (ExplorerChangeEvent) after every change of its state: `detail` is the new state itself (frozen: read
 * it, keep it, never alter it), `changed` the names of the fields the change set. Fires `ready` (an Event) once, when its
 * core has loaded and the figures on screen are drawn, and `resize` (ExplorerResizeEvent) whenever its height changes,
 * for a page that lays itself out around it (reveal.js: call Reveal.layout()). Keys pressed while focus is inside it
 * (typing in its sentence box, arrows on a heatmap) stay inside it, except Tab and shortcuts with Ctrl or ⌘: a host
 * page's own shortcuts (reveal.js, a notebook's) do not see them.
 */
export class AttentionExplorer extends HTMLElement {
  /** The sentence shown; setting it recomputes every figure (a TypeError for anything but a string). */
  sentence: string;
  /**
   * The guided tour's step shown (its id), '' when closed. Setting a step number (from 1) or id shows that
   * step (its state, its section scrolled into view); '' or null closes the tour. A bad value throws RangeError.
   */
  get tour(): string;
  set tour(value: string | number | null);
  /** A copy of the current state (undefined until the core has loaded). */
  readonly state: ExplorerState | undefined;
  /** The loaded core this element shares with the others on the page (undefined until loaded). */
  readonly core: AttentionCore | undefined;
  /**
   * The designed heads' last trace (see AttentionCore.explain), after running an update a keystroke left waiting for its
   * frame; undefined before the first one and while a trained model is shown (getRun() has what any model computed).
   */
  getTrace(): Trace | undefined;
  /** The last Run drawn, for any model (after a waiting update); undefined before the first one. */
  getRun(): Run | undefined;
  /**
   * Applies a partial state change (as the controls do) and redraws. Checked against the state schema, as the
   * attributes are: an unknown setting or a value outside its range or names (temperature: NaN or 99, numHeads: 3,
   * which must divide d_model) is a RangeError, a value of another type (a text setting that is not a string) a
   * TypeError; the message is also shown in the element, and nothing changes. Throws an Error while the core is
   * still loading (before `el.core` is set).
   */
  change(partial: Partial<ExplorerState>): void;
  addEventListener<K extends keyof AttentionExplorerEventMap>(
    type: K,
    listener: (this: AttentionExplorer, event: AttentionExplorerEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions,
  ): void;
  addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject,
    options?: boolean | AddEventListenerOptions,
  ): void;
}

/**
 * Defines <attention-explorer> in the window's custom element registry; importing the module already does.
 * Nothing happens where there is no registry (Node, a Web Worker: then false) or when the name is defined.
 * @returns whether <attention-explorer> is defined now
 */
export function define(): boolean;

/** The `change` event: the new state (frozen) and the fields that were set. */
export interface ExplorerChangeEvent extends CustomEvent<Readonly<ExplorerState>> {
  readonly changed: readonly string[];
}

/** The `resize` event: the element's new height in CSS pixels (its border box). */
export interface ExplorerResizeEvent extends CustomEvent<{ readonly height: number }> {}

/**
 * The `error` event: a message the element shows (a bad attribute, a core it could not load, a setting the core
 * refuses), fired once per message, also written to the console prefixed "attention-explorer:". attribute: the
 * attribute it is about, if any.
 */
export interface ExplorerErrorEvent extends CustomEvent<{ readonly message: string; readonly attribute?: string }> {}

/** The element's events; `resize` and `error` are its own, not the window's UIEvent and ErrorEvent. */
export interface AttentionExplorerEventMap extends Omit<HTMLElementEventMap, 'resize' | 'error'> {
  change: ExplorerChangeEvent;
  ready: Event;
  resize: ExplorerResizeEvent;
  error: ExplorerErrorEvent;
}

declare global {
  interface HTMLElementTagNameMap {
    'attention-explorer': AttentionExplorer;
  }
}
