// The tracker's tests load the built bundle, as sites do: build it once for the run.
import { buildTracker } from '../../tracker/build.ts';

export default async function setup(): Promise<void> {
  await buildTracker();
}
