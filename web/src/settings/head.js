// The selected head: one { layer, head } for every model (both from 0; the page's labels count from 1). The
// designed heads are one layer, so theirs is { layer: 0, head: h }. In the URL it is written "layer,head"
// (#head=1,2); links from before it was one field still open at the same head: head=h named a designed
// head, trainedHead=i a trained one counted layer-major (read as { layer: 0, head: i }, which a model
// counts on into its later layers: models/run.js headIndex).

/**
 * The head each model starts at: the designed heads' first; in each shipped trained model, its clearest measured
 * previous-word head (layer 2, head 3 of the decoder, 0.90; layer 2, head 3 of the encoder, 0.75:
 * docs/language-models.md, "What the heads do"). Retraining moves them: tests/e2e/trained-model.test.js checks that
 * each is still labelled "previous".
 */
const FIRST_HEADS = {
  designed: { layer: 0, head: 0 },
  causal: { layer: 1, head: 2 },
  masked: { layer: 1, head: 2 },
  gpt2: { layer: 0, head: 0 },
};

/** @param {string} model  'designed', 'causal' or 'masked' @returns {{ layer: number, head: number }} where it starts */
export function firstHead(model) {
  if (!FIRST_HEADS[model]) throw new RangeError(`firstHead: unknown model '${model}'`);
  return { ...FIRST_HEADS[model] };
}

/** Whether `value` is a head: { layer, head } of whole numbers ≥ 0. */
export function isHead(value) {
  return (
    typeof value === 'object' &&
    value !== null &&
    !Array.isArray(value) &&
    Object.keys(value).length === 2 &&
    [value.layer, value.head].every((n) => Number.isInteger(n) && n >= 0)
  );
}

/** A head as a value: { layer, head } as it is, a whole number h (the old single field) as { layer: 0, head: h }; else undefined. */
export function asHead(value) {
  if (isHead(value)) return { layer: value.layer, head: value.head };
  if (Number.isInteger(value) && value >= 0) return { layer: 0, head: value };
  return undefined;
}

/** "1,2": a head in the URL. */
export function encodeHead({ layer, head }) {
  return `${layer},${head}`;
}

/** "0,1;1,3": a list of heads (the `knockout` setting) in the URL and in its attribute. */
export function encodeHeads(heads) {
  return heads.map(encodeHead).join(';');
}

/**
 * A list of heads read from "layer,head;layer,head" (each from 0; '' is none); undefined when it does not parse.
 * @param {string} text @returns {{ layer: number, head: number }[] | undefined}
 */
export function decodeHeads(text) {
  if (text.trim() === '') return [];
  const heads = text.split(';').map((item) => /^\s*(\d+)\s*,\s*(\d+)\s*$/.exec(item));
  return heads.every(Boolean) ? heads.map((m) => ({ layer: Number(m[1]), head: Number(m[2]) })) : undefined;
}

/** A head read from the URL ("layer,head", or an old link's single number); undefined when it does not parse. */
export function decodeHead(text) {
  const pair = /^(\d+),(\d+)$/.exec(text);
  if (pair) return { layer: Number(pair[1]), head: Number(pair[2]) };
  return /^\d+$/.test(text) ? { layer: 0, head: Number(text) } : undefined;
}

/**
 * The head an old link names (one written before the head was one field): its `trainedHead` with a trained model,
 * else its `head`; the model's first head when the link names none for it.
 * @param {URLSearchParams} params  @param {string} model  the model the link shows
 * @returns {{ layer: number, head: number } | undefined}  undefined for a link of today (head=layer,head or no head)
 */
export function oldLinkHead(params, model) {
  const head = params.get('head'),
    trained = params.get('trainedHead');
  const old = (head !== null && /^\d+$/.test(head)) || trained !== null;
  if (!old) return undefined;
  const text = model === 'designed' ? head : trained;
  return (text !== null && decodeHead(text)) || firstHead(model);
}

/** The designed heads' selected head (0-based): a head of another layer, or past the last, is their last. */
export function designedHead(head, numHeads) {
  return head.layer > 0 ? numHeads - 1 : Math.min(head.head, numHeads - 1);
}
