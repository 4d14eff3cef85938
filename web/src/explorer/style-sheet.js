// The explorer's CSS (its own, its chapters' and the shared views') as one constructable stylesheet, built
// once and adopted by every explorer's shadow root: no CSS leaks in or out, and ten explorers on a page
// parse it once. The order is the cascade's: later sheets win over earlier ones of the same specificity.
import styles from './explorer.css?inline';
import attentionStyles from '../lessons/attention/attention.css?inline';
import insideHeadStyles from '../lessons/inside-head/inside-head.css?inline';
import positionsStyles from '../lessons/positions/positions.css?inline';
import exportStyles from '../views/figure-export.css?inline';
import lensesStyles from '../lessons/lenses/lenses.css?inline';
import tourStyles from './tour.css?inline';
import layoutStyles from './layout.css?inline';
import heatmapStyles from '../views/heatmap.css?inline';
import scrollHintStyles from '../views/scroll-hint.css?inline';
import barStyles from '../views/probability-bars.css?inline';
import learnStyles from '../lessons/learn/learn.css?inline';
import languageStyles from '../lessons/learn/language.css?inline';
import trainedStyles from '../lessons/attention/trained.css?inline';
import knockoutStyles from '../lessons/attention/knockout.css?inline';

const SHEETS = [
  styles,
  attentionStyles,
  insideHeadStyles,
  positionsStyles,
  exportStyles,
  lensesStyles,
  tourStyles,
  layoutStyles,
  heatmapStyles,
  scrollHintStyles,
  barStyles,
  learnStyles,
  languageStyles,
  trainedStyles,
  knockoutStyles,
];

let sheet;

export function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(SHEETS.join('\n'));
  }
  return sheet;
}
