/**
 * The files beside an ejected program (`eject --out DIR`), so that `cdk8s synth` runs the app:
 * TypeScript `package.json`, `tsconfig.json` and `cdk8s.yaml` of the README's quick start; Python
 * `requirements.txt` (the library, which brings its peers from PyPI) and `cdk8s.yaml`
 * (`python main.py`); Java `pom.xml` (the library, which brings its peers, and the exec plugin that
 * runs `Main`) and `cdk8s.yaml`; Go `go.mod` (the library's module; `go mod tidy` adds the peers)
 * and `cdk8s.yaml` (`go run .`). Each project also gets a `README.md` saying how to run it and where
 * the library comes from: the registry at the version of the CLI, or with `--package-source` a local
 * build (`PackageSource`).
 */
import { EjectLanguage } from './languages';

/** The oldest peer versions the library works with (README, Quick start). */
export const PEER_VERSIONS = { 'cdk8s': '^2.68.12', 'cdk8s-plus-34': '^2.0.20', 'constructs': '^10.3.0' } as const;

/** The development dependencies of the quick start (`cdk8s synth` runs the app through ts-node, which needs TypeScript 6 or 5). */
export const DEV_DEPENDENCIES = { '@types/node': '^20', 'cdk8s-cli': '^2', 'ts-node': '^10', 'typescript': '^6' } as const;

/**
 * A local build of the library the project depends on instead of the registry's release: what
 * `npx projen package:js` (`package:python`, `package:java`, `package:go`) writes into a clone's
 * dist/: the npm tarball or a checkout (TypeScript), the wheel (Python), the Maven repository folder
 * (Java), the Go module folder (Go).
 */
export interface PackageSource {
  /** The build's path relative to the project folder, with `/` separators (npm `file:`, Go `replace`). */
  readonly relative: string;
  /** The build's absolute `file:` URL (pip, Maven). */
  readonly url: string;
}

/** Where `npx projen package:<language>` writes the build of `version` in a clone of the library. */
export function localBuildPath(language: EjectLanguage, version: string): string {
  switch (language) {
    case 'typescript': return `dist/js/cdk8s-dynamo-${version}.tgz`;
    case 'python': return `dist/python/cdk8s_dynamo-${version}-py3-none-any.whl`;
    case 'java': return 'dist/java';
    case 'go': return 'dist/go/cdk8sdynamo';
  }
}

/** One file of the project. */
export interface ProjectFile {
  readonly name: string;
  readonly text: string;
}

/**
 * `package.json`, `tsconfig.json` and `cdk8s.yaml` of an app named `name` using cdk8s-dynamo
 * `version`, from the npm registry or from `source`.
 */
export function projectFiles(name: string, version: string, source?: PackageSource): ProjectFile[] {
  const pkg = {
    name,
    version: '0.0.0',
    private: true,
    // the CLI is a dev dependency of the project: its check for a newer global install is noise, and
    // a stack trace when the npm registry cannot be reached
    scripts: { synth: 'cdk8s synth --no-check-upgrade' },
    dependencies: { 'cdk8s-dynamo': source ? `file:${source.relative}` : version, ...PEER_VERSIONS },
    devDependencies: { ...DEV_DEPENDENCIES },
  };
  // TypeScript 6 refuses `moduleResolution: node` (deprecated, error TS5107) unless told to ignore it;
  // ts-node 10 runs TypeScript 6 or 5, and the dev dependencies pin 6
  const tsconfig = {
    compilerOptions: {
      target: 'ES2022', module: 'commonjs', moduleResolution: 'node', strict: true, esModuleInterop: true, skipLibCheck: true, ignoreDeprecations: '6.0',
    },
    include: ['main.ts'],
  };
  const cdk8sYaml = [
    'language: typescript',
    'app: npx ts-node main.ts',
    'validations:                          # check every manifest cdk8s writes as the cluster would admit it',
    '  - package: ./node_modules/cdk8s-dynamo',
    `    version: ${version}`,
    '    class: DynamoValidationPlugin',
    '',
  ].join('\n');
  return [
    { name: 'package.json', text: `${JSON.stringify(pkg, undefined, 2)}\n` },
    { name: 'tsconfig.json', text: `${JSON.stringify(tsconfig, undefined, 2)}\n` },
    { name: 'cdk8s.yaml', text: cdk8sYaml },
  ];
}

/**
 * The project files of an app in `language` named `name` using cdk8s-dynamo `version`: from the
 * language's registry, or from the local build `source`; and its README.md.
 */
export function languageProjectFiles(language: EjectLanguage, name: string, version: string, source?: PackageSource): ProjectFile[] {
  return [...languageFiles(language, name, version, source), { name: 'README.md', text: projectReadme(language, name, version, source) }];
}

function languageFiles(language: EjectLanguage, name: string, version: string, source: PackageSource | undefined): ProjectFile[] {
  switch (language) {
    case 'typescript': return projectFiles(name, version, source);
    case 'python': return [
      // a direct reference (PEP 508) names the wheel wherever pip runs
      { name: 'requirements.txt', text: source ? `cdk8s-dynamo @ ${source.url}\n` : `cdk8s-dynamo==${version}\n` },
      { name: 'cdk8s.yaml', text: 'language: python\napp: python main.py\n' },
    ];
    case 'java': return [
      { name: 'pom.xml', text: pom(name, version, source) },
      { name: 'cdk8s.yaml', text: 'language: java\napp: mvn -e -q compile exec:java\n' },
    ];
    case 'go': {
      // a replace path must start with ./ or ../ to name a folder
      const replace = source ? `\nreplace ${GO_MODULE} => ${source.relative.startsWith('.') ? '' : './'}${source.relative}\n` : '';
      return [
        { name: 'go.mod', text: `module ${name}\n\ngo ${GO_VERSION}\n\nrequire ${GO_MODULE} v${version}\n${replace}` },
        { name: 'cdk8s.yaml', text: 'language: go\napp: go run .\n' },
      ];
    }
  }
}

/** How each language's project is set up and run, and the file that names the library. */
interface ProjectRun {
  readonly main: string;
  readonly install: string;
  readonly synth: string;
  /** The file that names the library. */
  readonly file: string;
  readonly registry: string;
}

const RUN: { readonly [l in EjectLanguage]: ProjectRun } = {
  typescript: { main: 'main.ts', install: 'npm install', synth: 'npm run synth', file: 'package.json', registry: 'npm' },
  python: {
    main: 'main.py', install: 'python3 -m venv .venv && . .venv/bin/activate\npip install -r requirements.txt', synth: 'cdk8s synth', file: 'requirements.txt', registry: 'PyPI',
  },
  java: { main: 'Main.java', install: 'mvn -q compile', synth: 'cdk8s synth', file: 'pom.xml', registry: 'Maven Central' },
  go: { main: 'main.go', install: 'go mod tidy', synth: 'cdk8s synth', file: 'go.mod', registry: 'the Go module proxy' },
};

/** How to point the project at a local build by hand, per language (`PATH` the build). */
const BY_HAND: { readonly [l in EjectLanguage]: string } = {
  typescript: '`npm install PATH` here (package.json then names it as `file:PATH`)',
  python: '`pip install PATH` in the project\'s environment, or `cdk8s-dynamo @ file:///absolute/PATH` as the line of requirements.txt',
  java: 'a `<repositories>` entry in pom.xml whose `<url>` is `file:///absolute/PATH`',
  go: '`go mod edit -replace GO_MODULE=PATH` here',
};

/** README.md of the project: how to run it, where cdk8s-dynamo comes from, how to use a local build. */
export function projectReadme(language: EjectLanguage, name: string, version: string, source?: PackageSource): string {
  const run = RUN[language];
  const tick = '`';
  const code = (text: string) => `${tick}${text}${tick}`;
  const fence = tick.repeat(3);
  const where = source ? (language === 'python' || language === 'java' ? source.url : source.relative) : undefined;
  const lines = [
    `# ${name}`,
    '',
    `A cdk8s app written by ${code('cdk8s-dynamo eject')}: ${run.main} synthesizes the Dynamo documents it was ejected from`
      + (language === 'typescript' ? ', and cdk8s.yaml lists the library\'s validation plugin.' : '.'),
    '',
    `${fence}sh`,
    run.install,
    `${run.synth}              # writes dist/*.k8s.yaml`,
    'kubectl apply -f dist/',
    fence,
    '',
    ...(language === 'typescript' ? [
      `${code('npm run synth')} is ${code('cdk8s synth --no-check-upgrade')}: without the flag, the cdk8s CLI looks for a newer version of itself`,
      'on the npm registry, and prints a stack trace when it cannot reach it.',
      '',
    ] : [
      `${code('cdk8s')} is the cdk8s CLI (${code('npm install -g cdk8s-cli')}); ${code('cdk8s synth')} runs the app as cdk8s.yaml says. Offline,`,
      `add ${code('--no-check-upgrade')} (or set ${code('CDK8S_CHECK_UPGRADE=false')}): the CLI's look for a newer version of itself prints a stack`,
      'trace when it cannot reach the npm registry.',
      '',
      'The library runs its code on Node.js: use Node 22 or later. On Node 20, past its end of life, the jsii runtime prints a',
      `banner saying so${language === 'python' ? ' (as b\'...\' lines)' : ''}; ${code('JSII_SILENCE_WARNING_END_OF_LIFE_NODE_VERSION=20')} silences it.`,
      '',
    ]),
    '## Where cdk8s-dynamo comes from',
    '',
    where !== undefined
      ? `${run.file} takes cdk8s-dynamo from a local build: ${code(where)}.`
      : `${run.file} takes cdk8s-dynamo ${version} from ${run.registry}.`,
    '',
    `Until cdk8s-dynamo ${version} is published on ${run.registry}, use a local build: in a clone of cdk8s-dynamo,`,
    `${code(`npx projen compile && npx projen package:${language === 'typescript' ? 'js' : language}`)} writes ${code(localBuildPath(language, version))}.`,
    `Then eject again with ${code('--package-source PATH')} (PATH that build; ${code('--force')} replaces these files), or point`,
    `the project at it by hand: ${BY_HAND[language].replace('GO_MODULE', GO_MODULE)}.`,
    '',
  ];
  return lines.join('\n');
}

/** The Go module of the library, and the Go release the generated code needs. */
export const GO_MODULE = 'github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo';
const GO_VERSION = '1.23';

function pom(name: string, version: string, source: PackageSource | undefined): string {
  const artifact = name.replace(/[^A-Za-z0-9_.-]/g, '-');
  const repositories = source ? `
  <repositories>
    <!-- the local build of cdk8s-dynamo (a Maven repository folder) -->
    <repository>
      <id>cdk8s-dynamo-local</id>
      <url>${source.url}</url>
    </repository>
  </repositories>
` : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<project xmlns="http://maven.apache.org/POM/4.0.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
         xsi:schemaLocation="http://maven.apache.org/POM/4.0.0 http://maven.apache.org/xsd/maven-4.0.0.xsd">
  <modelVersion>4.0.0</modelVersion>
  <groupId>app</groupId>
  <artifactId>${artifact}</artifactId>
  <version>0.0.0</version>
  <packaging>jar</packaging>

  <properties>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>

  <dependencies>
    <!-- brings org.cdk8s:cdk8s, org.cdk8s:cdk8s-plus-34 and software.constructs:constructs -->
    <dependency>
      <groupId>io.github.cdk8s-dynamo</groupId>
      <artifactId>cdk8s-dynamo</artifactId>
      <version>${version}</version>
    </dependency>
  </dependencies>
${repositories}
  <build>
    <!-- Main.java beside this file -->
    <sourceDirectory>\${project.basedir}</sourceDirectory>
    <plugins>
      <plugin>
        <groupId>org.apache.maven.plugins</groupId>
        <artifactId>maven-compiler-plugin</artifactId>
        <version>3.14.0</version>
        <configuration>
          <includes>
            <include>Main.java</include>
          </includes>
        </configuration>
      </plugin>
      <plugin>
        <groupId>org.codehaus.mojo</groupId>
        <artifactId>exec-maven-plugin</artifactId>
        <version>3.5.0</version>
        <configuration>
          <mainClass>Main</mainClass>
        </configuration>
      </plugin>
    </plugins>
  </build>
</project>
`;
}

/** A package name of the app: the name of its first graph, as npm accepts it. */
export function packageName(documentName: string | undefined): string {
  const name = (documentName ?? '').toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '').slice(0, 200);
  return name === '' ? 'dynamo-app' : name;
}
