/**
 * `cdk8s-dynamo convert`, and `render` / `validate` of nvidia.com/v1alpha1 documents (converted
 * first, said so on standard error), run in process.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { parseAllDocuments, stringify } from 'yaml';
import { runCliOn } from './support/cli-in-process';
import { CORPUS_DIR, describeNeeding, filledTemplate } from './support/shared';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

const ALPHA = `apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeployment
metadata:
  name: llm
spec:
  backendFramework: vllm
  services:
    Frontend:
      componentType: frontend
      replicas: 1
      extraPodSpec:
        mainContainer:
          image: ${IMAGE}
    decode:
      componentType: worker
      subComponentType: decode
      envFromSecret: hf-token-secret
      resources:
        limits:
          gpu: "1"
      extraPodSpec:
        mainContainer:
          image: ${IMAGE}
`;

const FILES: Record<string, string> = {
  'alpha.yaml': ALPHA,
  'mixed.yaml': `${ALPHA}---
apiVersion: v1
kind: ConfigMap
metadata:
  name: extra
data:
  a: b
`,
  'unknown.yaml': ALPHA.replace('replicas: 1', 'replica: 1'),
  'ingress.yaml': ALPHA.replace('      replicas: 1\n', '      replicas: 1\n      ingress:\n        enabled: true\n'),
  'labels.yaml': ALPHA.replace('      replicas: 1\n', '      replicas: 1\n      labels:\n        team: a\n'),
  'beta.yaml': `apiVersion: nvidia.com/v1beta1
kind: DynamoGraphDeployment
metadata:
  name: beta
spec:
  components:
    - name: Frontend
      type: frontend
      podTemplate:
        spec:
          containers:
            - name: main
              image: ${IMAGE}
`,
  'request.yaml': `apiVersion: nvidia.com/v1alpha1
kind: DynamoGraphDeploymentRequest
metadata:
  name: req
spec: {}
`,
};

function run(...argv: string[]) {
  const { code, stdout, stderr } = runCliOn(FILES, argv);
  return { code, stdout, stderr, docs: parseAllDocuments(stdout).map(d => d.toJS()) };
}

const CONVERTED_NOTICE = 'alpha.yaml:1:1: nvidia.com/v1alpha1 DynamoGraphDeployment/llm: converted to nvidia.com/v1beta1 first';

describe('convert', () => {
  test('writes the v1beta1 graph and nothing on standard error', () => {
    const r = run('convert', 'alpha.yaml');
    expect(r).toMatchObject({ code: 0, stderr: '' });
    expect(r.docs).toHaveLength(1);
    const [doc] = r.docs;
    expect(doc.apiVersion).toBe('nvidia.com/v1beta1');
    expect(doc.spec.components.map((c: any) => [c.name, c.type])).toEqual([['Frontend', 'frontend'], ['decode', 'decode']]);
    expect(doc.metadata.annotations['nvidia.com/dgd-spec']).toMatch(/^\{"version":1,"spec":\{"services":\{"decode":\{/);
  });

  test('other documents pass unchanged, in order', () => {
    const r = run('convert', 'mixed.yaml', 'beta.yaml');
    expect(r.code).toBe(0);
    expect(r.docs.map(d => `${d.apiVersion} ${d.kind}/${d.metadata.name}`)).toEqual([
      'nvidia.com/v1beta1 DynamoGraphDeployment/llm', 'v1 ConfigMap/extra', 'nvidia.com/v1beta1 DynamoGraphDeployment/beta',
    ]);
    expect(r.docs[2]).toEqual(parseAllDocuments(FILES['beta.yaml'])[0].toJS());
    expect(r.stderr).toBe('beta.yaml: no nvidia.com/v1alpha1 DynamoGraphDeployment or DynamoComponentDeployment; written unchanged\n');
  });

  test('v1alpha1 kinds other than the two are written unchanged, said so', () => {
    const r = run('convert', 'request.yaml');
    expect(r.code).toBe(0);
    expect(r.docs[0].apiVersion).toBe('nvidia.com/v1alpha1');
    expect(r.stderr).toContain('request.yaml:1:1: nvidia.com/v1alpha1 DynamoGraphDeploymentRequest/req: written unchanged (only DynamoGraphDeployment and DynamoComponentDeployment are converted)');
  });

  test('fields kept only in the annotation are named on standard error', () => {
    const r = run('convert', 'labels.yaml');
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('labels.yaml:11:7: DynamoGraphDeployment/llm: spec.services[Frontend].labels: has no v1beta1 field; kept only in annotation nvidia.com/dgd-spec\n');
  });

  test('a field the v1alpha1 API does not have: exit 1, nothing written', () => {
    const r = run('convert', 'unknown.yaml', 'alpha.yaml');
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe('unknown.yaml:10:7: DynamoGraphDeployment/llm: spec.services[Frontend].replica: unknown field "spec.services[Frontend].replica"\n');
  });

  test('an unreadable file: exit 1', () => {
    expect(run('convert', 'missing.yaml')).toMatchObject({ code: 1, stdout: '', stderr: 'cannot read missing.yaml: no such file\n' });
  });

  test('usage errors: exit 2', () => {
    expect(run('convert')).toMatchObject({ code: 2, stderr: expect.stringContaining('cdk8s-dynamo: no input FILE given\nusage:\n  cdk8s-dynamo convert [--out DIR] FILE...\n') });
    expect(run('convert', '--grove', 'alpha.yaml')).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown option "--grove" for convert') });
    expect(run('convert', '--out', 'd', 'alpha.yaml', 'alpha.yml').code).toBe(2);
  });

  test('--help and the program help name the command', () => {
    const help = run('convert', '--help');
    expect(help).toMatchObject({ code: 0, stderr: '' });
    expect(help.stdout).toContain('usage: cdk8s-dynamo convert [--out DIR] FILE...');
    const programHelp = run('--help');
    expect(programHelp.code).toBe(0);
    expect(programHelp.stdout).toContain('  cdk8s-dynamo convert [--out DIR] FILE...\n');
    expect(programHelp.stdout).toMatch(/\n {2}convert {4}write nvidia.com\/v1alpha1 Dynamo documents/);
    expect(run('help', 'convert')).toEqual(help);
  });

  test('--out DIR writes <input-name>.k8s.yaml and the manifest of what it wrote', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cdk8s-dynamo-convert-'));
    try {
      const r = run('convert', '--out', dir, 'alpha.yaml');
      expect(r).toMatchObject({ code: 0, stdout: '', stderr: '' });
      expect(fs.readdirSync(dir).sort()).toEqual(['.cdk8s-dynamo-outputs', 'alpha.k8s.yaml']);
      expect(fs.readFileSync(path.join(dir, 'alpha.k8s.yaml'), 'utf8')).toBe(run('convert', 'alpha.yaml').stdout);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('render and validate convert v1alpha1 documents first', () => {
  test('validate: converted, said so, valid', () => {
    const r = run('validate', 'alpha.yaml');
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(CONVERTED_NOTICE);
  });

  test('validate: a problem of the converted object, and the v1alpha1 request checks (rule 148)', () => {
    const r = run('validate', 'ingress.yaml');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ingress.yaml:11:7: DynamoGraphDeployment/llm: spec.services[Frontend].ingress.host: Required value: is required when ingress is enabled (rule 148)\n');
  });

  test('validate: what cannot be converted is a problem naming the field', () => {
    const r = run('validate', 'unknown.yaml');
    expect(r).toMatchObject({ code: 1, stdout: '' });
    expect(r.stderr).toBe('unknown.yaml:10:7: DynamoGraphDeployment/llm: spec.services[Frontend].replica: unknown field "spec.services[Frontend].replica"\n');
  });

  test('validate --old: a v1alpha1 OLD is converted as well', () => {
    const r = run('validate', '--old', 'alpha.yaml', 'alpha.yaml');
    expect(r.code).toBe(0);
  });

  test('render --output graph writes the v1beta1 graph', () => {
    const r = run('render', 'alpha.yaml');
    expect(r.code).toBe(0);
    expect(r.docs).toEqual(run('convert', 'alpha.yaml').docs);
    expect(r.stderr).toContain(CONVERTED_NOTICE);
  });

  test('render --output workloads renders the converted graph', () => {
    const r = run('render', '--output', 'workloads', 'alpha.yaml');
    expect(r.code).toBe(0);
    const kinds = r.docs.map(d => d.kind);
    expect(kinds).toContain('Deployment');
    expect(kinds).not.toContain('DynamoGraphDeployment');
    const decode = r.docs.find(d => d.kind === 'Deployment' && d.metadata.name.startsWith('llm-decode'));
    expect(decode.spec.template.spec.containers[0].envFrom).toContainEqual({ secretRef: { name: 'hf-token-secret' } });
  });
});

/** `ALPHA` with the decode worker's v1alpha1 `volumeMounts` (PVC name, mount point, compilation-cache flag). */
function withMounts(mounts: Array<[string, string, boolean?]>): string {
  const lines = mounts.map(([name, at, cache]) => `        - name: ${name}\n          mountPoint: ${at}\n${cache ? '          useAsCompilationCache: true\n' : ''}`);
  return ALPHA.replace('      envFromSecret: hf-token-secret\n', `      envFromSecret: hf-token-secret\n      volumeMounts:\n${lines.join('')}`);
}

describe('convert: the compilation-cache notice only when a mount beyond the first is flagged', () => {
  const mainMounts = (doc: any) => doc.spec.components[1].podTemplate.spec.containers[0].volumeMounts;

  test('plain mounts: converted, nothing on standard error', () => {
    const r = runCliOn({ 'm.yaml': withMounts([['model-cache', '/model-cache'], ['data', '/data']]) }, ['convert', 'm.yaml']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const [doc] = parseAllDocuments(r.stdout).map(d => d.toJS());
    expect(doc.spec.components[1].compilationCache).toBeUndefined();
    expect(mainMounts(doc)).toEqual([{ name: 'model-cache', mountPath: '/model-cache' }, { name: 'data', mountPath: '/data' }]);
  });

  test('one compilation-cache mount becomes compilationCache, nothing on standard error', () => {
    const r = runCliOn({ 'm.yaml': withMounts([['model-cache', '/model-cache'], ['cc', '/cache', true]]) }, ['convert', 'm.yaml']);
    expect(r).toMatchObject({ code: 0, stderr: '' });
    const [doc] = parseAllDocuments(r.stdout).map(d => d.toJS());
    expect(doc.spec.components[1].compilationCache).toEqual({ pvcName: 'cc', mountPath: '/cache' });
  });

  test('two compilation-cache mounts: the notice names the one that becomes a plain mount', () => {
    const r = runCliOn({ 'm.yaml': withMounts([['cc1', '/cache1', true], ['plain', '/p'], ['cc2', '/cache2', true]]) }, ['convert', 'm.yaml']);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('m.yaml:18:7: DynamoGraphDeployment/llm: spec.services[decode].volumeMounts: only the first mount with '
      + 'useAsCompilationCache ("cc1") becomes compilationCache; the others ("cc2") are plain mounts of the main container, their flag kept only in annotation nvidia.com/dgd-spec\n');
  });
});

describeNeeding('corpus')('convert: the v1alpha1 corpus files with volume mounts and no compilation cache', () => {
  const dir = path.join(CORPUS_DIR ?? '', 'v1alpha1');
  const files = fs.readdirSync(dir).filter(f => f.endsWith('.yaml')).sort().map(f => ({ file: f, text: filledTemplate(fs.readFileSync(path.join(dir, f), 'utf8')) }))
    .filter(({ text }) => text.includes('volumeMounts:') && !text.includes('useAsCompilationCache'));

  test('there are some', () => {
    expect(files.length).toBeGreaterThanOrEqual(3);
  });

  /** The document with every main-container mount moved to the v1alpha1 `volumeMounts` of its service. */
  const asServiceMounts = (doc: any): { doc: any; moved: number } => {
    let moved = 0;
    for (const svc of Object.values<any>(doc.spec?.services ?? {})) {
      const main = svc?.extraPodSpec?.mainContainer;
      if (!main?.volumeMounts) continue;
      svc.volumeMounts = main.volumeMounts.map((m: any) => ({ name: m.name, mountPoint: m.mountPath }));
      moved += main.volumeMounts.length;
      delete main.volumeMounts;
    }
    return { doc, moved };
  };

  test.each(files.map(f => [f.file, f.text]))('%s: no compilation-cache notice, as written and with the mounts in the service\'s volumeMounts', (file, text) => {
    const asWritten = runCliOn({ [file]: text }, ['convert', file]);
    expect(asWritten.code).toBe(0);
    expect(asWritten.stderr).not.toMatch(/compilationCache|compilation-cache/);
    const docs = parseAllDocuments(text).map(d => d.toJS());
    let moved = 0;
    const serviceMounts = docs.map(d => {
      const r = asServiceMounts(d);
      moved += r.moved;
      return r.doc;
    });
    expect(moved).toBeGreaterThan(0);
    const r = runCliOn({ [file]: serviceMounts.map(d => stringify(d)).join('---\n') }, ['convert', file]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toMatch(/compilationCache|compilation-cache/);
  });
});
