#!/usr/bin/env node
// Mozilla Readability (or Defuddle) over many pages in one process, for
// bench/extraction.sh.
//
// usage: node readability_extract.js --out DIR [--list FILE] [--charsets TSV]
//            [--timeout-ms 30000] [--report OUT.json]
//            [--extractor readability|defuddle] [--text content|blocks]
//            [FILE...]
//
// For each page: the file is read as bytes, new JSDOM(buffer, {url:
// 'http://localhost/', contentType}) decodes and parses it, then
// new Readability(document).parse(); article.textContent (empty when parse()
// returns null) goes to DIR/<basename without extension>.txt.
// With --extractor defuddle (bench/extraction_wcxb.py) the same document goes
// to Defuddle(document, 'http://localhost/', {useAsync: false}) from
// 'defuddle/node' instead (useAsync false: no site extractor fetches anything
// from the network), and the textContent of its result.content (HTML, parsed
// into a <template> of the same document) is the output, as Readability's is.
// With --text blocks (bench/extraction_wcxb.py, for both extractors) the
// output is the text of the extractor's HTML (article.content, result.content)
// with a line break at each block element's start and end (p, div, li, h1-h6,
// td, br, ...; see BLOCK_TAGS), as a browser's innerText breaks lines;
// textContent (the default, --text content) glues the words of adjacent
// elements when the HTML has no whitespace between them ("done.At", "Stay" +
// "Protein"), which minified pages often have.
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

const BLOCK_TAGS = new Set([
  'ADDRESS', 'ARTICLE', 'ASIDE', 'BLOCKQUOTE', 'BR', 'CAPTION', 'DD', 'DETAILS',
  'DIALOG', 'DIV', 'DL', 'DT', 'FIELDSET', 'FIGCAPTION', 'FIGURE', 'FOOTER', 'FORM',
  'H1', 'H2', 'H3', 'H4', 'H5', 'H6', 'HEADER', 'HGROUP', 'HR', 'LEGEND', 'LI',
  'MAIN', 'NAV', 'OL', 'OPTION', 'P', 'PRE', 'SECTION', 'SUMMARY', 'TABLE', 'TBODY',
  'TD', 'TFOOT', 'TH', 'THEAD', 'TR', 'UL']);
const SKIP_TAGS = new Set(['SCRIPT', 'STYLE', 'NOSCRIPT', 'TEMPLATE']);

// The text under node with a line break at each block element's start and
// end (an explicit stack: hostile pages nest deeply).
function blockText(node) {
  const parts = [];
  const stack = [[node, false]];
  while (stack.length > 0) {
    const [n, leaving] = stack.pop();
    if (leaving) {
      parts.push('\n');
      continue;
    }
    if (n.nodeType === 3) {  // text
      parts.push(n.data);
      continue;
    }
    if (n.nodeType === 1) {  // element
      if (SKIP_TAGS.has(n.tagName)) continue;
      if (BLOCK_TAGS.has(n.tagName)) {
        parts.push('\n');
        stack.push([n, true]);
      }
    } else if (n.nodeType !== 9 && n.nodeType !== 11) {
      continue;  // comments and the like
    }
    const children = n.childNodes;
    for (let i = children.length - 1; i >= 0; i--) stack.push([children[i], false]);
  }
  return parts.join('').replace(/[ \t]*\n\s*/g, '\n').trim();
}

// The text of an extractor's HTML: its textContent (mode 'content') or
// blockText (mode 'blocks').
function fragmentText(document, html, mode) {
  if (!html) return '';
  const template = document.createElement('template');
  template.innerHTML = html;
  return mode === 'blocks' ? blockText(template.content) : template.content.textContent || '';
}

if (!isMainThread) {
  // Worker: load the modules once, then extract pages on request.
  const { JSDOM, VirtualConsole } = require('jsdom');
  const { Readability } = require('@mozilla/readability');
  let Defuddle = null;  // 'defuddle/node' is an ES module export: import() below
  // jsdom's own copy, so the labels are the ones jsdom knows.
  const whatwgEncoding = require(require.resolve('whatwg-encoding', { paths: [path.dirname(require.resolve('jsdom'))] }));
  const virtualConsole = new VirtualConsole();  // drops jsdom's CSS noise

  parentPort.on('message', async ({ file, charset }) => {
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
        if (workerData.extractor === 'defuddle') {
          const document = dom.window.document;
          const result = await Defuddle(document, options.url, { useAsync: false });
          text = fragmentText(document, result && result.content, workerData.text);
          if (!text.trim()) status = 'null';
        } else {
          const article = new Readability(dom.window.document).parse();
          if (article && article.textContent) {
            text = workerData.text === 'blocks'
              ? fragmentText(dom.window.document, article.content, 'blocks')
              : article.textContent;
          } else {
            status = 'null';
          }
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
  if (workerData.extractor === 'defuddle') {
    import('defuddle/node').then((m) => {
      Defuddle = m.Defuddle;
      parentPort.postMessage({ ready: true });
    });  // a failed import kills the worker: startWorker rejects
  } else {
    parentPort.postMessage({ ready: true });
  }
} else {
  main().catch((e) => {
    console.error('readability_extract: ' + (e && e.stack ? e.stack : e));
    process.exit(1);
  });
}

function parseArgs(argv) {
  const args = { out: null, files: [], charsets: null, timeoutMs: 30000, report: null,
                 extractor: 'readability', text: 'content' };
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
    else if (a === '--extractor') args.extractor = value();
    else if (a === '--text') args.text = value();
    else if (a.startsWith('--')) throw new Error('unknown option ' + a);
    else args.files.push(a);
  }
  if (!args.out) throw new Error('missing --out DIR');
  if (args.extractor !== 'readability' && args.extractor !== 'defuddle') {
    throw new Error('--extractor must be readability or defuddle, not ' + args.extractor);
  }
  if (args.text !== 'content' && args.text !== 'blocks') {
    throw new Error('--text must be content or blocks, not ' + args.text);
  }
  return args;
}

function startWorker(outDir, extractor, text) {
  return new Promise((resolve, reject) => {
    const worker = new Worker(__filename, { workerData: { outDir, extractor, text } });
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

  let worker = await startWorker(args.out, args.extractor, args.text);
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
      worker = await startWorker(args.out, args.extractor, args.text);
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
    extractor: args.extractor,
    text: args.text,
    defuddle: args.extractor === 'defuddle' ? JSON.parse(fs.readFileSync(path.join(
      path.dirname(require.resolve('defuddle')), '..', 'package.json'), 'utf8')).version : null,
    failed_pages: pages.filter((p) => p.status !== 'ok' && p.status !== 'null')
      .map((p) => ({ file: p.file, status: p.status, error: p.error })),
    null_pages: pages.filter((p) => p.status === 'null').map((p) => p.file),
  };
  const json = JSON.stringify(summary, null, 1);
  if (args.report) fs.writeFileSync(args.report, json + '\n');
  else console.log(json);
}
