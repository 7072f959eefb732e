// @ts-check
/**
 * Build step (run by scripts/bundle-pipeline.ts after it bundles the pipeline): stamps the pipeline
 * bundle with a build id, then synthesizes the CLI test graph (test/fixtures/cli/graph.yaml) in
 * each output mode through the compiled package, so that the code cache written when this process
 * exits (lib/src/pipeline.bundle.cache) holds what such a synthesis compiles.
 */
'use strict';
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const { recordPipelineCodeCache } = require(path.join(ROOT, 'lib', 'src', 'constructs', 'pipeline-bundle.js'));

recordPipelineCodeCache();
const cdk8s = require('cdk8s');
const dynamo = require(path.join(ROOT, 'lib', 'src', 'index.js'));
const yamlText = fs.readFileSync(path.join(ROOT, 'test', 'fixtures', 'cli', 'graph.yaml'), 'utf8');
const app = new cdk8s.App();
for (const [id, output] of [['graph', dynamo.OutputMode.GRAPH], ['components', dynamo.OutputMode.COMPONENTS], ['workloads', dynamo.OutputMode.WORKLOADS]]) {
  const chart = new cdk8s.Chart(app, id, { namespace: 'cache' });
  dynamo.DynamoGraph.fromYaml(chart, 'Graph', yamlText, { output });
}
app.synthYaml();
