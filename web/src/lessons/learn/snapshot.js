// One moment of a training run, as the Learn chapter draws it: the step, the losses, the accuracy,
// every head's scores, and the model's attention and predictions on the probe. The training worker
// (train-worker.js) takes one after each reset (step 0), after each change while paused, and one per tick
// while training.

/**
 * @param {object} trainer  from core.createTrainer
 * @param {Int32Array} probe  token ids, at most seqLen
 * @param {{ trainLoss?: number, ablated?: string[], running?: boolean, stepsPerSecond?: number, elapsedMs?: number }} [run]
 *   trainLoss: mean training loss (nats) since the last snapshot; ablated: "layer,head" of the heads switched
 *   off; the pace: steps per second, training time (ms)
 * @returns {{ step: number, trainLoss: number, loss: number, accuracy: number, previousToken: object,
 *   prefixMatching: object, probe: Int32Array, weights: object, predictions: Int32Array, ablated: string[],
 *   running: boolean, stepsPerSecond: number, elapsedMs: number }}  previousToken, prefixMatching [numLayers,
 *   numHeads]; weights [numLayers, numHeads, T, T] on the probe; predictions [T] (trainer.predict's argmax)
 */
export function takeSnapshot(
  trainer,
  probe,
  { trainLoss = NaN, ablated = [], running = false, stepsPerSecond = 0, elapsedMs = 0 } = {},
) {
  const evaluation = trainer.evaluate();
  const { weights } = trainer.attention(probe);
  const { predictions } = trainer.predict(probe);
  return {
    step: evaluation.step,
    trainLoss,
    loss: evaluation.loss,
    accuracy: evaluation.accuracy,
    previousToken: evaluation.headScores.previousToken,
    prefixMatching: evaluation.headScores.prefixMatching,
    probe: Int32Array.from(probe),
    weights,
    predictions,
    ablated: [...ablated],
    running,
    stepsPerSecond,
    elapsedMs,
  };
}
