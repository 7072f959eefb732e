/**
 * `--helm-values` held to the platform chart itself: for each values file in
 * test/fixtures/oracle/helm, the operator settings derived from the values must be those read (as
 * `--operator-config` reads it) from the operator configuration the chart rendered for the same values
 * with `helm template` (recorded beside it as `<name>.operator-config.yaml`; how: the README there).
 */
import * as fs from 'fs';
import * as path from 'path';
import { OperatorConfiguration } from '../src';
import { settings as resolveOperatorSettings } from './support/facade';

const DIR = path.join(__dirname, 'fixtures', 'oracle', 'helm');
const NAMES = fs.readdirSync(DIR).filter(f => f.endsWith('.values.yaml')).map(f => f.slice(0, -'.values.yaml'.length)).sort();

function fromValues(name: string) {
  const file = `${name}.values.yaml`;
  return OperatorConfiguration.fromHelmValues(fs.readFileSync(path.join(DIR, file), 'utf8'), {}, file);
}

function fromChart(name: string) {
  const file = `${name}.operator-config.yaml`;
  return OperatorConfiguration.fromYaml(fs.readFileSync(path.join(DIR, file), 'utf8'), file);
}

test('every values file has the configuration the chart rendered for it', () => {
  expect(NAMES.length).toBeGreaterThanOrEqual(8);
  expect(NAMES).toContain('default');
  for (const name of NAMES) expect(fs.existsSync(path.join(DIR, `${name}.operator-config.yaml`))).toBe(true);
});

test.each(NAMES)('%s: the settings derived from the values are those of the chart\'s configuration', name => {
  expect(resolveOperatorSettings(fromValues(name))).toEqual(resolveOperatorSettings(fromChart(name)));
});

test.each(NAMES.filter(name => name !== 'default'))('%s: the chart\'s configuration differs from a default install\'s', name => {
  // a values file that changed nothing would hold nothing to the chart
  expect(resolveOperatorSettings(fromChart(name))).not.toEqual(resolveOperatorSettings(fromChart('default')));
});
