/**
 * Renders the operator configuration the `dynamo-platform` Helm chart writes for each values file in
 * test/fixtures/oracle/helm (`<name>.values.yaml` -> `<name>.operator-config.yaml`), with a real `helm`.
 *
 *   npx ts-node --transpile-only --project tsconfig.dev.json scripts/oracle/render-helm-configs.ts \
 *       --helm HELM_BINARY --chart PLATFORM_CHART_DIR [--check]
 *
 * PLATFORM_CHART_DIR is ai-dynamo/dynamo's `deploy/helm/charts/platform` (the commit the fixtures name
 * in test/fixtures/oracle/README.md). The chart's other dependencies (NATS, etcd, KAI, Grove, snapshot)
 * are remote charts that write nothing into the operator configuration, so the chart is copied to a
 * scratch folder with only its `dynamo-operator` dependency, unpacked under `charts/`, and rendered with
 * `helm template <release> <chart> --namespace <ns> -f <values> --show-only <operator-config template>`,
 * release and namespace the CLI's defaults for `--helm-values`. The fixture is the ConfigMap's
 * `data["config.yaml"]` as the chart wrote it. `--check` writes nothing and fails when a fixture differs.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseYamlDocuments } from '../../src/import/documents';
import { DEFAULT_HELM_NAMESPACE, DEFAULT_HELM_RELEASE_NAME } from '../../src/import/helm-values';
import { OPERATOR_CONFIG_MAP_KEY } from '../../src/import/operator-config';

const FIXTURES = path.join(__dirname, '..', '..', 'test', 'fixtures', 'oracle', 'helm');
const OPERATOR_SUBCHART = 'dynamo-operator';
const CONFIG_TEMPLATE = `charts/${OPERATOR_SUBCHART}/templates/operator-config.yaml`;

function option(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** The platform chart with only its operator sub-chart as a dependency, unpacked where Helm looks for it. */
function prepareChart(chartDir: string): string {
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'platform-chart-'));
  const chart = path.join(scratch, 'platform');
  fs.cpSync(chartDir, chart, { recursive: true });
  const chartYamlPath = path.join(chart, 'Chart.yaml');
  const meta = parseYamlDocuments(fs.readFileSync(chartYamlPath, 'utf8'), chartYamlPath)[0] as { dependencies?: Array<{ name: string }> };
  meta.dependencies = (meta.dependencies ?? []).filter(d => d.name === OPERATOR_SUBCHART);
  fs.writeFileSync(chartYamlPath, JSON.stringify(meta, undefined, 2));
  fs.mkdirSync(path.join(chart, 'charts'), { recursive: true });
  fs.cpSync(path.join(chart, 'components', 'operator'), path.join(chart, 'charts', OPERATOR_SUBCHART), { recursive: true });
  fs.rmSync(path.join(chart, 'Chart.lock'), { force: true });
  return chart;
}

function renderConfig(helm: string, chart: string, valuesFile: string): string {
  const out = execFileSync(helm, [
    'template', DEFAULT_HELM_RELEASE_NAME, chart,
    '--namespace', DEFAULT_HELM_NAMESPACE,
    '-f', valuesFile,
    '--show-only', CONFIG_TEMPLATE,
  ], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  const docs = parseYamlDocuments(out, valuesFile).filter(d => d !== null) as Array<{ kind?: string; data?: { [k: string]: unknown } }>;
  if (docs.length !== 1 || docs[0].kind !== 'ConfigMap') throw new Error(`${valuesFile}: expected one ConfigMap from helm, got ${docs.length} documents`);
  const config = docs[0].data?.[OPERATOR_CONFIG_MAP_KEY];
  if (typeof config !== 'string') throw new Error(`${valuesFile}: the ConfigMap has no data["${OPERATOR_CONFIG_MAP_KEY}"]`);
  return config;
}

function main(): void {
  const helm = option('--helm');
  const chartDir = option('--chart');
  if (!helm || !chartDir) {
    console.error('usage: render-helm-configs.ts --helm HELM_BINARY --chart PLATFORM_CHART_DIR [--check]');
    process.exit(2);
  }
  const check = process.argv.includes('--check');
  const chart = prepareChart(chartDir);
  let differing = 0;
  try {
    for (const file of fs.readdirSync(FIXTURES).filter(f => f.endsWith('.values.yaml')).sort()) {
      const name = file.slice(0, -'.values.yaml'.length);
      const config = renderConfig(helm, chart, path.join(FIXTURES, file));
      const target = path.join(FIXTURES, `${name}.operator-config.yaml`);
      if (check) {
        const same = fs.existsSync(target) && fs.readFileSync(target, 'utf8') === config;
        if (!same) differing++;
        console.log(`${same ? 'same     ' : 'DIFFERENT'} ${name}`);
      } else {
        fs.writeFileSync(target, config);
        console.log(`wrote ${path.relative(process.cwd(), target)}`);
      }
    }
  } finally {
    fs.rmSync(path.dirname(chart), { recursive: true, force: true });
  }
  if (differing > 0) process.exit(1);
}

main();
