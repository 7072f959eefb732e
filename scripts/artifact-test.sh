#!/usr/bin/env bash
# The package as users install it. Packs the compiled library, checks what the tarball holds, then,
# for each peer set ($PEERS_TESTED, then $PEERS_FLOOR), installs the tarball with only those peers
# (and TypeScript + ts-node, as a cdk8s TypeScript app has them) into a fresh app outside the
# project, synthesizes a graph in each output mode through the real cdk8s CLI with the validation
# plugin declared in cdk8s.yaml, and runs the installed `cdk8s-dynamo` binary for each exit code.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
CDK8S_CLI="$ROOT/node_modules/.bin/cdk8s"
: "${PEERS_TESTED:?set by the test:artifact task}"
: "${PEERS_FLOOR:?set by the test:artifact task}"
# TypeScript 7 has no ts-node support; a cdk8s TypeScript app runs on TypeScript 6 (or 5) with ts-node 10
APP_TOOLS="typescript@6.0.3 ts-node@10.9.2 @types/node@20"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/cdk8s-dynamo-artifact-XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

fail() { echo "artifact test: FAILED: $*" >&2; exit 1; }
step() { echo "artifact test: $*"; }

# --- the tarball ---------------------------------------------------------------------------------
npm pack --silent --pack-destination "$WORK" > "$WORK/pack-name"
TARBALL="$WORK/$(tail -n 1 "$WORK/pack-name")"
VERSION="$(node -p "require('./package.json').version")"
[ "$VERSION" != "0.0.0" ] || fail "package.json has no real version"
tar -tzf "$TARBALL" | sed 's#^package/##' | sort > "$WORK/contents"
mkdir "$WORK/unpacked" && tar -xzf "$TARBALL" -C "$WORK/unpacked"
UNPACKED_BYTES="$(find "$WORK/unpacked/package" -type f -printf "%s\n" | awk "{ s += \$1 } END { print s }")"
FILES="$(wc -l < "$WORK/contents")"
step "$(basename "$TARBALL"): $(wc -c < "$TARBALL") bytes packed, $UNPACKED_BYTES bytes unpacked, $FILES files"
# the budget: what an install unpacks (the library, its bundled dependencies, the command line and
# their code caches: one copy of the code), at most 12 MB (12,000,000 bytes, as npm counts) and 1,100 files
[ "$UNPACKED_BYTES" -le "${MAX_UNPACKED_BYTES:-12000000}" ] || fail "the package unpacks to $UNPACKED_BYTES bytes, over the budget of ${MAX_UNPACKED_BYTES:-12000000}"
[ "$FILES" -le "${MAX_FILES:-1100}" ] || fail "the package holds $FILES files, over the budget of ${MAX_FILES:-1100}"
for required in package.json README.md LICENSE .jsii bin/cdk8s-dynamo lib/src/index.js lib/src/index.d.ts \
  bin/load-cli.js lib/src/pipeline.bundle.js lib/src/pipeline.bundle.cache docs/admission-rules.md \
  node_modules/ajv/package.json; do
  grep -qx "$required" "$WORK/contents" || fail "the tarball lacks $required"
done
# what never runs: the CEL and YAML packages (the pipeline bundle holds what it uses of them, the conformance
# data of @bufbuild/cel-spec not at all), and a second copy of the compiled code
if grep -E '^(node_modules/@bufbuild/|node_modules/yaml/|lib/cli\.js|lib/src/engine/render\.js|lib/src/cli/main\.js)' "$WORK/contents" > "$WORK/unwanted"; then
  fail "the tarball holds what never runs: $(head -5 "$WORK/unwanted" | tr '\n' ' ')"
fi
if grep -E '^(src|test|scripts|examples|imports|\.ci|\.projen|coverage|lib/src/conformance|lib/test)/' "$WORK/contents" > "$WORK/unwanted"; then
  fail "the tarball holds development files: $(head -5 "$WORK/unwanted" | tr '\n' ' ')"
fi
if grep -E '\.ts$' "$WORK/contents" | grep -vE '\.d\.ts$' | grep -v '^node_modules/' > "$WORK/unwanted"; then
  fail "the tarball holds TypeScript sources: $(head -5 "$WORK/unwanted" | tr '\n' ' ')"
fi

# a two-component graph, shared with the spawned-binary tests
GRAPH_FILE="$ROOT/test/fixtures/cli/graph.yaml"

# exit code of a command, without stopping the script
code_of() { set +e; "$@" > "$WORK/out" 2> "$WORK/err"; local c=$?; set -e; echo "$c"; }

test_app() {
  local label="$1" peers="$2"
  local app="$WORK/app-$label"
  mkdir -p "$app"
  cd "$app"
  step "[$label] npm install the tarball with $peers"
  printf '{ "name": "consumer-%s", "version": "1.0.0", "private": true }\n' "$label" > package.json
  # shellcheck disable=SC2086
  npm install --no-audit --no-fund --loglevel=error "$TARBALL" $peers $APP_TOOLS > "$WORK/install.log" 2>&1 \
    || { cat "$WORK/install.log" >&2; fail "[$label] npm install"; }

  cat > tsconfig.json <<'EOF'
{
  "compilerOptions": {
    "target": "ES2022", "module": "commonjs", "moduleResolution": "node", "strict": true,
    "esModuleInterop": true, "skipLibCheck": true, "types": ["node"]
  },
  "include": ["main.ts"]
}
EOF
  cat > main.ts <<'EOF'
import { App, ApiObject, Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-34';
import { BackendFramework, DynamoGraph, OutputMode } from 'cdk8s-dynamo';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';
const app = new App();
const modes: Array<[string, OutputMode]> = [['graph', OutputMode.GRAPH], ['components', OutputMode.COMPONENTS], ['workloads', OutputMode.WORKLOADS]];
for (const [id, output] of modes) {
  const chart = new Chart(app, id, { namespace: 'team-a' });
  const graph = new DynamoGraph(chart, 'Graph', { metadata: { name: `vllm-${id}` }, backendFramework: BackendFramework.VLLM, output });
  graph.addFrontend('Frontend', { image: IMAGE });
  graph.addWorker('VllmWorker', {
    image: IMAGE,
    args: ['--model', 'Qwen/Qwen3-0.6B'],
    env: { HF_HOME: kplus.EnvValue.fromValue('/cache') },
    gpus: 1,
  });
}
if (process.env.BROKEN === '1') {
  // a graph written as a raw object, which only the validation plugin sees
  new ApiObject(new Chart(app, 'raw'), 'Graph', {
    apiVersion: 'nvidia.com/v1beta1', kind: 'DynamoGraphDeployment', metadata: { name: 'broken' },
    spec: { components: [{ name: 'Frontend', type: 'frontend', replicas: -1, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } }] },
  });
}
app.synth();
EOF
  cat > cdk8s.yaml <<'EOF'
language: typescript
app: npx ts-node main.ts
validations:
  - package: ./node_modules/cdk8s-dynamo
    version: VERSION
    class: DynamoValidationPlugin
    properties:
      lwsAvailable: true
EOF
  sed -i "s/VERSION/$VERSION/" cdk8s.yaml

  step "[$label] the installed package takes its pipeline from its bundle, with the code caches"
  node -e '
    const { App, Chart } = require("cdk8s");
    const dynamo = require("cdk8s-dynamo");
    const app = new App();
    const graph = new dynamo.DynamoGraph(new Chart(app, "c"), "G", { output: dynamo.OutputMode.WORKLOADS });
    graph.addFrontend("F", { image: "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0" });
    app.synthYaml();
    const state = require("cdk8s-dynamo/lib/src/lazy-modules.js").pipelineBundleState();
    const validators = state.validatorCaches;
    if (!state.fromBundle || !state.cacheGiven || state.cacheRejected || validators.loaded === 0 || validators.cacheRejected > 0) {
      console.error(JSON.stringify(state));
      process.exit(1);
    }
  ' || fail "[$label] the pipeline bundle or the code caches were not used"

  step "[$label] cdk8s synth (three output modes, validation plugin)"
  [ "$(code_of "$CDK8S_CLI" synth --no-check-upgrade)" = 0 ] || { cat "$WORK/out" "$WORK/err" >&2; fail "[$label] cdk8s synth"; }
  grep -q 'Validations ended succesfully' "$WORK/out" || { cat "$WORK/out" >&2; fail "[$label] the plugin report did not succeed"; }
  grep -q 'kind: DynamoGraphDeployment' dist/graph.k8s.yaml || fail "[$label] graph output has no DynamoGraphDeployment"
  [ "$(grep -c 'kind: DynamoComponentDeployment' dist/components.k8s.yaml)" = 2 ] || fail "[$label] components output has not 2 DCDs"
  grep -q 'kind: DynamoGraphDeployment' dist/components.k8s.yaml && fail "[$label] components output still has the graph"
  for kind in Deployment Service ServiceAccount Role RoleBinding; do
    grep -qx "kind: $kind" dist/workloads.k8s.yaml || fail "[$label] workloads output has no $kind"
  done
  step "[$label] cdk8s synth of a graph the plugin rejects"
  [ "$(BROKEN=1 code_of "$CDK8S_CLI" synth --no-check-upgrade)" = 2 ] || { cat "$WORK/out" "$WORK/err" >&2; fail "[$label] a rejected graph did not exit 2"; }
  grep -q 'dynamo-admission/rule-59' "$WORK/out" "$WORK/err" || fail "[$label] the report does not name rule 59"

  step "[$label] the installed cdk8s-dynamo binary"
  local bin="$app/node_modules/.bin/cdk8s-dynamo"
  cp "$GRAPH_FILE" graph.yaml
  sed 's/type: decode/type: router/' graph.yaml > bad.yaml
  [ "$(code_of "$bin" --version)" = 0 ] && [ "$(cat "$WORK/out")" = "$VERSION" ] || fail "[$label] --version"
  for output in graph components workloads; do
    [ "$(code_of "$bin" render --output "$output" graph.yaml)" = 0 ] || { cat "$WORK/err" >&2; fail "[$label] render --output $output"; }
    grep -q '^kind: ' "$WORK/out" || fail "[$label] render --output $output wrote no objects"
  done
  [ "$(code_of "$bin" render --output workloads --out dist-cli graph.yaml)" = 0 ] && [ -s dist-cli/graph.k8s.yaml ] || fail "[$label] render --out"
  [ "$(code_of "$bin" validate graph.yaml)" = 0 ] || fail "[$label] validate of a valid graph"
  [ "$(code_of "$bin" validate bad.yaml)" = 1 ] && grep -q '(rule 43)' "$WORK/err" || fail "[$label] validate of an invalid graph did not exit 1 naming rule 43"
  [ "$(code_of "$bin" validate missing.yaml)" = 1 ] || fail "[$label] a missing file did not exit 1"
  [ "$(code_of "$bin" render --bogus graph.yaml)" = 2 ] || fail "[$label] an unknown option did not exit 2"
  [ "$(code_of "$bin" --help)" = 0 ] || fail "[$label] --help"

  step "[$label] the README's quick start (its cdk8s.yaml, tsconfig.json and main.ts)"
  rm -rf dist
  for file in cdk8s.yaml tsconfig.json main.ts; do
    node -e '
      const [readme, file] = process.argv.slice(1);
      const text = require("fs").readFileSync(readme, "utf8");
      const section = text.slice(text.indexOf("## Quick start"), text.indexOf("\n## ", text.indexOf("## Quick start") + 1));
      const at = section.indexOf("`" + file + "`:");
      if (at < 0) { console.error("no " + file + " in the quick start"); process.exit(1); }
      const block = /```[a-z]*\n([\s\S]*?)```/.exec(section.slice(at));
      process.stdout.write(block[1]);
    ' "$ROOT/README.md" "$file" > "$file" || fail "[$label] the README quick start has no $file"
  done
  grep -q "version: $VERSION" cdk8s.yaml || fail "[$label] the README quick start's cdk8s.yaml does not name version $VERSION"
  [ "$(code_of "$CDK8S_CLI" synth --no-check-upgrade)" = 0 ] || { cat "$WORK/out" "$WORK/err" >&2; fail "[$label] cdk8s synth of the README quick start"; }
  grep -q 'Validations ended succesfully' "$WORK/out" || fail "[$label] the README quick start's plugin report did not succeed"
  grep -q 'name: vllm-agg' dist/llm.k8s.yaml || fail "[$label] the README quick start did not synthesize the graph vllm-agg"
  # what the quick start applies is what kubectl reads: the manifest it names, as kubectl apply reads it
  target=$(node -e '
    const text = require("fs").readFileSync(process.argv[1], "utf8");
    const section = text.slice(text.indexOf("## Quick start"), text.indexOf("\n## ", text.indexOf("## Quick start") + 1));
    const m = /kubectl apply -f (\S+)/.exec(section);
    if (!m) process.exit(1);
    process.stdout.write(m[1]);
  ' "$ROOT/README.md") || fail "[$label] the README quick start applies nothing with kubectl apply -f"
  if command -v kubectl > /dev/null; then
    [ "$(code_of kubectl annotate --local -f "$target" checked=yes -o name)" = 0 ] || { cat "$WORK/err" >&2; fail "[$label] kubectl cannot read $target, which the README quick start applies"; }
    grep -q 'dynamographdeployment.nvidia.com/vllm-agg' "$WORK/out" || fail "[$label] kubectl did not read the graph from $target"
  fi
  cd "$ROOT"
}

test_app tested "$PEERS_TESTED"
test_app floor "$PEERS_FLOOR"
step "passed: $(basename "$TARBALL") installs, synthesizes and runs with the tested peers and with the floors"
