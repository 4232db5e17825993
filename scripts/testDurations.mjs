// A node:test reporter that records how long each top-level test took, and in which file, as one JSON array (what
// `npm test` prints the ten slowest of, so the next slow test is seen when it arrives). Used beside the TAP
// reporter: `--test-reporter=./scripts/testDurations.mjs --test-reporter-destination=FILE`.
export default async function* testDurations(source) {
  const tests = [];
  for await (const event of source) {
    if ((event.type !== 'test:pass' && event.type !== 'test:fail') || event.data.nesting !== 0) continue;
    tests.push({ file: event.data.file ?? null, name: event.data.name, ms: Math.round(event.data.details?.duration_ms ?? 0), ok: event.type === 'test:pass' });
  }
  yield `${JSON.stringify(tests)}\n`;
}
