// Places text labels beside their points so that no two labels overlap and no label covers a marked
// point: a d3-force simulation (d3-force) in which each label is pulled towards its point and pushed out of
// every other label's box and every marker's disc. Deterministic: d3-force's jiggle uses a seeded
// generator, and the simulation runs a fixed number of ticks without a timer.
import { forceSimulation, forceX, forceY } from 'd3-force';

const TICKS = 150; // of the simulation; then up to as many passes of separation alone, until nothing overlaps
const GAP = 2; // pixels kept between two labels, and between a label and a marker
// Placing costs about n² comparisons a tick, and a crowded plot may take every pass: measured in Node 20,
// 8 labels 5 ms, 16 labels 12 ms, 32 labels 115 ms. The figure is redrawn on each keystroke while on screen,
// so above this many labels a greedy pass places them instead (greedyLabels): each at the first of a few places around
// its point that is free, or not at all.
const MAX_PLACED = 16;
// Around its point, where greedyLabels tries a label's centre, as multiples of (half its width + 6, half its height + 4):
// above-right first (where the simulation starts), then right, below-right, the left side, above and below.
const AROUND = [
  [1, -1],
  [1, 0],
  [1, 1],
  [-1, -1],
  [-1, 0],
  [-1, 1],
  [0, -1.5],
  [0, 1.5],
];
let measure;

/**
 * A label's width in pixels in `font` (a CSS font shorthand, as the figure's stylesheet sets for its text), with a
 * pixel to spare each side: the width placeLabels() keeps free for it.
 */
export function labelWidth(text, font) {
  measure ??= document.createElement('canvas').getContext('2d');
  measure.font = font;
  return Math.ceil(measure.measureText(text).width) + 2;
}

/**
 * A force that pushes apart axis-aligned boxes (centred at node.x, node.y, node.width × node.height) that
 * overlap, along the axis of least overlap, and pushes boxes out of fixed discs { x, y, r }. Returns how
 * many overlaps it pushed apart.
 */
function boxCollide(discs) {
  let nodes = [];
  const force = () => {
    let pushed = 0;
    for (let i = 0; i < nodes.length; i++) {
      const a = nodes[i];
      for (let j = i + 1; j < nodes.length; j++) {
        const b = nodes[j];
        const dx = b.x - a.x,
          dy = b.y - a.y;
        const ox = (a.width + b.width) / 2 + GAP - Math.abs(dx),
          oy = (a.height + b.height) / 2 + GAP - Math.abs(dy);
        if (ox <= 0 || oy <= 0) continue;
        pushed++;
        // Apart along the shallower overlap, half each; a tie in position goes by index (no randomness).
        if (ox < oy) {
          const s = ((dx > 0 || (dx === 0 && i < j) ? 1 : -1) * ox) / 2;
          ((a.x -= s), (b.x += s));
        } else {
          const s = ((dy > 0 || (dy === 0 && i < j) ? 1 : -1) * oy) / 2;
          ((a.y -= s), (b.y += s));
        }
      }
      for (const d of discs) {
        // nearest point of a's box to the disc's centre, and how far inside the disc it is
        const nx = Math.max(a.x - a.width / 2, Math.min(d.x, a.x + a.width / 2));
        const ny = Math.max(a.y - a.height / 2, Math.min(d.y, a.y + a.height / 2));
        const ex = nx - d.x,
          ey = ny - d.y,
          distance = Math.sqrt(ex * ex + ey * ey);
        const depth = d.r + GAP - distance;
        if (depth <= 0) continue;
        pushed++;
        if (distance > 0) ((a.x += (ex / distance) * depth), (a.y += (ey / distance) * depth));
        else a.y -= d.r + GAP + a.height / 2 - (d.y - a.y); // the centre inside the box: lift the box above the disc
      }
    }
    return pushed;
  };
  force.initialize = (initial) => {
    nodes = initial;
  };
  return force;
}

/**
 * @param {{ x: number, y: number, width: number, height: number }[]} labels  each label's point (its anchor)
 *   and its box's size, in pixels
 * @param {{ x: number, y: number, r: number }[]} markers  discs no label may cover (the points drawn)
 * @param {{ width: number, height: number }} bounds  the plot area: boxes stay inside it
 * @returns {({ x: number, y: number } | null)[]}  each label box's centre, in the order given; null for a label that
 *   had no free place (only above MAX_PLACED labels): it is not drawn, as one over another could be read as neither
 */
export function placeLabels(labels, markers, bounds) {
  if (labels.length > MAX_PLACED) return greedyLabels(labels, bounds);
  // Start above-right of the point, where a label is read as belonging to it.
  const nodes = labels.map((l) => ({ ...l, x: l.x + l.width / 2 + 6, y: l.y - l.height / 2 - 4 }));
  const simulation = forceSimulation(nodes)
    .velocityDecay(0.5)
    .force('x', forceX((n) => n.x).strength(0.08))
    .force('y', forceY((n) => n.y).strength(0.08))
    .force('collide', boxCollide(markers))
    .stop();
  // forceX/forceY read the starting position as the target: each label is held near its point.
  const clamp = () => {
    for (const n of nodes) {
      n.x = Math.max(n.width / 2, Math.min(bounds.width - n.width / 2, n.x));
      n.y = Math.max(n.height / 2, Math.min(bounds.height - n.height / 2, n.y));
    }
  };
  for (let i = 0; i < TICKS; i++) {
    simulation.tick();
    clamp();
  }
  // The pull towards the points is off now: separate what still overlaps, until nothing does.
  const collide = simulation.force('collide');
  for (let i = 0; i < TICKS; i++) {
    const pushed = collide();
    clamp();
    if (pushed === 0) break;
  }
  return nodes.map(({ x, y }) => ({ x, y }));
}

/**
 * Many labels, in order: each at the first place around its point (AROUND) inside `bounds` that overlaps no label placed
 * before it (GAP apart), else null. About 8 n² box tests: 48 labels take well under a millisecond.
 */
function greedyLabels(labels, bounds) {
  const taken = [];
  const free = (box) =>
    box.x - box.width / 2 >= 0 &&
    box.x + box.width / 2 <= bounds.width &&
    box.y - box.height / 2 >= 0 &&
    box.y + box.height / 2 <= bounds.height &&
    taken.every(
      (t) =>
        Math.abs(t.x - box.x) >= (t.width + box.width) / 2 + GAP ||
        Math.abs(t.y - box.y) >= (t.height + box.height) / 2 + GAP,
    );
  return labels.map((l) => {
    for (const [dx, dy] of AROUND) {
      const box = {
        x: l.x + dx * (l.width / 2 + 6),
        y: l.y + dy * (l.height / 2 + 4),
        width: l.width,
        height: l.height,
      };
      if (free(box)) {
        taken.push(box);
        return { x: box.x, y: box.y };
      }
    }
    return null;
  });
}
