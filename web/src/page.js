// The demo page. For iframes, the query string sets the explorer's attributes
// (index.html?views=attention&controls=sentence&chrome=none#sentence=…): `chrome=none` drops the page's
// header and footer; any attribute the element takes (see attributes.js) passes through.
import { OBSERVED_ATTRIBUTES } from './explorer/attributes.js';
import './explorer/attention-explorer.js';

const params = new URLSearchParams(location.search);
const explorer = document.querySelector('attention-explorer');
for (const [name, value] of params) {
  if (OBSERVED_ATTRIBUTES.includes(name) && !['assets-base', 'models-base'].includes(name))
    explorer.setAttribute(name, value);
}
if (params.get('chrome') === 'none') for (const el of document.querySelectorAll('header, footer')) el.hidden = true;
