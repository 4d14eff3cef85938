// Dragging the simplex figure's score bars. The figure is redrawn on every change, so the gesture
// (d3-drag) is bound to its slot, which stays, and each move finds the bar's current track to map
// the pointer's height to a score.
import { drag } from 'd3-drag';
import { select } from 'd3-selection';

const handleOf = (event) => event.target.closest?.('[data-score-index]');

/**
 * @param {HTMLElement} slot  the figure's container (it outlives the figure)
 * @param {[number, number]} range  the scores' axis
 * @param {(index: number, score: number) => void} onScore  called on every move, score rounded to 0.05
 */
export function enableScoreDrag(slot, [min, max], onScore) {
  let index = null;
  select(slot).call(
    drag()
      .filter((event) => !event.button && Boolean(handleOf(event)))
      .on('start', (event) => {
        index = Number(handleOf(event.sourceEvent).dataset.scoreIndex);
      })
      .on('drag', (event) => {
        const track = slot.querySelector(`.score-track[data-score-index="${index}"]`);
        const pointer = event.sourceEvent.touches?.[0] ?? event.sourceEvent;
        if (!track || pointer.clientY === undefined) return;
        const box = track.getBoundingClientRect();
        const t = Math.max(0, Math.min(1, (box.bottom - pointer.clientY) / box.height));
        onScore(index, Math.round((min + t * (max - min)) * 20) / 20);
      }),
  );
}
