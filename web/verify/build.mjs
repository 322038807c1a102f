// build.mjs bundles src/index.js and its npm packages (@noble/hashes,
// @noble/curves) with esbuild into one minified ES module (its export
// names kept), dist/cairn-verify.js, which is committed and embedded in
// the service (nothing is loaded from elsewhere at run time). `node build.mjs --out DIR` writes the bundle to
// DIR instead, for the test that the committed one is a fresh build.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const i = process.argv.indexOf('--out');
const outdir = i > 0 ? path.resolve(process.argv[i + 1]) : path.join(here, 'dist');

await esbuild.build({
  absWorkingDir: here,
  entryPoints: ['src/index.js'],
  outfile: path.join(outdir, 'cairn-verify.js'),
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2020',
  legalComments: 'inline',
  charset: 'utf8',
  minify: true,
  logLevel: 'warning',
});
