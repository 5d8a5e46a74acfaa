// Where the back end's bundle is built (manage/build.ts) and served from (manage/pages.ts).
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const MANAGE_ASSETS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..', 'dist', 'manage');
