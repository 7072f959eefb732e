/**
 * The files beside an ejected `main.ts` (`eject --out DIR`): `package.json`, `tsconfig.json` and
 * `cdk8s.yaml` of the README's quick start, so that `npm install && npx cdk8s synth` runs the app.
 */

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
  const tsconfig = {
    compilerOptions: { target: 'ES2022', module: 'commonjs', moduleResolution: 'node', strict: true, esModuleInterop: true, skipLibCheck: true },
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

/** A package name of the app: the name of its first graph, as npm accepts it. */
export function packageName(documentName: string | undefined): string {
  const name = (documentName ?? '').toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/^[._-]+/, '').slice(0, 200);
  return name === '' ? 'dynamo-app' : name;
}
