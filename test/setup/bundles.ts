// The tracker's and the back end's tests load the built bundles, as browsers do: build them once for
// the run, the tracker's extra scripts too (a test of the ads consent or the form capture otherwise
// ran the bundle of an earlier build).
import { buildManage } from '../../collector/src/manage/build.ts';
import { buildAdsConsent, buildForms, buildTracker } from '../../tracker/build.ts';

export default async function setup(): Promise<void> {
  await Promise.all([buildTracker(), buildForms(), buildAdsConsent(), buildManage()]);
}
