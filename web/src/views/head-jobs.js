// What the labels of measured heads mean ("same word", "prefix matching", …), one line each, under the heads that
// carry them: a learner reads "prefix matching 0.52" and needs to know what was measured (models/trained.js
// MEASURES; cpp/include/attn/train/head_statistics.hpp).

/**
 * The definitions of the labels `heads` carry, once each, in the order they first occur.
 * @param {{ definitions?: string[] }[]} heads  a Run's heads (models/run.js RunHead); definitions: "name: what it measures"
 * @returns {HTMLElement | null}  a <dl class="job-definitions"> (one <dt> name, <dd> meaning per label), or null where no
 *   head has a definition (the designed heads, whose labels say what they do by construction)
 */
export function jobDefinitions(heads) {
  const lines = [...new Set(heads.flatMap((h) => h.definitions ?? []))];
  if (lines.length === 0) return null;
  const list = document.createElement('dl');
  list.className = 'job-definitions';
  for (const line of lines) {
    const at = line.indexOf(': ');
    list.append(
      Object.assign(document.createElement('dt'), { textContent: line.slice(0, at) }),
      Object.assign(document.createElement('dd'), { textContent: line.slice(at + 2) }),
    );
  }
  return list;
}
