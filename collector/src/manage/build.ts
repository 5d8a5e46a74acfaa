// Builds the back end's pages: ui/main.tsx and the styles it imports into dist/manage/app.js and
// app.css, minified, with Preact and uPlot bundled in (served by the collector: no CDN).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { MANAGE_ASSETS_DIR } from './assets-path.ts';

const here = path.dirname(fileURLToPath(import.meta.url));

export async function buildManage(): Promise<{ jsBytes: number; cssBytes: number }> {
  const result = await build({
    entryPoints: { app: path.join(here, 'ui', 'main.tsx') },
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2020',
    jsx: 'automatic',
    jsxImportSource: 'preact',
    outdir: MANAGE_ASSETS_DIR,
    legalComments: 'none',
    metafile: true,
    logLevel: 'warning',
  });
  const bytes = (ext: string) => Object.entries(result.metafile.outputs).find(([file]) => file.endsWith(ext))?.[1].bytes ?? 0;
  return { jsBytes: bytes('.js'), cssBytes: bytes('.css') };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const size = await buildManage();
  console.log(`collector/dist/manage: app.js ${size.jsBytes} bytes, app.css ${size.cssBytes} bytes`);
}
