// The line under the sentence box that says what the figures do not show of it: tokens past the longest trace, a trained
// model read past the length it trained on, words without a vector, a chapter in the link that does not exist.
import { modelKindName } from '../models/model-facts.js';
import { unknownWordsNote } from '../views/token-strip.js';

/**
 * A trained model reads every length the page accepts, but it learned attention on windows of config.seqLen tokens:
 * past them its positions are ones it never trained on, and its heads' patterns fall apart. Said, so that no figure
 * shows a model out of its depth without saying so.
 * @param {import('../models/run.js').Run} run  @returns {string}  '' within its training length (or for the designed heads)
 */
export function beyondTrainingNote(run) {
  const trained = run.config?.seqLen;
  if (!trained || run.tokens.length <= trained) return '';
  return (
    `The ${modelKindName(run.config)} trained on windows of ${trained} tokens and this sentence has ${run.tokens.length}: ` +
    `from token ${trained + 1} on it reads positions it never trained on, and its heads and predictions there are out of ` +
    'its depth.'
  );
}

/**
 * The notice's text for a Run: '' when there is nothing to say.
 * @param {import('../models/run.js').Run} run
 * @param {{ maxTokens: number, vocabSize: number, unknownChapter?: string | false | null }} facts  the core's longest
 *   trace and vocabulary size; what the chapter tabs say of a chapter in the link they do not know
 */
export function sentenceNotice(run, { maxTokens, vocabSize, unknownChapter }) {
  return [
    run.truncated &&
      `Showing the first ${run.tokens.length} of ${run.totalTokens} tokens (the explorer traces at most ${maxTokens}).`,
    beyondTrainingNote(run),
    unknownWordsNote(run, vocabSize),
    unknownChapter,
  ]
    .filter(Boolean)
    .join(' ');
}
