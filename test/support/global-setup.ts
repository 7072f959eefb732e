/**
 * Jest global setup: the generated validate functions and CEL parses brought up to date (a jest run
 * without a compile uses them too: scripts/generate-validators.ts, scripts/generate-cel-parses.ts),
 * and one line, before the tests, naming the shared reference material that is absent (the tests
 * that need it are skipped, each block with one skipped test saying so).
 */
import { SHARED_MATERIALS } from './shared';
import { generateCelParses } from '../../scripts/generate-cel-parses';
import { generateValidators } from '../../scripts/generate-validators';

export default function globalSetup(): void {
  const generated = generateValidators();
  if (generated > 0) process.stdout.write(`\ncdk8s-dynamo tests: generated ${generated} validate functions\n`);
  if (generateCelParses()) process.stdout.write('\ncdk8s-dynamo tests: parsed the CEL rules of the CRD schemas\n');
  const missing = Object.values(SHARED_MATERIALS).filter(m => !m.present);
  if (missing.length === 0) return;
  process.stdout.write(`\ncdk8s-dynamo tests: skipping the tests that need ${missing.map(m => m.what).join(', ')}; `
    + `to run them, place the shared folder beside the project or set ${missing.map(m => m.envVar).join(', ')}\n`);
}
