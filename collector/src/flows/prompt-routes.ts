// The recorded prompts as carriers fetch them: `GET /telephony/flow-audio/{id}` (ours), the file
// whole with its type, no key (Twilio's <Play> sends none; a prompt is what every caller hears).
import Router from '@koa/router';
import type { PromptAudio } from './prompt-audio.ts';

export function promptRoutes(prompts: PromptAudio): Router {
  const router = new Router();
  router.get('/telephony/flow-audio/:id', async (ctx) => {
    const file = await prompts.fileOf(null, ctx.params.id!);
    if (!file) {
      ctx.status = 404;
      ctx.body = { status: 'ERROR', error: 'No such audio file' };
      return;
    }
    ctx.type = file.contentType;
    ctx.length = file.size;
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = prompts.read(file.fileId);
  });
  return router;
}
