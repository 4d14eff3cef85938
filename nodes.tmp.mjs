import { launchBrowser, serveDist } from './tests/e2e/browser.js';
const server = await serveDist();
const browser = await launchBrowser();
const page = await browser.context.newPage();
await page.setViewportSize({ width: 1440, height: 900 });
await page.goto(server.url);
await page.waitForSelector('[data-figure="attention-weights"]');
await new Promise((r) => setTimeout(r, 1500));
const out = await page.evaluate(() => {
  const count = (node) => 1 + [...node.childNodes].reduce((sum, child) => sum + count(child), 0);
  const root = document.querySelector('attention-explorer').shadowRoot;
  const rows = [];
  const walk = (el, depth) => {
    for (const child of el.children) {
      const n = count(child);
      if (n >= 25) rows.push(`${'  '.repeat(depth)}${child.tagName.toLowerCase()}.${[...child.classList].join('.')}${child.dataset.figure ? '[' + child.dataset.figure + ']' : ''}${child.hidden ? ' (hidden)' : ''} ${n}`);
      if (n >= 60 && depth < 7) walk(child, depth + 1);
    }
  };
  walk(root, 0);
  return { total: count(root), rows };
});
console.log(out.total); console.log(out.rows.join('\n'));
await browser.close(); await server.close();
