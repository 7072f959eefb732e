#!/usr/bin/env bash
# The Python, Go and Java packages (built into dist/ by `npx projen package-all`) as users install
# them, each in a fresh place outside the project:
#   python  the wheel installed with its peers from PyPI ($PEERS_PYTHON) into a new virtualenv, then
#           the pytest suite of test-python/ (graphs in each output mode, from_yaml, errors as
#           exceptions, DynamoDocuments, the console script, the Python quick start of docs/languages.md, every
#           prop that takes a cdk8s-plus value); then, in a second virtualenv, the wheel with the
#           newest peers pip resolves for it (what `pip install cdk8s-dynamo` gives a user) and the
#           tests of the values that cross into cdk8s-plus and of the quick start: a newer cdk8s-plus
#           release (2.0.60) once emptied `envFrom`
#   go      test-go/ with the main.go of docs/languages.md, the module of dist/go through a `replace`; go test
#   java    test-java/ with the Main.java of docs/languages.md, the artifact from the Maven repository dist/java;
#           mvn test (JUnit)
# The Go and Java peers come from scripts/package-peers.sh (see there why).
#   bash scripts/language-tests.sh [python] [go] [java]     (default: all three)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
VERSION="$(node -p "require('./package.json').version")"
# jsii's runtime announces Node.js 20's end of life in every process; the tests read stderr
export JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=20
export GRAPH_FIXTURE="$ROOT/test/fixtures/cli/graph.yaml"

WORK="$(mktemp -d "${TMPDIR:-/tmp}/cdk8s-dynamo-languages-XXXXXX")"
trap 'rm -rf "$WORK"' EXIT

fail() { echo "language tests: FAILED: $*" >&2; exit 1; }
step() { echo "language tests: $*"; }
size() { du -sb "$1" | cut -f1; }

# the code block after `NAME`: in the section HEADING of docs/languages.md (the quick starts)
readme_file() {
  node -e '
    const [readme, heading, file] = process.argv.slice(1);
    const text = require("fs").readFileSync(readme, "utf8");
    const start = text.indexOf(heading);
    if (start < 0) { console.error("no section " + heading); process.exit(1); }
    const ends = ["\n## ", "\n### "].map(m => text.indexOf(m, start + 1)).filter(i => i > 0);
    const section = text.slice(start, Math.min(text.length, ...ends));
    const at = section.indexOf("`" + file + "`:");
    if (at < 0) { console.error("no " + file + " in " + heading); process.exit(1); }
    process.stdout.write(/```[a-z]*\n([\s\S]*?)```/.exec(section.slice(at))[1]);
  ' "$ROOT/docs/languages.md" "$1" "$2"
}

test_python() {
  local wheel="dist/python/cdk8s_dynamo-$VERSION-py3-none-any.whl"
  [ -f "$wheel" ] || fail "no $wheel: run npx projen package:python"
  step "python: $(basename "$wheel") $(size "$wheel") bytes, sdist $(size "dist/python/cdk8s_dynamo-$VERSION.tar.gz") bytes"
  : "${PEERS_PYTHON:?set by the test:python task}"
  python3 -m venv "$WORK/venv"
  step "python: pip install the wheel with $PEERS_PYTHON"
  # shellcheck disable=SC2086
  "$WORK/venv/bin/pip" install --quiet --no-input "$ROOT/$wheel" $PEERS_PYTHON pytest pyyaml > "$WORK/pip.log" 2>&1 \
    || { cat "$WORK/pip.log" >&2; fail "python: pip install"; }
  (
    export VIRTUAL_ENV="$WORK/venv" PATH="$WORK/venv/bin:$PATH"
    cd "$WORK"
    python -m pytest "$ROOT/test-python" -p no:cacheprovider -q
  ) || fail "python: pytest"
  python3 -m venv "$WORK/venv-newest"
  "$WORK/venv-newest/bin/pip" install --quiet --no-input "$ROOT/$wheel" pytest pyyaml > "$WORK/pip-newest.log" 2>&1 \
    || { cat "$WORK/pip-newest.log" >&2; fail "python: pip install with the newest peers"; }
  step "python: with the newest peers: $("$WORK/venv-newest/bin/python" -c \
    'import importlib.metadata as m; print(" ".join(f"{p}=={m.version(p)}" for p in ("cdk8s", "constructs", "cdk8s-plus-34")))')"
  (
    export VIRTUAL_ENV="$WORK/venv-newest" PATH="$WORK/venv-newest/bin:$PATH"
    cd "$WORK"
    python -m pytest "$ROOT/test-python/test_kplus_props.py" "$ROOT/test-python/test_readme.py" -p no:cacheprovider -q
  ) || fail "python: pytest with the newest peers"
}

test_go() {
  local module="dist/go/cdk8sdynamo"
  [ -f "$module/go.mod" ] || fail "no $module: run npx projen package:go"
  step "go: $module $(size "$module") bytes (of which the embedded npm tarball $(size "$module/jsii/cdk8s-dynamo-$VERSION.tgz"))"
  cp -r test-go "$WORK/go"
  readme_file '### Go quick start' main.go > "$WORK/go/main.go" || fail "go: docs/languages.md has no main.go"
  cd "$WORK/go"
  go mod edit \
    -replace "github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo=$ROOT/$module" \
    -replace "github.com/cdk8s-team/cdk8s-core-go/cdk8s/v2=$ROOT/node_modules/cdk8s/dist/go/cdk8s" \
    -replace "github.com/cdk8s-team/cdk8s-plus-go/cdk8splus34/v2=$ROOT/node_modules/cdk8s-plus-34/dist/go/cdk8splus34"
  go mod tidy > "$WORK/tidy.log" 2>&1 || { cat "$WORK/tidy.log" >&2; fail "go: go mod tidy"; }
  go vet ./... || fail "go: go vet"
  go test -count=1 -v ./... || fail "go: go test"
  cd "$ROOT"
}

test_java() {
  local jar="dist/java/io/github/cdk8s-dynamo/cdk8s-dynamo/$VERSION/cdk8s-dynamo-$VERSION.jar"
  [ -f "$jar" ] || fail "no $jar: run npx projen package:java"
  step "java: $(basename "$jar") $(size "$jar") bytes (sources $(size "${jar%.jar}-sources.jar"), javadoc $(size "${jar%.jar}-javadoc.jar"))"
  cp -r test-java "$WORK/java"
  readme_file '### Java quick start' Main.java > "$WORK/java/src/test/java/Main.java" || fail "java: docs/languages.md has no Main.java"
  # Maven copies what it resolves into its local repository and never resolves that release again: a
  # rebuilt artifact of the same version (or one another checkout built into a shared ~/.m2) would be
  # tested instead of dist/java. The project keeps its own local repository (third-party plugins and
  # dependencies, kept across runs) and removes the artifact and the peers from it before each run.
  local m2="$ROOT/.tmp/m2"
  rm -rf "$m2/io/github/cdk8s-dynamo" "$m2/org/cdk8s/cdk8s-plus-34"
  (
    cd "$WORK/java"
    mvn --batch-mode --no-transfer-progress test -Dmaven.repo.local="$m2" \
      -Dcdk8s-dynamo.version="$VERSION" \
      -Ddist.repo="file://$ROOT/dist/java" \
      -Dpeers.repo="file://$ROOT/node_modules/cdk8s-plus-34/dist/java"
  ) || fail "java: mvn test"
}

languages=("$@")
[ ${#languages[@]} -gt 0 ] || languages=(python go java)
for language in "${languages[@]}"; do
  start=$SECONDS
  case "$language" in
    python) test_python ;;
    go) test_go ;;
    java) test_java ;;
    *) fail "unknown language $language" ;;
  esac
  step "$language: passed in $((SECONDS - start))s"
done
