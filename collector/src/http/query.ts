// Query strings with bracket fields (`timetable[mon]=09:00-12:00`), parsed as koa-body parses forms.
import qs from 'qs';
import type { Context } from 'koa';

export function queryOf(ctx: Context): Record<string, unknown> {
  return qs.parse(ctx.querystring, { depth: 2, arrayLimit: 50, parameterLimit: 200 });
}
