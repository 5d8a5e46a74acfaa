// `/`: a small page for whoever opens the collector's address in a browser, linking what there is
// to see: the back end, the API reference, the demo site (when on) and the liveness probe.
import Router from '@koa/router';

export function homeRoutes({ demoPages }: { demoPages: boolean }): Router {
  const links: [string, string, string][] = [
    ['/manage/', 'Back end', 'sign in, set up a site, see its calls'],
    ['/docs', 'API reference', 'every door of the collector, with examples'],
    ...(demoPages ? ([['/demo/', 'Demo site', 'a page whose phone numbers the tracker swaps']] as [string, string, string][]) : []),
    ['/healthz', 'Health', 'answers {"status":"ok"} while the collector runs'],
  ];
  const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>RingTrail</title>
<style>body{font:16px/1.5 system-ui,sans-serif;color:#1d2430;max-width:40rem;margin:3rem auto;padding:0 1rem}h1{font-size:1.6rem}li{margin:.6rem 0}a{color:#1f6feb;font-weight:600}span{color:#697386}</style></head>
<body><h1>☎ RingTrail</h1><p>Open call tracking: this is the collector.</p><ul>
${links.map(([href, name, what]) => `<li><a href="${href}">${name}</a> <span>${what}</span></li>`).join('\n')}
</ul></body></html>
`;
  const router = new Router();
  router.get('/', (ctx) => {
    ctx.type = 'html';
    ctx.set('Cache-Control', 'no-cache');
    ctx.body = page;
  });
  return router;
}
