// npm run bench (browser part): serves the benchmark page with Vite on 127.0.0.1, runs it in
// headless Chromium, prints its table and writes bench-output/bench-chromium.json.
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'vite';
import { launchBrowser } from '../../tests/e2e/browser.js';

const server = await createServer({
  root: 'scripts/bench',
  logLevel: 'warn',
  server: { host: '127.0.0.1', port: 5180, strictPort: false },
  optimizeDeps: { exclude: ['onnxruntime-web'] },
});
await server.listen();
const browser = await launchBrowser();
try {
  const page = await browser.context.newPage();
  page.on('console', (message) => console.log(message.text()));
  const sizes = process.argv[2] ? `?sizes=${encodeURIComponent(process.argv[2])}${process.argv[3] ?? ''}` : '';
  await page.goto(`${server.resolvedUrls.local[0]}${sizes}`);
  await page.waitForFunction(() => window.benchResult, null, { timeout: 30 * 60 * 1000, polling: 1000 });
  const result = await page.evaluate(() => window.benchResult);
  if (result.error) throw new Error(result.error);
  mkdirSync('bench-output', { recursive: true });
  writeFileSync('bench-output/bench-chromium.json', JSON.stringify(result, null, 2));
} finally {
  await browser.close();
  await server.close();
}
