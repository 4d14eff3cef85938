// The sentences the explorer opens on and the states the tour's steps start from, shared by the
// chapters (no imports: chapters, state and tour all read it).

export const DEFAULT_SENTENCE = 'The river bank was muddy after the storm';

/** The one-click comparison: "bank" by a river and "bank" with money (context moves meaning). */
export const COMPARISON = ['the river bank was muddy', 'she deposited money at the bank'];

/** The default sentence in German: the target of cross-attention (most of its words are not in the English vectors). */
export const DEFAULT_TRANSLATION = 'Das Flussufer war nach dem Sturm schlammig';

/** The tour's steps speak of one projected head unless they set their own heads. */
export const ONE_HEAD = { numHeads: 1, headKinds: [] };

/** The default sentence with one projected head: where most tour steps start. */
export const RIVER = { sentence: DEFAULT_SENTENCE, ...ONE_HEAD };
