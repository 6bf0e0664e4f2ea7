// speedscope.mjs: opens profiles in the real speedscope, in headless
// Chromium, and returns what it made of them.
//
// Copyright 2026 The Tachyon Viewer authors
// SPDX-License-Identifier: GPL-3.0-or-later
//
// speedscope (the npm package, pinned in package-lock.json) is served from
// a server on 127.0.0.1 together with the file, and opened at
// `#profileURL=`, the way its own site opens a profile by URL; Debian's
// Chromium runs it, driven by playwright-core (which never downloads a
// browser of its own).  What speedscope parsed is read back through its own
// "Export" (Ctrl+S): the speedscope JSON it writes is its model of every
// profile it imported, whatever the input format, the same model its Time
// Order, Left Heavy and Sandwich views draw.  From that come, per profile,
// its name, unit, total weight, each frame's self and total weight, and
// optionally the stacks in time order.  What the page shows besides (the
// title, the profile selector's names, each view's canvas drawing without
// an error) is read from the page itself.
//
// As a module:
//
//   import { withSpeedscope } from './speedscope.mjs';
//   await withSpeedscope(async (client) => {
//     const result = await client.load('/tmp/out.speedscope.json', { timeline: true });
//   });
//
// From the command line: `node speedscope.mjs [--timeline] [--screenshots DIR]
// FILE…` prints one JSON object a line per FILE (see load() for its keys);
// tests/clients/speedscope.py calls it so.

import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

// The flags of shared/PLATFORM.md for a headless Chromium on these machines.
const CHROMIUM_FLAGS = [
  '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
  '--disable-extensions', '--disable-default-apps', '--no-default-browser-check',
  '--mute-audio', '--hide-scrollbars', '--font-render-hinting=none',
];

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

function fail(message) {
  throw new Error(`speedscope harness: ${message}`);
}

// The built app of the installed package: dist/release/index.html.
export function speedscopeDir() {
  let pkg;
  try {
    pkg = require.resolve('speedscope/package.json', { paths: [here] });
  } catch {
    fail(`the npm package speedscope is not installed in ${here}: run ` +
         '`sudo bash build-aux/install-deps.sh` (it runs `npm ci` there)');
  }
  const dir = path.join(path.dirname(pkg), 'dist', 'release');
  if (!fs.existsSync(path.join(dir, 'index.html')))
    fail(`${dir}/index.html is missing: the speedscope package is not the built app`);
  return dir;
}

export function speedscopeVersion() {
  const pkg = path.join(speedscopeDir(), '..', '..', 'package.json');
  return JSON.parse(fs.readFileSync(pkg, 'utf8')).version;
}

function findChromium() {
  for (const exe of [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (exe && fs.existsSync(exe))
      return exe;
  }
  fail('no Chromium: install the Debian package chromium (build-aux/install-deps.sh does)');
}

// Serves speedscope's files at / and the profiles at /profile/N/NAME.
function startServer(appDir) {
  const profiles = new Map();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let file = null;
    const m = /^\/profile\/(\d+)\//.exec(url.pathname);
    if (m)
      file = profiles.get(m[1]) ?? null;
    else {
      const rel = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
      const resolved = path.resolve(appDir, '.' + rel);
      if (resolved.startsWith(appDir + path.sep))
        file = resolved;
    }
    if (file === null || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404);
      res.end();
      return;
    }
    res.writeHead(200, {
      'Content-Type': m ? 'application/octet-stream' : (TYPES[path.extname(file)] ?? 'application/octet-stream'),
      'Content-Length': fs.statSync(file).size,
      'Cache-Control': 'no-store',
    });
    fs.createReadStream(file).pipe(res);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      let next = 0;
      resolve({
        origin: `http://127.0.0.1:${server.address().port}`,
        add(file) {
          const id = String(next++);
          profiles.set(id, path.resolve(file));
          return id;
        },
        close: () => new Promise((done) => server.close(done)),
      });
    });
  });
}

// Per frame of FRAMES, the weight of the time it is on top of the stack
// (self) and anywhere on it (total, a recursive frame counted once), from
// an evented profile of speedscope's export; and, if TIMELINE, the stacks
// (frame indices, root first) with their weights, in time order, those
// that follow each other with the same stack merged.
function weigh(profile, nFrames, timeline) {
  const self = new Float64Array(nFrames);
  const total = new Float64Array(nFrames);
  const onStack = new Int32Array(nFrames);
  const stack = [];
  const order = [];
  let last = profile.startValue;

  for (const ev of profile.events) {
    const dt = ev.at - last;
    if (dt > 0 && stack.length > 0) {
      self[stack[stack.length - 1]] += dt;
      for (let f = 0; f < nFrames; f++) {
        if (onStack[f] > 0)
          total[f] += dt;
      }
      if (timeline) {
        const prev = order[order.length - 1];
        if (prev && prev[0].length === stack.length && prev[0].every((f, i) => f === stack[i]))
          prev[1] += dt;
        else
          order.push([stack.slice(), dt]);
      }
    }
    last = ev.at;
    if (ev.type === 'O') {
      stack.push(ev.frame);
      onStack[ev.frame]++;
    } else {
      if (stack[stack.length - 1] !== ev.frame)
        fail(`profile “${profile.name}”: a close event for frame ${ev.frame} that is not on top`);
      stack.pop();
      onStack[ev.frame]--;
    }
  }
  return { self, total, order };
}

// The frames that are on a stack somewhere, with their weights.
function summarize(exported, timeline) {
  const frames = exported.shared.frames;
  return exported.profiles.map((profile) => {
    if (profile.type !== 'evented')
      fail(`speedscope exported a ${profile.type} profile; expected evented`);
    const { self, total, order } = weigh(profile, frames.length, timeline);
    const used = [];
    const usedIndex = new Int32Array(frames.length).fill(-1);
    for (let f = 0; f < frames.length; f++) {
      if (total[f] > 0) {
        usedIndex[f] = used.length;
        used.push({ ...frames[f], self: self[f], total: total[f] });
      }
    }
    const out = {
      name: profile.name,
      unit: profile.unit,
      startValue: profile.startValue,
      endValue: profile.endValue,
      totalWeight: profile.endValue - profile.startValue,
      frames: used,
    };
    if (timeline)
      out.timeline = order.map(([s, w]) => [s.map((f) => usedIndex[f]), w]);
    return out;
  });
}

async function waitForImport(page, state, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (state.pageErrors.length > 0 || state.failed)
      return;
    // The toolbar's title and the flame chart's canvas appear once a
    // profile is in; the error text when the import failed.
    const status = await page.evaluate(() => {
      const text = document.body ? document.body.innerText : '';
      if (/Something went wrong|Unrecognized format|Failed to/i.test(text))
        return 'error';
      return document.querySelector('canvas') !== null && !/Loading|Drag and drop/i.test(text)
        ? 'loaded' : 'waiting';
    });
    if (status === 'error') {
      state.failed = true;
      return;
    }
    if (status === 'loaded')
      return;
    await page.waitForTimeout(50);
  }
  fail(`the import did not finish in ${timeoutMs} ms`);
}

// The names the profile selector lists, and what its button says.
async function readSelector(page) {
  return page.evaluate(() => {
    const toolbar = document.querySelector('div[class*="toolbar"]') ?? document.body;
    return { toolbar: toolbar.innerText.replace(/\s+/g, ' ').trim() };
  });
}

export async function withSpeedscope(fn, options = {}) {
  const { chromium } = require('playwright-core');
  const appDir = speedscopeDir();
  const server = await startServer(appDir);
  const browser = await chromium.launch({
    executablePath: findChromium(),
    headless: true,
    args: CHROMIUM_FLAGS,
    timeout: options.launchTimeoutMs ?? 60000,
  });
  const downloads = fs.mkdtempSync(path.join(os.tmpdir(), 'tv-speedscope-'));

  // Opens FILE in a fresh page and returns:
  //   file        its base name
  //   version     speedscope's version
  //   importer    what speedscope's console said it imported it as
  //               ("Importing as speedscope json file"), or null
  //   error       null, or why the import failed (an exception in the
  //               page, the error speedscope showed)
  //   title       the page's title
  //   toolbar     the toolbar's text: the profile's name and "(i/n)"
  //   selector    the profile selector's entries, in its order
  //   views       per view ("time-order", "left-heavy", "sandwich"): the
  //               exceptions it raised when shown (an empty list: none)
  //   name        the profile group's name
  //   activeProfileIndex
  //   profiles    per profile: name, unit, startValue, endValue,
  //               totalWeight, frames (name, file, line, col, self,
  //               total: weights), and with TIMELINE, timeline: the
  //               stacks as indices into frames, root first, with their
  //               weights, in time order
  async function load(file, loadOptions = {}) {
    const state = { console: [], pageErrors: [], failed: false };
    const context = await browser.newContext({ acceptDownloads: true, viewport: { width: 1200, height: 800 } });
    const page = await context.newPage();
    page.on('console', (msg) => state.console.push(msg.text()));
    page.on('pageerror', (err) => state.pageErrors.push(String(err && err.message || err)));
    page.on('dialog', (dialog) => {
      state.pageErrors.push(`dialog: ${dialog.message()}`);
      dialog.dismiss().catch(() => {});
    });
    try {
      const id = server.add(file);
      const name = loadOptions.name ?? path.basename(file);
      const profileURL = `${server.origin}/profile/${id}/${encodeURIComponent(name)}`;
      await page.goto(`${server.origin}/#profileURL=${encodeURIComponent(profileURL)}`);
      await waitForImport(page, state, loadOptions.timeoutMs ?? 120000);

      // Its console says what it imported the file as; the message may
      // come a little after the page shows the profile.
      const importer = () => state.console.find((line) => line.startsWith('Importing as')) ?? null;
      for (let waited = 0; importer() === null && waited < 5000; waited += 50)
        await page.waitForTimeout(50);
      const result = {
        file: path.basename(file),
        version: speedscopeVersion(),
        importer: importer(),
        error: null,
      };
      if (state.pageErrors.length > 0 || state.failed) {
        const shown = await page.evaluate(() => document.body.innerText.trim());
        result.error = state.pageErrors.concat(state.failed ? [shown] : []).join('\n');
        result.console = state.console;
        return result;
      }

      result.title = await page.title();
      Object.assign(result, await readSelector(page));

      // Each view, shown in turn; a screenshot of each on request.
      result.views = {};
      for (const [key, view] of [['1', 'time-order'], ['2', 'left-heavy'], ['3', 'sandwich']]) {
        const before = state.pageErrors.length;
        await page.keyboard.press(key);
        await page.waitForTimeout(150);
        result.views[view] = state.pageErrors.slice(before);
        if (loadOptions.screenshots)
          await page.screenshot({ path: path.join(loadOptions.screenshots, `${result.file}.${view}.png`) });
      }
      await page.keyboard.press('1');

      // speedscope's own export of what it holds.
      const [download] = await Promise.all([
        page.waitForEvent('download', { timeout: 60000 }),
        page.keyboard.press('Control+s'),
      ]);
      const saved = path.join(downloads, `${id}.json`);
      await download.saveAs(saved);
      const exported = JSON.parse(fs.readFileSync(saved, 'utf8'));
      fs.unlinkSync(saved);
      result.name = exported.name;
      result.activeProfileIndex = exported.activeProfileIndex ?? 0;
      result.profiles = summarize(exported, Boolean(loadOptions.timeline));
      return result;
    } finally {
      await context.close();
    }
  }

  try {
    return await fn({ load });
  } finally {
    await browser.close();
    await server.close();
    fs.rmSync(downloads, { recursive: true, force: true });
  }
}

// One file, one browser.
export async function loadInSpeedscope(file, options = {}) {
  return withSpeedscope((client) => client.load(file, options), options);
}

async function main(argv) {
  const options = {};
  const files = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--timeline')
      options.timeline = true;
    else if (argv[i] === '--screenshots')
      options.screenshots = argv[++i];
    else
      files.push(argv[i]);
  }
  if (files.length === 0) {
    process.stderr.write('usage: node speedscope.mjs [--timeline] [--screenshots DIR] FILE…\n');
    process.exit(2);
  }
  await withSpeedscope(async (client) => {
    for (const file of files)
      process.stdout.write(JSON.stringify(await client.load(file, options)) + '\n');
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`${err.stack || err}\n`);
    process.exit(1);
  });
}
