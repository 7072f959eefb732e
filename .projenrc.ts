import { cdk8s, javascript } from 'projen';

const CDK8S_PLUS = 'cdk8s-plus-34';
/** The versions developed and tested against (dev dependencies, pinned). */
const CDK8S_PLUS_VERSION = '2.0.54';
const CDK8S_VERSION = '2.70.106';
const CONSTRUCTS_VERSION = '10.8.1';
/**
 * The oldest peers the library works with (peer dependency floors): cdk8s-plus-34's first
 * release and the oldest cdk8s / constructs it accepts that the registry has. The artifact test installs the package with
 * these as well as with the newest.
 */
const PEER_FLOORS = { cdk8s: '2.68.12', constructs: '10.3.0', [CDK8S_PLUS]: '2.0.20' };
/** The repository's web address: the package's homepage and where to report bugs. */
const REPOSITORY = 'https://github.com/cdk8s-dynamo/cdk8s-dynamo';
/**
 * The suites the default test run (`npx projen test`, in every `npx projen build`) leaves out: the
 * slowest by CPU (measured file by file), each group a task of its own that CI runs (.ci/run).
 */
const SLOW_SUITES: Record<string, { readonly description: string; readonly files: readonly string[] }> = {
  'test:oracle': {
    description: "The recorded operator output, admission verdicts and rollouts (test/fixtures/oracle) against the library's",
    files: ['oracle-renders', 'oracle-admission', 'oracle-edits'],
  },
  'test:kubectl': {
    description: 'What kubectl reads of the YAML the library writes (spawns kubectl)',
    files: ['yaml-boundary'],
  },
  'test:binary': {
    description: 'The built command line and the example apps, spawned as users run them (the bundle, its code cache, eject, the docs examples, the wait-for-leader script)',
    files: ['cli-binary', 'cli-output-binary', 'cli-convert-binary', 'cli-eject-binary', 'cli-diff-binary', 'cli-explain-binary',
      'cli-code-cache', 'cli-conventions', 'docs-examples', 'wait-for-leader-script', 'eject', 'dgdr-oracle'],
  },
  'test:slow': {
    description: 'The cdk8s CLI with the validation plugin, the ejected corpus apps, the corpus workloads, the property-based runs and the bounded-work checks',
    files: ['validation-plugin', 'eject-corpus', 'corpus-workloads', 'fuzz', 'cli-fuzz', 'bounded-work'],
  },
};
const SLOW_FILES = Object.values(SLOW_SUITES).flatMap(group => group.files.map(name => `test/${name}.test.ts`));

const project = new cdk8s.ConstructLibraryCdk8s({
  name: 'cdk8s-dynamo',
  description: 'cdk8s constructs for NVIDIA Dynamo inference graphs (nvidia.com/v1beta1): typed authoring, custom-resource synthesis, offline validation.',
  author: 'cdk8s-dynamo maintainers',
  authorAddress: 'maintainers@cdk8s-dynamo.dev',
  repositoryUrl: `${REPOSITORY}.git`,
  homepage: `${REPOSITORY}#readme`,
  bugsUrl: `${REPOSITORY}/issues`,
  keywords: ['cdk8s', 'kubernetes', 'nvidia', 'dynamo', 'llm', 'inference'],
  cdk8sVersion: PEER_FLOORS.cdk8s,
  constructsVersion: PEER_FLOORS.constructs,
  peerDependencyOptions: { pinnedDevDependency: false },
  minNodeVersion: '20.0.0',
  defaultReleaseBranch: 'main',
  // the version bump of a release: commit-and-tag-version 13 and its conventional-changelog packages
  // need Node 22, and npm ci on Node 20 (minNodeVersion) warned for each of them (EBADENGINE)
  bumpPackage: 'commit-and-tag-version@^12',
  github: false,
  jsiiVersion: '~6.0.0',
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,
  stability: 'experimental',
  // the jsii languages (named as cdk8s-plus names its own): a PyPI distribution, a Maven artifact
  // (Java packages cannot hold '-': the GitHub organization's namespace with '_'), a Go module
  publishToPypi: { distName: 'cdk8s-dynamo', module: 'cdk8s_dynamo' },
  publishToMaven: { javaPackage: 'io.github.cdk8s_dynamo', mavenGroupId: 'io.github.cdk8s-dynamo', mavenArtifactId: 'cdk8s-dynamo' },
  publishToGo: { moduleName: 'github.com/cdk8s-dynamo/cdk8s-dynamo-go', packageName: 'cdk8sdynamo' },

  peerDeps: [`${CDK8S_PLUS}@^${PEER_FLOORS[CDK8S_PLUS]}`],
  devDeps: [
    `cdk8s@${CDK8S_VERSION}`, `constructs@${CONSTRUCTS_VERSION}`, `${CDK8S_PLUS}@${CDK8S_PLUS_VERSION}`, 'cdk8s-cli@^2.207.60', 'kubernetes-models@^5.1.0', 'fast-check@^4.10.2',
    'esbuild@^0.28.2',
    // the CEL engine (and the protobuf runtime it is written with) runs only inside the pipeline
    // bundle, which holds the parts of them it uses (scripts/bundle-pipeline.ts): the package does not
    // carry the packages (nor the CEL conformance data @bufbuild/cel-spec brings)
    '@bufbuild/cel@0.6.1', '@bufbuild/protobuf@^2.17.0',
    // the YAML parser too (src/lazy-modules.ts reads it from the bundle)
    'yaml@^2.9.1',
  ],
  // runtime dependencies are bundled into the package, as jsii requires
  bundledDeps: ['ajv@^8.20.0'],

  // the generated CRD imports live beside src/, so the compiler root is the project folder
  entrypoint: 'lib/src/index.js',
  entrypointTypes: 'lib/src/index.d.ts',
  tsconfig: {
    // no inline source maps or sources in lib/: they double what Node reads when the package is required
    compilerOptions: { rootDir: '.', inlineSourceMap: false, inlineSources: false },
    include: ['src/**/*.ts', 'imports/**/*.ts'],
  },
  tsconfigDevFile: 'tsconfig.dev.json',
  tsconfigDev: {
    compilerOptions: {},
    include: ['src/**/*.ts', 'imports/**/*.ts', 'test/**/*.ts', 'scripts/**/*.ts', 'examples/**/*.ts', 'projenrc/**/*.ts', '.projenrc.ts'],
  },
  jestOptions: {
    // snapshots fail when they change (`npx projen test:update` writes them)
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    // the test task leaves the slow suites to their own tasks (SLOW_SUITES); `npx jest FILE` runs any file
    extraCliOptions: ['--testPathIgnorePatterns', '/node_modules/', ...SLOW_FILES.map(file => `/${file.replace(/\./g, '\\.')}$`)],
    jestConfig: {
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      // one line naming the shared reference material that is absent (its tests are skipped)
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      // coverage instruments every module (about 1.5x the CPU): `npx jest --coverage` when wanted
      collectCoverage: false,
      coverageReporters: ['text-summary'],
      coveragePathIgnorePatterns: ['/node_modules/', '/src/admission/structural/generated/', '/src/admission/cel/generated/'],
    },
  },
  eslintOptions: {
    tsconfigPath: './tsconfig.dev.json',
    dirs: ['src'],
    devdirs: ['test', 'scripts', 'examples'],
    ignorePatterns: ['imports/', '*.js', '*.d.ts', 'node_modules/', 'lib/', 'coverage/', 'examples/dist/'],
  },
  gitignore: ['/examples/dist/', '/.tmp/', '__pycache__/'],
  npmignoreEnabled: true,
});

// lint src/, test/, scripts/ and examples/ with the dev tsconfig, which includes them all
const eslintrc = project.tryFindObjectFile('.eslintrc.json');
eslintrc?.addOverride('parserOptions.projectService', false);
eslintrc?.addOverride('parserOptions.project', './tsconfig.dev.json');
// the modules that require the packages the pipeline bundle holds (scripts/bundle-pipeline.ts): they
// are built into it, so development dependencies of the project, not dependencies of the package
project.eslint?.addOverride({
  files: ['src/admission/engines.ts', 'src/constructs/deferred-parts.ts'],
  rules: { 'import/no-extraneous-dependencies': ['error', { devDependencies: true, peerDependencies: true }] },
});

// The validate functions of the schemas the library validates with, generated (ajv standalone code)
// before jsii compiles and copied beside the compiled modules; regenerated from the sources, so not
// committed (the test setup generates what is missing, for jest runs without a compile).
const GENERATED_VALIDATORS = 'src/admission/structural/generated';
project.gitignore.exclude(`/${GENERATED_VALIDATORS}/`);
project.compileTask.prependExec('ts-node --transpile-only --project tsconfig.dev.json scripts/generate-validators.ts');
project.compileTask.exec(`rm -rf lib/${GENERATED_VALIDATORS} && cp -r ${GENERATED_VALIDATORS} lib/${GENERATED_VALIDATORS}`);

// The CEL rules of the CRD schemas, parsed at build time (scripts/generate-cel-parses.ts), the
// same way: generated before jsii compiles, copied beside the compiled modules, not committed.
const GENERATED_CEL = 'src/admission/cel/generated';
project.gitignore.exclude(`/${GENERATED_CEL}/`);
project.compileTask.prependExec('ts-node --transpile-only --project tsconfig.dev.json scripts/generate-cel-parses.ts');
project.compileTask.exec(`rm -rf lib/${GENERATED_CEL} && cp -r ${GENERATED_CEL} lib/${GENERATED_CEL}`);

// The constructs reach the pipeline (admission, render engine, imports; loaded on first use), and the
// command line (bin/cdk8s-dynamo) all of its code, through one file: lib/src/pipeline.bundle.js, every
// module the package's entry does not load (those stay outside, one copy each) with @bufbuild/cel, and
// the V8 code caches of it and of the generated validators, made by synthesizing test graphs and
// running the command line (scripts/bundle-pipeline.ts, pipeline-code-cache-run.js). A process then
// reads one file instead of some 300 modules, and the package holds one copy of the code.
project.compileTask.exec('ts-node --transpile-only --project tsconfig.dev.json scripts/bundle-pipeline.ts');

project.package.addVersion('0.1.0');
project.package.addField('types', 'lib/src/index.d.ts');
// the published package holds the library, its bundled dependencies, the CLI and the docs: no
// sources, development scripts, CI files or the example app (it imports ../src)
for (const pattern of ['/crds/', '/scripts/', '/.ci/', '/examples/', '/imports/', '/docs/*.ts', '/.tmp/', '/test-python/', '/test-go/', '/test-java/']) project.addPackageIgnore(pattern);
project.package.addBin({ 'cdk8s-dynamo': 'bin/cdk8s-dynamo' });

// Compact structural schemas of the CRDs (imports/*.schema.ts), generated from the CRD files.
project.addTask('import:crds', {
  description: 'Regenerate imports/ from the CRD files (default ../shared/crds, or $DYNAMO_CRDS_DIR)',
  exec: 'ts-node --project tsconfig.dev.json scripts/import-crds.ts',
});
project.addTask('import:k8s', {
  description: 'Regenerate imports/k8s-openapi.schema.ts (Kubernetes OpenAPI definitions) from kubernetes-models',
  exec: 'ts-node --project tsconfig.dev.json scripts/import-k8s-schemas.ts',
});
// The Kubernetes types of cdk8s-plus-34's typed structs, read from it: how the constructs read a typed
// pod template and how `eject` writes one (a test fails when stale).
project.addTask('import:kubernetes-types', {
  description: 'Regenerate src/model/kubernetes-types.ts from the installed cdk8s-plus-34',
  exec: 'ts-node --project tsconfig.dev.json scripts/generate-kubernetes-types.ts',
});

// The main job: synthesize the example app.
project.addTask('example', {
  description: 'Synthesize the examples/ cdk8s app into examples/dist',
  cwd: 'examples',
  steps: [
    { exec: 'cdk8s synth --output dist --check-upgrade false' },
    { say: 'Synthesized the example app into examples/dist/' },
  ],
});

// Operator golden scenarios and the NVIDIA corpus, when their folders are given.
project.addTask('conformance', {
  description: 'Render the golden scenarios in $DYNAMO_CONFORMANCE_DIR and match them',
  exec: 'ts-node --project tsconfig.dev.json scripts/conformance.ts',
  receiveArgs: true,
});
project.addTask('corpus', {
  description: 'Round-trip, validate and render every document in $DYNAMO_CORPUS_DIR',
  exec: 'ts-node --project tsconfig.dev.json scripts/corpus.ts',
  receiveArgs: true,
});

// Speed and memory figures (a script, never a test).
project.addTask('bench', {
  description: 'Benchmark in fresh processes against plain baselines: load, synthesis, chart layout, the CLI (see docs/performance.md)',
  steps: [
    { spawn: 'compile' },
    // options (--quick, --runs N, --only M, --markdown) reach the script: a step receives them, not the task
    { exec: 'ts-node --project tsconfig.dev.json scripts/bench.ts', receiveArgs: true },
  ],
});

// Admission: which rows of the operator's rules are implemented and tested; property-based runs.
project.addTask('rule-coverage', {
  description: 'Report the admission rules implemented / explained / tested (validation-rules.md, or $DYNAMO_REFERENCE_DIR)',
  exec: 'ts-node --project tsconfig.dev.json scripts/rule-coverage.ts',
  receiveArgs: true,
});
project.addTask('fuzz', {
  description: 'Property-based runs: generated valid graphs pass and render, mutated ones are rejected (--runs N, --seed S)',
  exec: 'ts-node --project tsconfig.dev.json scripts/fuzz.ts',
  receiveArgs: true,
});

// The operator's own admission and rollouts, recorded from the oracle (test/fixtures/oracle/README.md):
// ORACLE_ADMIT / ORACLE point at the oracle binaries.
project.addTask('oracle:record-admission', {
  description: 'Record the oracle\'s admission verdicts on the seeded cases into test/fixtures/oracle/admission-<version>.jsonl.gz (env ORACLE_ADMIT; --compare-only)',
  exec: 'ts-node --transpile-only --project tsconfig.dev.json scripts/oracle/record-admission.ts',
  receiveArgs: true,
});
project.addTask('oracle:record-edits', {
  description: 'Record which pod templates the oracle changes on the seeded edit pairs into test/fixtures/oracle/edits-<version>.jsonl.gz (env ORACLE)',
  exec: 'ts-node --transpile-only --project tsconfig.dev.json scripts/oracle/record-edits.ts',
  receiveArgs: true,
});

// The package as users install it: `npm pack`, the tarball installed with only its peers (the
// tested versions, then the floors) into a fresh app that synthesizes with the real cdk8s CLI and
// runs the installed binary.
project.addTask('test:artifact', {
  description: 'Pack the library and test the tarball in fresh apps (peers at the tested versions and at their floors)',
  steps: [
    { spawn: 'compile' },
    { exec: 'bash scripts/artifact-test.sh' },
  ],
  env: {
    PEERS_TESTED: `cdk8s@${CDK8S_VERSION} constructs@${CONSTRUCTS_VERSION} ${CDK8S_PLUS}@${CDK8S_PLUS_VERSION}`,
    PEERS_FLOOR: Object.entries(PEER_FLOORS).map(([name, version]) => `${name}@${version}`).join(' '),
  },
});

// Python, Java and Go. `package` (in every `build`) packs the npm package only, on any machine and in
// CI alike; `package-all` (or `package:python`, `package:java`, `package:go`) builds the other
// languages into dist/, which needs Python 3 with venv, a JDK with Maven and Go; `test:languages`
// builds and tests them. The Java and Go builds first generate the peers' bindings the registries
// here do not serve (scripts/package-peers.sh).
project.packageTask.reset();
project.packageTask.spawn(project.tasks.tryFind('package:js')!);
for (const language of ['java', 'go']) {
  project.tasks.tryFind(`package:${language}`)!.prependExec(`bash scripts/package-peers.sh ${language}`);
}
const languageTests = [
  project.addTask('test:python', {
    description: 'Test the built wheel in a fresh virtualenv with its peers from PyPI (pytest suite test-python/)',
    exec: 'bash scripts/language-tests.sh python',
    env: { PEERS_PYTHON: `cdk8s==${CDK8S_VERSION} constructs==${CONSTRUCTS_VERSION} ${CDK8S_PLUS}==${CDK8S_PLUS_VERSION}` },
  }),
  project.addTask('test:go', {
    description: 'Test the built Go module in a fresh Go module (test-go/, with the quick start of docs/languages.md)',
    exec: 'bash scripts/language-tests.sh go',
  }),
  project.addTask('test:java', {
    description: 'Test the built Maven artifact in a fresh Maven project (test-java/, with the quick start of docs/languages.md)',
    exec: 'bash scripts/language-tests.sh java',
  }),
];
// `eject --language L` over the corpus: each app ejected in L, run as its users run it (the packages
// built into dist/ by package-all), its objects compared with the input as kubectl reads them
// (scripts/eject-roundtrip.ts; TypeScript runs in the jest suite, test/eject-corpus.test.ts).
project.addTask('eject:roundtrip', {
  description: 'Eject the fixtures, generated graphs and corpus files in a language, run the apps, compare with the input (--language L [--sample N] [--generated N] [DIR])',
  exec: 'ts-node --project tsconfig.dev.json scripts/eject-roundtrip.ts',
  receiveArgs: true,
  env: { PEERS_PYTHON: `cdk8s==${CDK8S_VERSION} constructs==${CONSTRUCTS_VERSION} ${CDK8S_PLUS}==${CDK8S_PLUS_VERSION}` },
});
project.addTask('test:languages', {
  description: 'Build the Python, Java and Go packages and test each as its users install it',
  steps: [{ spawn: 'compile' }, { spawn: 'package-all' }, ...languageTests.map(task => ({ spawn: task.name }))],
});

// The admission rules users can look up (docs/admission-rules.md, shipped in the package), generated
// from src/admission/rule-docs.ts; the test task fails when the committed page is stale.
project.addTask('docs:admission-rules', {
  description: 'Write docs/admission-rules.md from src/admission/rule-docs.ts',
  exec: 'ts-node --project tsconfig.dev.json scripts/admission-rules-doc.ts',
});
project.testTask.spawn(project.addTask('check:admission-rules-doc', {
  description: 'Fail when docs/admission-rules.md is not the text generated from src/admission/rule-docs.ts',
  exec: 'ts-node --project tsconfig.dev.json scripts/admission-rules-doc.ts --check',
}));

// The CLI reference (docs/cli.md), generated from the argument parser's help texts (src/cli/args.ts);
// the test task fails when the committed page is stale.
project.addTask('docs:cli', {
  description: 'Write docs/cli.md from the help texts of src/cli/args.ts',
  exec: 'ts-node --project tsconfig.dev.json scripts/cli-reference-doc.ts',
});
project.testTask.spawn(project.addTask('check:cli-doc', {
  description: 'Fail when docs/cli.md is not the text generated from src/cli/args.ts',
  exec: 'ts-node --project tsconfig.dev.json scripts/cli-reference-doc.ts --check',
}));

// Facts from the operator's Go unit tests (test/operator-scenarios/): also run by jest; this prints
// the counts per area for the CI log.
project.addTask('operator-scenarios', {
  description: "Check the operator scenarios (facts from the operator's Go unit tests) and print pass/fail counts per area",
  exec: 'ts-node --project tsconfig.dev.json scripts/operator-scenarios.ts',
  receiveArgs: true,
});
project.addTask('fuzz:cli', {
  description: 'Property-based runs of the installed command on hostile, damaged, mutated and valid files (--runs N, --seed S)',
  steps: [
    { spawn: 'compile' },
    { exec: 'ts-node --project tsconfig.dev.json scripts/fuzz-cli.ts', receiveArgs: true },
  ],
});

// The recordings of the real operator's output that test/oracle-renders.test.ts holds the workloads
// output to (test/fixtures/oracle/): record them again, compare more inputs without recording, or count them
project.addTask('oracle:record', {
  description: 'Record the oracle renders of seeded inputs into test/fixtures/oracle (--count N --seed S), or compare without recording (--check), or count the fixtures (--summary); env ORACLE_1_5, ORACLE_1_4',
  exec: 'ts-node --transpile-only --project tsconfig.dev.json scripts/oracle/record-renders.ts',
  receiveArgs: true,
});

// The slow suites (SLOW_SUITES), each group as a task.
for (const [name, group] of Object.entries(SLOW_SUITES)) {
  project.addTask(name, {
    description: `${group.description} (suites the default test run leaves out)`,
    exec: `jest --passWithNoTests --ci --coverage=false ${group.files.map(file => `test/${file}.test.ts`).join(' ')}`,
    receiveArgs: true,
  });
}

// Releases: CHANGELOG.md, written from the conventional commits (feat:, fix:, perf:, ...) by the tool
// projen's own bump task uses, one section per release tag (the commits since the last one under the
// version in package.json).
project.addTask('changelog', {
  description: 'Write CHANGELOG.md from the conventional commits, one section per release tag',
  exec: 'commit-and-tag-version --skip.bump --skip.commit --skip.tag --preset conventionalcommits --release-count 0 --infile CHANGELOG.md',
});

// Every optional public prop carries a @default.
project.testTask.spawn(project.addTask('check:docs', {
  description: 'Fail when an optional public prop has no @default in its TSDoc',
  exec: 'ts-node --project tsconfig.dev.json scripts/check-docs.ts src/constructs src/plugin src/explain',
}));

project.synth();
