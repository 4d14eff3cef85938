// Where course authors look: every message the element shows in the page (a bad attribute, a core it could not
// load, a setting the core refuses) also goes to the browser's console once, prefixed "attention-explorer:", and
// the element fires an `error` event, so that a build's console or a page's script sees what went wrong.

/** The attribute a message names when it is about one (readAttributes writes `name="text": why`). */
function attributeOf(message) {
  return /^(?:Attribute )?([a-z][\w-]*)="/.exec(message)?.[1];
}

export class AuthorErrors {
  /** @param {HTMLElement} host  the element: it fires the events */
  constructor(host) {
    this.host = host;
    this.said = new Set(); // messages already said: each once, however often the element shows it again
  }

  /**
   * Says `message` (once per message) on the console and as an `error` event on the element:
   * CustomEvent('error', { detail: { message, attribute } }); attribute: the attribute it is about, if any.
   * @param {string} message  @param {string} [attribute]
   */
  say(message, attribute = attributeOf(message)) {
    if (!message || this.said.has(message)) return;
    this.said.add(message);
    console.error(`attention-explorer: ${message}`);
    this.host.dispatchEvent(new CustomEvent('error', { detail: { message, attribute } }));
  }
}
