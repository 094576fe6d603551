#!/usr/bin/env node
// Builds the native addon (release) and the TypeScript. `--if-missing` is what `npm install` runs:
// it leaves a present addon alone, so installing over a prebuilt binary does not need Rust.
//
// The addon is built with cargo directly and copied next to the loader napi-rs generated
// (src/native/index.js looks for ./quarry.<platform>.node). @napi-rs/cli is not a dependency:
// its native helpers for other platforms are not all on the registry, which breaks `npm ci`.
'use strict';
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const args = process.argv.slice(2);
const ifMissing = args.includes('--if-missing');
const nativeOnly = args.includes('--native-only');
const addon = path.join(root, 'src', 'native', 'quarry.linux-x64-gnu.node');

function run(cmd, cmdArgs) {
  const r = spawnSync(cmd, cmdArgs, { cwd: root, stdio: 'inherit', shell: false });
  if (r.status !== 0) {
    process.exit(r.status ?? 1);
  }
}

if (!(ifMissing && fs.existsSync(addon))) {
  run('cargo', ['build', '--release', '-p', 'quarry-node']);
  const targetDir = process.env.CARGO_TARGET_DIR ?? path.join(root, 'target');
  // Copy then rename: overwriting the file in place would change the code under any running
  // node that has the addon mapped (a test server, a benchmark) and crash it.
  const staged = `${addon}.${process.pid}.tmp`;
  fs.copyFileSync(path.join(targetDir, 'release', 'libquarry_node.so'), staged);
  fs.renameSync(staged, addon);
}
if (!nativeOnly) {
  const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  run(process.execPath, [tsc, '-p', 'tsconfig.json']);
}
