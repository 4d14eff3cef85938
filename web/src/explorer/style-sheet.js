// The explorer's CSS (its own and the heatmaps') as one constructable stylesheet, built once and adopted
// by every explorer's shadow root: no CSS leaks in or out, and ten explorers on a page parse it once.
import styles from './explorer.css?inline';
import heatmapStyles from '../views/heatmap.css?inline';
import scrollHintStyles from '../views/scroll-hint.css?inline';
import barStyles from '../views/probability-bars.css?inline';
import learnStyles from '../lessons/learn/learn.css?inline';
import trainedStyles from '../lessons/attention/trained.css?inline';

let sheet;

export function styleSheet() {
  if (!sheet) {
    sheet = new CSSStyleSheet();
    sheet.replaceSync(
      `${styles}\n${heatmapStyles}\n${scrollHintStyles}\n${barStyles}\n${learnStyles}\n${trainedStyles}`,
    );
  }
  return sheet;
}
