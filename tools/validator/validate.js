#!/usr/bin/env node
// Validates glTF files with the Khronos glTF-Validator. Prints one line per
// file (errors / warnings / infos) and every error message; exits 1 when any
// file has an error (or cannot be read), 2 on bad usage.
'use strict';
const fs = require('fs');
const path = require('path');
let validator;
try {
  validator = require('gltf-validator');
} catch (e) {
  console.log('gltf-validator is not installed (run scripts/setup or npm ci in tools/validator): skipped');
  process.exit(77);
}

async function validateFile(file) {
  const data = new Uint8Array(fs.readFileSync(file));
  const dir = path.dirname(file);
  const report = await validator.validateBytes(data, {
    uri: path.basename(file),
    maxIssues: 100,
    externalResourceFunction: (uri) =>
      new Promise((resolve, reject) => {
        fs.readFile(path.join(dir, decodeURIComponent(uri)), (err, d) => (err ? reject(err.toString()) : resolve(new Uint8Array(d))));
      }),
  });
  const i = report.issues;
  console.log(`${file}: ${i.numErrors} errors, ${i.numWarnings} warnings, ${i.numInfos} infos`);
  for (const m of i.messages) {
    if (m.severity === 0 || process.env.VERBOSE) console.log(`  [${m.severity}] ${m.code} ${m.pointer || ''}: ${m.message}`);
  }
  return i.numErrors;
}

(async () => {
  // Arguments: files, or directories (every .glb / .gltf inside, sorted).
  const files = [];
  for (const a of process.argv.slice(2)) {
    if (fs.existsSync(a) && fs.statSync(a).isDirectory()) {
      for (const f of fs.readdirSync(a).sort()) if (/\.(glb|gltf)$/.test(f)) files.push(path.join(a, f));
    } else {
      files.push(a);
    }
  }
  if (files.length === 0) {
    console.error('usage: validate.js FILE.glb|FILE.gltf|DIR ...  (no glTF files given)');
    process.exit(2);
  }
  let bad = 0;
  for (const f of files) {
    try {
      if ((await validateFile(f)) > 0) bad++;
    } catch (e) {
      console.log(`${f}: cannot validate: ${e}`);
      bad++;
    }
  }
  process.exit(bad ? 1 : 0);
})();
