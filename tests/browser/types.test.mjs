// The page scripts type-check: every module under static/js is `// @ts-check` with JSDoc
// types, and `tsc --noEmit` (TypeScript, a dev dependency here) must pass, so a change
// that breaks a type fails the browser test run (and so `cargo test`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const STATIC_JS = path.join(HERE, '..', '..', 'static', 'js');

/** @param {string} dir */
function jsFiles(dir) {
  return readdirSync(dir).flatMap((n) => {
    const f = path.join(dir, n);
    return statSync(f).isDirectory() ? jsFiles(f) : n.endsWith('.js') ? [f] : [];
  });
}

test('every page module asks to be type-checked and stays under 500 lines', () => {
  const files = jsFiles(STATIC_JS);
  assert.ok(files.length >= 10, `modules found: ${files.length}`);
  for (const f of files) {
    const text = readFileSync(f, 'utf8');
    assert.match(text, /^\/\/ @ts-check/, `${path.relative(STATIC_JS, f)} starts with // @ts-check`);
    const lines = text.split('\n').length;
    assert.ok(lines <= 520, `${path.relative(STATIC_JS, f)} has ${lines} lines`);
  }
});

test('tsc --noEmit passes over static/js', () => {
  if (!existsSync(path.join(HERE, 'node_modules', 'typescript'))) {
    // An older checkout installed only playwright: bring the dev dependencies in line.
    const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: HERE, encoding: 'utf8' });
    assert.equal(ci.status, 0, `npm ci: ${ci.stderr}`);
  }
  const tsc = path.join(HERE, 'node_modules', 'typescript', 'bin', 'tsc');
  const out = spawnSync(process.execPath, [tsc, '--noEmit', '-p', path.join(HERE, 'tsconfig.json')], { cwd: HERE, encoding: 'utf8' });
  assert.equal(out.status, 0, `tsc found type errors:\n${out.stdout}${out.stderr}`);
});
