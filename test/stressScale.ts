// Stress tests run at two scales: in `npm test` at one that still proves their property in a fraction of the time,
// and at full scale in `npm run test:stress` (OMNI_STRESS=1), run before a release. scripts/test.mjs finds the stress
// files by their call to stressScale.

/** True when the stress tests run at full scale. */
export const fullStress = process.env.OMNI_STRESS === '1';

/** `full` under `npm run test:stress`, `quick` in `npm test`. */
export function stressScale(full: number, quick: number): number {
  return fullStress ? full : quick;
}
