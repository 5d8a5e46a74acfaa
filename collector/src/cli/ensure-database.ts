// `npm run db:build`: builds the embedded database binary when it is missing (install, start and test call it).
import { ensureSecantusBinary } from '../db/secantus-binary.ts';

ensureSecantusBinary();
