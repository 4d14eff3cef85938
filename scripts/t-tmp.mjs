import { createAttentionCore } from 'attention-explorer/core';
const core = await createAttentionCore();
const S =
  'the old man walked slowly along the river bank in the early morning light and watched the small boats drift past the quiet town where he had lived for so many years';
const m = await core.languageModel('causal');
const opts = [
  { positions: [] },
  { positions: [-1] },
  { positions: [-1], k: 1 },
  { positions: [-1, -2, -3, -4, -5, -6, -7, -8] },
  {},
];
const times = opts.map(() => []);
for (let round = 0; round < 40; round++)
  for (const [i, opt] of opts.entries()) {
    for (let j = 0; j < 20; j++) {
      const a = performance.now();
      m.run(S, opt);
      times[i].push(performance.now() - a);
    }
  }
opts.forEach((o, i) => {
  const t = times[i].sort((a, b) => a - b);
  console.log(JSON.stringify(o), t[t.length >> 1].toFixed(3), t[Math.floor(t.length * 0.1)].toFixed(3));
});
