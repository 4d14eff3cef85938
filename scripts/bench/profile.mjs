// npm run bench (profile part): runs build/wasm/attn_layer_profile (scripts/bench/layer_profile.cpp)
// in headless Chromium, prints its lines and writes them to bench-output/profile.txt.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { launchBrowser } from '../../tests/e2e/browser.js';

const browser = await launchBrowser();
try {
  const page = await browser.context.newPage();
  const lines = [];
  let finish;
  const finished = new Promise((resolve, reject) => {
    finish = resolve;
    page.on('pageerror', (error) => reject(error));
  });
  page.on('console', (message) => {
    lines.push(message.text());
    console.log(message.text());
    if (message.text() === 'profile done') finish();
  });
  await page.setContent('<!doctype html><title>profile</title>');
  const wasm = readFileSync('build/wasm/attn_layer_profile.wasm').toString('base64');
  await page.evaluate((bytes) => {
    window.Module = { wasmBinary: Uint8Array.from(atob(bytes), (c) => c.charCodeAt(0)) };
  }, wasm);
  await page.addScriptTag({ content: readFileSync('build/wasm/attn_layer_profile.js', 'utf8') });
  await finished;
  mkdirSync('bench-output', { recursive: true });
  writeFileSync('bench-output/profile.txt', `${lines.join('\n')}\n`);
} finally {
  await browser.close();
}
