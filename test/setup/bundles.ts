// The tracker's and the back end's tests load the built bundles, as browsers do: build them once for the run.
import { buildManage } from '../../collector/src/manage/build.ts';
import { buildTracker } from '../../tracker/build.ts';

export default async function setup(): Promise<void> {
  await Promise.all([buildTracker(), buildManage()]);
}
