#!/usr/bin/env node
// Builds the native addon (release) and the TypeScript. `--if-missing` is what `npm install` runs:
// it leaves a present addon alone, so installing over a prebuilt binary does not need Rust.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const ifMissing = process.argv.includes('--if-missing');
const addon = path.join(root, 'src', 'native', 'quarry.linux-x64-gnu.node');

function run(cmd, args) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', shell: false });
  if (r.status !== 0) {
    process.exit(r.status ?? 1);
  }
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
if (!(ifMissing && fs.existsSync(addon))) {
  run(npx, ['--no-install', 'napi', 'build', '--platform', '--release',
    '--manifest-path', 'crates/node/Cargo.toml', '--package', 'quarry-node',
    '--output-dir', 'src/native', '--js', 'index.js', '--dts', 'index.d.ts']);
}
run(npx, ['--no-install', 'tsc', '-p', 'tsconfig.json']);
