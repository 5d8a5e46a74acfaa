// Builds tracker/dist/tracker.js: one minified IIFE. Size is a feature: the build fails above
// MAX_GZIP_BYTES and warns above the BUDGET_GZIP_BYTES that sites are promised. And the form
// capture, tracker/dist/tracker-forms.js, which only domains with form tracking load.
// esbuild bundles and minifies; terser then squeezes out what esbuild leaves (about 3% gzipped).
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { minify } from 'terser';
import { adsBundlePath, formsBundlePath, trackerBundlePath } from './bundle-path.ts';

/** Correct numbers outside France matter more to a visitor than 200 bytes, which arrive in the same
 * round trip (issue 39): 2,800, from 2,600. A visit nobody else can continue (issue 79: its key, in
 * the answer and a cookie) fits in it. */
export const BUDGET_GZIP_BYTES = 2800;
export const MAX_GZIP_BYTES = 3000;

const here = path.dirname(fileURLToPath(import.meta.url));

export interface BundleSize {
  bytes: number;
  gzipBytes: number;
}

/** One entry point as one minified IIFE at `out`; its size. */
async function bundle(entry: string, out: string): Promise<BundleSize> {
  const bundled = await build({
    entryPoints: [path.join(here, 'src', entry)],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    legalComments: 'none',
    // The repository's tsconfig is strict, which would make esbuild open the bundle with
    // "use strict": bytes that change nothing for this code.
    tsconfigRaw: { compilerOptions: { alwaysStrict: false, verbatimModuleSyntax: true } },
    write: false,
    logLevel: 'warning',
  });
  // unsafe_arrows and unsafe_methods only rewrite functions that use neither `this` nor `arguments`
  // as arrows, and object methods as shorthand (js-cookie's `get` keeps its `arguments`): 25 bytes.
  const squeezed = await minify(bundled.outputFiles[0]!.text, { ecma: 2020, compress: { passes: 2, unsafe: true, unsafe_arrows: true, unsafe_methods: true }, mangle: true });
  const code = squeezed.code!;
  mkdirSync(path.dirname(out), { recursive: true });
  writeFileSync(out, code);
  return { bytes: Buffer.byteLength(code), gzipBytes: gzipSync(code, { level: 9 }).length };
}

export async function buildTracker(): Promise<BundleSize> {
  const size = await bundle('main.ts', trackerBundlePath);
  if (size.gzipBytes > MAX_GZIP_BYTES) {
    throw new Error(`tracker.js is ${size.gzipBytes} bytes gzipped: above the ${MAX_GZIP_BYTES} bytes the build allows`);
  }
  return size;
}

/** The form capture, loaded only where form tracking is on. */
export const buildForms = () => bundle('forms.ts', formsBundlePath);

/** The ads consent, loaded only where an ad platform is connected. */
export const buildAdsConsent = () => bundle('ads-consent.ts', adsBundlePath);

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const size = await buildTracker();
  const over = size.gzipBytes > BUDGET_GZIP_BYTES ? ` (over the ${BUDGET_GZIP_BYTES} byte budget)` : '';
  console.log(`tracker/dist/tracker.js: ${size.bytes} bytes, ${size.gzipBytes} bytes gzipped${over}`);
  const forms = await buildForms();
  console.log(`tracker/dist/tracker-forms.js: ${forms.bytes} bytes, ${forms.gzipBytes} bytes gzipped (loaded only where form tracking is on)`);
  const ads = await buildAdsConsent();
  console.log(`tracker/dist/tracker-ads.js: ${ads.bytes} bytes, ${ads.gzipBytes} bytes gzipped (loaded only where an ad platform is connected)`);
}
