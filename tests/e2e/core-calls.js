// Counting the element's calls into the core while a learner types (models.test.js, why-this-word.test.js): one core
// call per keystroke per model, and no measurement on demand among them.

/**
 * Wraps every function of el.core and of the loaded language models with a counter (window.coreCalls), after the
 * models the page loads on its own (the decoder's idle preload) have loaded.
 * @param {import('playwright-core').Page} page  @param {string} [host]  the element's selector
 */
export function countCoreCalls(page, host = 'attention-explorer') {
  return page.$eval(host, async (el) => {
    const counts = (window.coreCalls = {});
    const wrap = (object, prefix) => {
      for (const name of Object.keys(object)) {
        const original = object[name];
        if (typeof original !== 'function') continue;
        object[name] = function (...args) {
          counts[prefix + name] = (counts[prefix + name] ?? 0) + 1;
          return original.apply(this, args);
        };
      }
    };
    const models = await Promise.all(['causal', 'masked'].map((kind) => el.core.languageModel(kind)));
    models.forEach((model, i) => wrap(model, `${['causal', 'masked'][i]}.`));
    wrap(el.core, 'core.');
  });
}
