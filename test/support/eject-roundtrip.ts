/**
 * The round trip of `eject`: the generated apps compiled under `strict` in ONE TypeScript program
 * (`cdk8s-dynamo` mapped to the project's own src/), each then run (`app.synth()` into a temporary
 * folder) and its synthesized objects read back, to compare with what the input means.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import * as ts from 'typescript';
import { readDocuments, writeDocuments } from './facade';
import { CORPUS_DIR, filledTemplate, withVersionedImages } from './shared';
import * as library from '../../src';

const ROOT = path.resolve(__dirname, '..', '..');
/** Where the apps are placed for the compiler (never written: the compiler host serves them). */
const VIRTUAL_DIR = path.join(ROOT, '.eject-apps');

/** The compiler options of the README's quick start (strict), `cdk8s-dynamo` mapped to src/. */
const OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2022,
  module: ts.ModuleKind.CommonJS,
  moduleResolution: ts.ModuleResolutionKind.Node10,
  strict: true,
  esModuleInterop: true,
  skipLibCheck: true,
  noEmit: true,
  types: [],
  ignoreDeprecations: '6.0',
  paths: { 'cdk8s-dynamo': [path.join(ROOT, 'src', 'index.ts')] },
};

/** The compiler's errors of each app (by the name given), all apps checked in one program. */
export function compileApps(apps: ReadonlyMap<string, string>): Map<string, string[]> {
  const files = new Map<string, string>();
  for (const [name, code] of apps) files.set(path.join(VIRTUAL_DIR, `${name.replace(/[^\w.-]/g, '_')}.ts`), code);
  const host = ts.createCompilerHost(OPTIONS);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (fileName, languageVersion, onError, shouldCreate) => {
    const text = files.get(path.resolve(fileName));
    if (text !== undefined) return ts.createSourceFile(fileName, text, languageVersion, true);
    return getSourceFile(fileName, languageVersion, onError, shouldCreate);
  };
  const fileExists = host.fileExists.bind(host);
  host.fileExists = fileName => files.has(path.resolve(fileName)) || fileExists(fileName);
  const readFile = host.readFile.bind(host);
  host.readFile = fileName => files.get(path.resolve(fileName)) ?? readFile(fileName);
  const program = ts.createProgram([...files.keys()], OPTIONS, host);
  const errors = new Map<string, string[]>();
  const names = [...apps.keys()];
  [...files.keys()].forEach((file, i) => {
    const source = program.getSourceFile(file)!;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    errors.set(names[i], diagnostics.map(d => {
      const where = d.start === undefined ? '' : `${source.getLineAndCharacterOfPosition(d.start).line + 1}: `;
      return `${where}${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    }));
  });
  const global = program.getGlobalDiagnostics().map(d => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
  if (global.length > 0) throw new Error(`the program of the ejected apps: ${global.join('; ')}`);
  return errors;
}

/** Runs an app (its TypeScript transpiled) and returns the objects `app.synth()` writes, chart by chart. */
export function runApp(code: string): unknown[] {
  const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'eject-synth-'));
  try {
    synthApp(code, outdir);
    return fs.readdirSync(outdir).sort().flatMap(file => readDocuments(fs.readFileSync(path.join(outdir, file), 'utf8'), file));
  } finally {
    fs.rmSync(outdir, { recursive: true, force: true });
  }
}

/**
 * Runs an app (its TypeScript transpiled) with `outdir` as its output folder, and `env` set
 * meanwhile (as the cdk8s CLI sets `CDK8S_RECORD_CONSTRUCT_METADATA`).
 */
export function synthApp(code: string, outdir: string, env: { readonly [name: string]: string } = {}): void {
  const compilerOptions = { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, esModuleInterop: true };
  const js = ts.transpileModule(code, { compilerOptions }).outputText;
  const vars = { ...env, CDK8S_OUTDIR: outdir };
  const before = Object.fromEntries(Object.keys(vars).map(name => [name, process.env[name]]));
  Object.assign(process.env, vars);
  try {
    const modules: { [name: string]: unknown } = {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      'cdk8s': require('cdk8s'), 'cdk8s-plus-34': require('cdk8s-plus-34'), 'cdk8s-dynamo': library,
    };
    const requireModule = (name: string): unknown => {
      if (!(name in modules)) throw new Error(`the app requires ${name}`);
      return modules[name];
    };
    const module = { exports: {} };
    new Function('require', 'module', 'exports', js)(requireModule, module, module.exports);
  } finally {
    for (const [name, value] of Object.entries(before)) {
      if (value === undefined) delete process.env[name]; else process.env[name] = value;
    }
  }
}

/** `apiVersion kind namespace/name` of an object, to pair the objects of two renderings. */
export function objectKey(o: unknown): string {
  const m = o as { apiVersion?: string; kind?: string; metadata?: { name?: string; namespace?: string } };
  return `${m.apiVersion} ${m.kind} ${m.metadata?.namespace ?? ''}/${m.metadata?.name ?? ''}`;
}

/** The platform the corpus targets (Grove and checkpointing), as an operator configuration file. */
export const CORPUS_OPERATOR_FILE = 'orchestrators:\n  grove:\n    enabled: true\ncheckpoint:\n  enabled: true\n';

/** A file of the corpus as ejected and rendered. */
export interface CorpusFile {
  readonly folder: 'v1beta1' | 'v1alpha1' | 'test/fixtures/eject' | 'generated';
  readonly file: string;
  /** The file as ejected and rendered: placeholders filled, images versioned. */
  readonly text: string;
}

/** The files of a folder of the corpus (`dir`, default the shared corpus), placeholders filled and images given a version as the corpus runner does. */
export function corpusFiles(folder: 'v1beta1' | 'v1alpha1', root: string | undefined = CORPUS_DIR): CorpusFile[] {
  const dir = path.join(root ?? '', folder);
  if (root === undefined || !fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter(f => f.endsWith('.yaml')).sort().map(file => {
    const docs = readDocuments(filledTemplate(fs.readFileSync(path.join(dir, file), 'utf8')), file).map(doc => withVersionedImages(doc));
    return { folder, file, text: writeDocuments(docs) };
  });
}
