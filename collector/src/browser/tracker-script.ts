// GET /tracker.js: the built tracker, gzipped when the browser takes it, revalidated by ETag; and
// GET /tracker-forms.js, the form capture it loads where a domain's form tracking is on; and
// GET /tracker-ads.js, the ads consent it loads where an ad platform is connected.
// A short max-age because the URL carries no version: a new build reaches sites within minutes,
// and in between a revalidation costs a 304.
import { createHash } from 'node:crypto';
import { readFile, stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import Router from '@koa/router';

const TRACKER_MAX_AGE_SECONDS = 300;

interface Bundle {
  mtimeMs: number;
  code: Buffer;
  gzipped: Buffer;
  etag: string;
}

export function trackerScriptRoutes(bundlePath: string, formsPath: string, adsPath: string): Router {
  const router = new Router();
  serveScript(router, '/tracker.js', bundlePath);
  serveScript(router, '/tracker-forms.js', formsPath);
  serveScript(router, '/tracker-ads.js', adsPath);
  return router;
}

function serveScript(router: Router, route: string, bundlePath: string): void {
  let cached: Bundle | undefined;

  /** The bundle on disk, read again only when a build changed it. */
  async function load(): Promise<Bundle | undefined> {
    const mtimeMs = (await stat(bundlePath).catch(() => undefined))?.mtimeMs;
    if (mtimeMs === undefined) return undefined;
    if (cached?.mtimeMs !== mtimeMs) {
      const code = await readFile(bundlePath);
      cached = { mtimeMs, code, gzipped: gzipSync(code, { level: 9 }), etag: createHash('sha256').update(code).digest('base64url').slice(0, 22) };
    }
    return cached;
  }

  router.get(route, async (ctx) => {
    const bundle = await load();
    if (!bundle) {
      ctx.status = 503;
      ctx.body = `${route.slice(1)} is not built: run \`npm run build\``;
      return;
    }
    ctx.status = 200;
    ctx.type = 'application/javascript; charset=utf-8';
    ctx.etag = bundle.etag;
    ctx.set('Cache-Control', `public, max-age=${TRACKER_MAX_AGE_SECONDS}`);
    ctx.set('Cross-Origin-Resource-Policy', 'cross-origin'); // sites with COEP may load it
    ctx.vary('Accept-Encoding');
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    const gzip = ctx.acceptsEncodings('gzip', 'identity') === 'gzip';
    if (gzip) ctx.set('Content-Encoding', 'gzip');
    ctx.body = gzip ? bundle.gzipped : bundle.code;
  });
}
