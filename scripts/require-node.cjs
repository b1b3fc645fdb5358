'use strict';
/**
 * The one check of the runtime (docs/operations.md "Node.js"): every entry point a person may start by
 * hand loads this file first — `require` order in the TypeScript entry points (tsx runs them as CommonJS),
 * the first `import` in scripts/*.mjs — so a process started on another Node.js stops at once with one
 * line, before anything that fails on it is loaded. The range is package.json's `engines.node` (the one
 * source; the `node` dependency there brings that runtime into node_modules/.bin/node).
 *
 * Written for any old Node.js: CommonJS, no syntax newer than ES2017.
 */
const fs = require('fs');
const path = require('path');

const range = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')).engines.node;
const atLeast = />=\s*(\d+)/.exec(range);
const below = /<\s*(\d+)/.exec(range);
const min = atLeast ? Number(atLeast[1]) : 0;
const max = below ? Number(below[1]) : Infinity;
const major = Number(process.versions.node.split('.')[0]);

if (major < min || major >= max) {
  process.stderr.write(
    `本项目需要 Node.js ${min}（package.json engines.node：${range}），当前是 ${process.version}（${process.execPath}）：` +
      `请先运行 npm ci（它装好项目自带的 Node.js ${min}），再用 npm start 启动，或用 node_modules/.bin/node 运行。\n`,
  );
  process.exit(1);
}

module.exports = { range, min, max };
