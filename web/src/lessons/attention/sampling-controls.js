// The predictions' sampling controls (cpp/include/attn/train/sampling.hpp, as Transformer Explainer teaches them):
// the output temperature (the output softmax's; the attention temperature is another setting), top-k, the seed of the
// next draw, and Generate, which appends a word sampled from the bars' distribution to the sentence.
import { modelEntry } from '../../models/registry.js';
import { languageLimits } from '../../settings/limits.js';
import { clampInteger, field, input } from '../../views/form-controls.js';
import { setHidden } from '../../views/dom-update.js';

/**
 * @returns {{ form: HTMLFormElement, read: () => { outputTemperature: number, topK: number, sampleSeed: number },
 *   sync: (state: object) => void, generate: HTMLButtonElement, said: HTMLOutputElement }}  generate: the button (its
 *   click is the chapter's to handle); said: where the chapter says what was generated or why it could not
 */
export function buildSamplingControls() {
  const limits = languageLimits();
  const form = document.createElement('form');
  form.className = 'controls sampling-controls';
  form.setAttribute('aria-label', 'Sampling the next word');
  form.addEventListener('submit', (event) => event.preventDefault());
  const temperature = field(
    form,
    'output temperature',
    input('outputTemperature', {
      type: 'range',
      min: limits.minOutputTemperature,
      max: limits.maxOutputTemperature,
      step: 0.05,
    }),
  );
  const temperatureOut = temperature.parentElement.appendChild(document.createElement('output'));
  temperatureOut.className = 'hint';
  const topK = field(
    form,
    'top-k (0: all)',
    input('topK', { type: 'number', min: 0, max: limits.maxSampleTopK, step: 1 }),
  );
  const seed = field(form, 'seed', input('sampleSeed', { type: 'number', min: 0, max: limits.maxSampleSeed, step: 1 }));
  const generate = form.appendChild(document.createElement('button'));
  generate.type = 'button';
  generate.className = 'generate';
  generate.textContent = 'Generate';
  generate.title = 'Append a word sampled from the bars’ distribution to your sentence (the seed then advances by one)';
  const said = form.appendChild(document.createElement('output'));
  said.className = 'hint generated';
  said.setAttribute('aria-live', 'polite');

  const read = () => ({
    outputTemperature: Number(temperature.value),
    topK: clampInteger(topK.value, 0, limits.maxSampleTopK),
    sampleSeed: clampInteger(seed.value, 0, limits.maxSampleSeed),
  });
  const sync = (state) => {
    // Written only when they differ: this runs at every keystroke while the chapter is open.
    const t = String(state.outputTemperature);
    if (temperature.value !== t) temperature.value = t;
    if (temperatureOut.value !== state.outputTemperature.toFixed(2))
      temperatureOut.value = state.outputTemperature.toFixed(2);
    if (topK.value !== String(state.topK)) topK.value = String(state.topK);
    if (seed.value !== String(state.sampleSeed)) seed.value = String(state.sampleSeed);
    const { can } = modelEntry(state.model);
    setHidden(generate, !can.generate);
    if (!can.generate && can.outputLayer) {
      said.value =
        'Generate writes the next word: the decoder’s job (the encoder fills blanks; its bars follow these settings).';
    } else if (!can.generate) said.value = '';
  };
  return { form, read, sync, generate, said };
}
