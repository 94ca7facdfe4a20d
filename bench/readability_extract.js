#!/usr/bin/env node
// Mozilla Readability over many pages in one process, for bench/extraction.sh.
//
// usage: node readability_extract.js --out DIR [--list FILE] [--charsets TSV]
//            [--timeout-ms 30000] [--report OUT.json] [FILE...]
//
// For each page: the file is read as bytes, new JSDOM(buffer, {url:
// 'http://localhost/', contentType}) decodes and parses it, then
// new Readability(document).parse(); article.textContent (empty when parse()
// returns null) goes to DIR/<basename without extension>.txt.
//
// Charset: with --charsets (lines "<file>\t<charset>\t<source>", as written by
// gumbo_parse_bench from quark's own charset decision) the page is given to
// jsdom as contentType "text/html; charset=<charset>", so Readability sees the
// same text quark does (a BOM still wins, in both). Without it, or for a
// charset jsdom does not know, jsdom sniffs by itself (BOM, <meta> in the
// first 1024 bytes, else windows-1252).
//
// The pages run one at a time in a worker thread so that a page that hangs can
// be stopped: after --timeout-ms the worker is terminated, the page gets an
// empty output and is reported as a timeout, and a fresh worker takes the next
// page. An exception, or a worker that dies, also gives an empty output and is
// reported. Time: the sum over pages of the time from handing the page to the
// worker to its output being written (file read, decode, parse, Readability,
// textContent, file write). Node startup, module loading and worker restarts
// are excluded.
'use strict';

const fs = require('fs');
const path = require('path');
const { Worker, isMainThread, parentPort, workerData } = require('worker_threads');

function baseName(file) {
  const name = path.basename(file);
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

function outPath(outDir, file) {
  return path.join(outDir, baseName(file) + '.txt');
}

if (!isMainThread) {
  // Worker: load the modules once, then extract pages on request.
  const { JSDOM, VirtualConsole } = require('jsdom');
  const { Readability } = require('@mozilla/readability');
  // jsdom's own copy, so the labels are the ones jsdom knows.
  const whatwgEncoding = require(require.resolve('whatwg-encoding', { paths: [path.dirname(require.resolve('jsdom'))] }));
  const virtualConsole = new VirtualConsole();  // drops jsdom's CSS noise

  parentPort.on('message', ({ file, charset }) => {
    const out = outPath(workerData.outDir, file);
    let text = '';
    let error = null;
    let status = 'ok';
    try {
      const bytes = fs.readFileSync(file);
      const options = { url: 'http://localhost/', virtualConsole };
      if (charset && whatwgEncoding.labelToName(charset)) {
        options.contentType = 'text/html; charset=' + charset;
      }
      const dom = new JSDOM(bytes, options);
      try {
        const article = new Readability(dom.window.document).parse();
        if (article && article.textContent) {
          text = article.textContent;
        } else {
          status = 'null';
        }
      } finally {
        dom.window.close();
      }
    } catch (e) {
      status = 'error';
      error = String(e && e.stack ? e.stack.split('\n')[0] : e);
    }
    fs.writeFileSync(out, text);
    parentPort.postMessage({ file, status, error });
  });
  parentPort.postMessage({ ready: true });
} else {
  main().catch((e) => {
    console.error('readability_extract: ' + (e && e.stack ? e.stack : e));
    process.exit(1);
  });
}

function parseArgs(argv) {
  const args = { out: null, files: [], charsets: null, timeoutMs: 30000, report: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) throw new Error(a + ' needs a value');
      return argv[++i];
    };
    if (a === '--out') args.out = value();
    else if (a === '--list') {
      for (const line of fs.readFileSync(value(), 'utf8').split('\n')) {
        if (line.trim()) args.files.push(line.trim());
      }
    } else if (a === '--charsets') args.charsets = value();
    else if (a === '--timeout-ms') args.timeoutMs = Number(value());
    else if (a === '--report') args.report = value();
    else if (a.startsWith('--')) throw new Error('unknown option ' + a);
    else args.files.push(a);
  }
  if (!args.out) throw new Error('missing --out DIR');
  return args;
}

function startWorker(outDir) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(__filename, { workerData: { outDir } });
    const onMessage = (m) => {
      if (m && m.ready) {
        worker.off('message', onMessage);
        worker.off('error', reject);
        resolve(worker);
      }
    };
    worker.on('message', onMessage);
    worker.once('error', reject);
  });
}

// Runs one page on `worker`; resolves {status, error, ms}. status: ok, null
// (Readability found no article), error (exception), timeout, crash (the
// worker died).
function runPage(worker, file, charset, timeoutMs) {
  return new Promise((resolve) => {
    let done = false;
    const start = process.hrtime.bigint();
    const finish = (result) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      result.ms = Number(process.hrtime.bigint() - start) / 1e6;
      resolve(result);
    };
    const onMessage = (m) => finish({ status: m.status, error: m.error });
    const onError = (e) => finish({ status: 'crash', error: String(e) });
    const onExit = (code) => finish({ status: 'crash', error: 'worker exited with code ' + code });
    const timer = setTimeout(
      () => finish({ status: 'timeout', error: 'no result after ' + timeoutMs + ' ms' }),
      timeoutMs);
    worker.on('message', onMessage);
    worker.once('error', onError);
    worker.once('exit', onExit);
    worker.postMessage({ file, charset });
  });
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  fs.mkdirSync(args.out, { recursive: true });
  const charsets = new Map();
  if (args.charsets) {
    for (const line of fs.readFileSync(args.charsets, 'utf8').split('\n')) {
      const [file, charset] = line.split('\t');
      if (file && charset) charsets.set(path.resolve(file), charset);
    }
  }

  let worker = await startWorker(args.out);
  const pages = [];
  let totalMs = 0;
  for (const file of args.files) {
    const charset = charsets.get(path.resolve(file)) || null;
    const result = await runPage(worker, file, charset, args.timeoutMs);
    totalMs += result.ms;
    pages.push({ file, charset, status: result.status, error: result.error, ms: result.ms });
    if (result.status === 'timeout' || result.status === 'crash') {
      // Stop the worker first so that it cannot write the page after us.
      await worker.terminate().catch(() => {});
      fs.writeFileSync(outPath(args.out, file), '');
      console.error(`readability_extract: ${file}: ${result.status}: ${result.error}`);
      worker = await startWorker(args.out);
    } else if (result.status === 'error') {
      console.error(`readability_extract: ${file}: ${result.error}`);
    }
  }
  await worker.terminate();

  const count = (s) => pages.filter((p) => p.status === s).length;
  const summary = {
    pages: pages.length,
    seconds: totalMs / 1000,
    pages_per_s: pages.length / (totalMs / 1000),
    ok: count('ok'),
    null_article: count('null'),
    errors: count('error'),
    timeouts: count('timeout'),
    crashes: count('crash'),
    charset_given: pages.filter((p) => p.charset).length,
    timeout_ms: args.timeoutMs,
    node: process.version,
    jsdom: require('jsdom/package.json').version,
    readability: require('@mozilla/readability/package.json').version,
    failed_pages: pages.filter((p) => p.status !== 'ok' && p.status !== 'null')
      .map((p) => ({ file: p.file, status: p.status, error: p.error })),
    null_pages: pages.filter((p) => p.status === 'null').map((p) => p.file),
  };
  const json = JSON.stringify(summary, null, 1);
  if (args.report) fs.writeFileSync(args.report, json + '\n');
  else console.log(json);
}
