/**
 * Jest global setup: one line, before the tests, naming the shared reference material that is
 * absent (the tests that need it are skipped, each block with one skipped test saying so).
 */
import { SHARED_MATERIALS } from './shared';

export default function globalSetup(): void {
  const missing = Object.values(SHARED_MATERIALS).filter(m => !m.present);
  if (missing.length === 0) return;
  process.stdout.write(`\ncdk8s-dynamo tests: skipping the tests that need ${missing.map(m => m.what).join(', ')}; `
    + `to run them, place the shared folder beside the project or set ${missing.map(m => m.envVar).join(', ')}\n`);
}
