/**
 * The files beside an ejected program (`eject --out DIR`), so that `cdk8s synth` runs the app:
 * TypeScript `package.json`, `tsconfig.json` and `cdk8s.yaml` of the README's quick start; Python
 * `requirements.txt` (the library, which brings its peers from PyPI) and `cdk8s.yaml`
 * (`python main.py`); Java `pom.xml` (the library, which brings its peers, and the exec plugin that
 * runs `Main`) and `cdk8s.yaml`; Go `go.mod` (the library's module; `go mod tidy` adds the peers)
 * and `cdk8s.yaml` (`go run .`).
 */
import { EjectLanguage } from './languages';

/** The oldest peer versions the library works with (README, Quick start). */
export const PEER_VERSIONS = { 'cdk8s': '^2.68.12', 'cdk8s-plus-34': '^2.0.20', 'constructs': '^10.3.0' } as const;

/** The development dependencies of the quick start (`cdk8s synth` runs the app through ts-node, which needs TypeScript 6 or 5). */
export const DEV_DEPENDENCIES = { '@types/node': '^20', 'cdk8s-cli': '^2', 'ts-node': '^10', 'typescript': '^6' } as const;

/** One file of the project. */
export interface ProjectFile {
  readonly name: string;
  readonly text: string;
}

/** `package.json`, `tsconfig.json` and `cdk8s.yaml` of an app named `name` using cdk8s-dynamo `version`. */
export function projectFiles(name: string, version: string): ProjectFile[] {
  const pkg = {
    name,
    version: '0.0.0',
    private: true,
    scripts: { synth: 'cdk8s synth' },
    dependencies: { 'cdk8s-dynamo': version, ...PEER_VERSIONS },
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

/** The project files of an app in `language` named `name` using cdk8s-dynamo `version`. */
export function languageProjectFiles(language: EjectLanguage, name: string, version: string): ProjectFile[] {
  switch (language) {
    case 'typescript': return projectFiles(name, version);
    case 'python': return [
      { name: 'requirements.txt', text: `cdk8s-dynamo==${version}\n` },
      { name: 'cdk8s.yaml', text: 'language: python\napp: python main.py\n' },
    ];
    case 'java': return [
      { name: 'pom.xml', text: pom(name, version) },
      { name: 'cdk8s.yaml', text: 'language: java\napp: mvn -e -q compile exec:java\n' },
    ];
    case 'go': return [
      { name: 'go.mod', text: `module ${name}\n\ngo ${GO_VERSION}\n\nrequire ${GO_MODULE} v${version}\n` },
      { name: 'cdk8s.yaml', text: 'language: go\napp: go run .\n' },
    ];
  }
}

/** The Go module of the library, and the Go release the generated code needs. */
export const GO_MODULE = 'github.com/cdk8s-dynamo/cdk8s-dynamo-go/cdk8sdynamo';
const GO_VERSION = '1.23';

function pom(name: string, version: string): string {
  const artifact = name.replace(/[^A-Za-z0-9_.-]/g, '-');
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
