// The benchmark loop, the same in Node and in the browser: per size, every peer is prepared, checked
// against the float64 reference, warmed up, then timed in interleaved rounds (one call of each peer
// per round, a fresh input each call); medians of the samples are reported.
import { MULTI_HEAD, SIZES } from './cases.js';

const WARMUP = 3;
const MIN_SAMPLES = 20;
const BUDGET_MS = 4000; // per size: more samples while they are cheap

const SAMPLE_MS = 2; // browsers round performance.now() to 0.1 ms: time enough calls per sample

/** Calls per sample so one sample lasts about SAMPLE_MS. */
async function callsPerSample(run, inputs) {
  let t0 = performance.now();
  await run(inputs[0]);
  if (performance.now() - t0 > SAMPLE_MS) return 1; // slow enough to time one call at a time
  t0 = performance.now();
  for (let k = 0; k < 10; k++) await run(inputs[k % inputs.length]);
  const each = Math.max((performance.now() - t0) / 10, 0.001);
  return Math.min(1000, Math.max(1, Math.ceil(SAMPLE_MS / each)));
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function maxAbsDiff(a, b) {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs(a[i] - b[i]));
  return max;
}

/**
 * @param {{ peers: object[], computation?: object, sizes?: number[][], log?: (line: string) => void }} options
 *   computation: cases.js's MULTI_HEAD (default) or ONE_HEAD; each peer's prepare() takes its cases
 * @returns {Promise<object[]>} one row per size and mask: { n, d, heads, causal, gflop, results: { [peer]: { ms, gflops, maxDiff } } }
 */
export async function runBench({ peers, computation = MULTI_HEAD, sizes = SIZES, log = () => {} }) {
  const { makeCase, reference, flops } = computation;
  const rows = [];
  for (const [n, d, heads] of sizes) {
    for (const causal of [false, true]) {
      const benchCase = makeCase(n, d, heads, causal);
      const expected = reference(benchCase, benchCase.inputs[0]);
      const runners = [];
      for (const peer of peers) {
        const run = await peer.prepare(benchCase);
        const maxDiff = maxAbsDiff(await run(benchCase.inputs[0]), expected);
        if (!(maxDiff < 1e-3))
          throw new Error(`${peer.name} disagrees with the float64 reference at ${n}×${d}×${heads}: ${maxDiff}`);
        runners.push({ peer, run, maxDiff, samples: [] });
      }
      for (let round = 0; round < WARMUP; round++)
        for (const r of runners) await r.run(benchCase.inputs[round % benchCase.inputs.length]);
      for (const r of runners) r.reps = await callsPerSample(r.run, benchCase.inputs);
      const start = performance.now();
      for (let round = 0; round < MIN_SAMPLES || (performance.now() - start < BUDGET_MS && round < 400); round++) {
        for (const r of runners) {
          const t0 = performance.now();
          for (let k = 0; k < r.reps; k++) await r.run(benchCase.inputs[(round + k) % benchCase.inputs.length]);
          r.samples.push((performance.now() - t0) / r.reps);
        }
      }
      const results = Object.fromEntries(
        runners.map((r) => {
          const ms = median(r.samples);
          return [
            r.peer.name,
            {
              ms,
              gflops: flops(n, d, heads) / ms / 1e6,
              maxDiff: r.maxDiff,
              samples: r.samples.length,
              callsPerSample: r.reps,
            },
          ];
        }),
      );
      for (const r of runners) await r.run.dispose?.();
      rows.push({ n, d, heads, causal, gflop: flops(n, d, heads) / 1e9, results });
      log(
        formatRow(
          rows.at(-1),
          peers.map((p) => p.name),
        ),
      );
    }
  }
  return rows;
}

function formatTime(ms) {
  return ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`;
}

const PEER = 'onnxruntime-web';

/**
 * One table line: time and GFLOP/s; for each of our calls its speed-up over onnxruntime-web, for
 * each other peer our default call's speed-up over it (>1: we are faster).
 */
export function formatRow({ n, d, heads, causal, results }, names) {
  const ours = results[names[0]];
  const cells = names.map((name) => {
    const r = results[name];
    const ratio =
      name === PEER
        ? ` (×${(r.ms / ours.ms).toFixed(2)})`
        : name.startsWith('ours')
          ? results[PEER]
            ? ` (vs ORT ×${(results[PEER].ms / r.ms).toFixed(2)})`
            : ''
          : ` (×${(r.ms / ours.ms).toFixed(2)})`;
    return `${formatTime(r.ms)} ${r.gflops.toFixed(1)} GF/s${ratio}`.padEnd(36);
  });
  return `${`${n}×${d}×${heads}${causal ? ' causal' : ''}`.padEnd(20)}${cells.join('')}`;
}

export function header(names) {
  return `${'seq×d_model×heads'.padEnd(20)}${names.map((n, i) => (i === 0 || n.startsWith('ours') ? n : `${n} (${names[0]} faster ×)`).padEnd(36)).join('')}`;
}
