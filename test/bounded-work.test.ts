/**
 * Bounded work on any input: the operator's patterns over command lines and CEL selectors agree
 * with the operator's regular expressions (Go RE2, linear) and stay linear on the inputs that make
 * a backtracking engine slow; quantities with huge exponents are read, compared and written
 * without materialising them. Work is bounded with sizes where the old code took minutes and a
 * generous limit the linear code meets by orders of magnitude (never a tight timer).
 */
import { Chart, Testing } from 'cdk8s';
import * as fc from 'fast-check';
import { parseAllDocuments } from 'yaml';
import { DynamoGraph, OutputMode } from '../src';
import { runCliOn } from './support/cli-in-process';
import { anyFuzzGraph } from './support/fuzz-graphs';
import { cliqueNames, longestCliqueName } from '../src/admission';
import {
  cliqueRoles, deviceClassGivesGpus, frameworksRunBy, injectFlagsIntoScript, longestCliqueNameLength,
  looksLikeGpuIdentifier, runsDynamoModule,
} from '../src/engine';
import { canonicalQuantity, compareQuantities, isWholeAmount, parseQuantity, schemaQuantity } from '../src/go';
import { stringifyYamlDocuments } from '../src/import';
import { ComponentSpecJson } from '../src/model';

/** RE2's `\s`, which the operator's patterns mean. */
const S = '[\\t\\n\\f\\r ]';

/** The operator's backend-detection pattern for one framework, as written (graph.go). */
const detectionPattern = (fw: string) => new RegExp(`python[0-9.]*${S}+[^|&;]*-m${S}+[^|&;]*dynamo\\.${fw}[^|&;]*`);
/** The operator's flag-injection pattern (utils.go), applied with replace-all. */
const injectByPattern = (script: string, flags: string, fw: string) =>
  script.replace(new RegExp(`(python[0-9.]*${S}+[^|&;]*${fw}[^|&;]*?)(${S}|$|[|&;])`, 'g'), (_m, head: string, delimiter: string) => `${head} ${flags}${delimiter}`);

/** Command lines built from the pieces the patterns care about (short: the reference pattern backtracks). */
const commandLine = fc.array(fc.constantFrom(
  'python', 'python3', 'python3.11', '3', '.', ' ', '  ', '\t', '\n', '\v', '\u00a0', '-m', '-', 'm', '-m ', 'dynamo', 'dynamo.', '.vllm',
  'vllm', 'sglang', 'trtllm', 'dynamo.vllm', 'dynamo.sglang', 'x', '|', '&', ';', '&&', '=', '"', 'frontend',
), { maxLength: 24 }).map(parts => parts.join(''));

/** Seconds a call takes (for a generous bound only). */
function secondsOf(run: () => unknown): number {
  const start = process.hrtime.bigint();
  run();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

describe('backend detection (python … -m … dynamo.<framework>)', () => {
  test('agrees with the operator pattern on generated command lines', () => {
    const seen = new Set<boolean>();
    fc.assert(fc.property(commandLine, fc.constantFrom('vllm', 'sglang', 'trtllm'), (line, fw) => {
      const expected = detectionPattern(fw).test(line);
      seen.add(expected);
      expect(runsDynamoModule(line, fw)).toBe(expected);
    }), { numRuns: 20000, seed: 20261203 });
    // a fixed seed: both outcomes are drawn (random seeds sometimes drew no matching line at all)
    expect([...seen].sort()).toEqual([false, true]);
  });

  test('examples: one segment, RE2 white space only', () => {
    expect(frameworksRunBy(['python3', '-m', 'dynamo.vllm', '--model', 'm'])).toEqual(['vllm']);
    expect(frameworksRunBy(['sh', '-c', 'echo x | python3.11 -u -m dynamo.sglang.worker'])).toEqual(['sglang']);
    expect(frameworksRunBy(['python3 -m x; dynamo.vllm'])).toEqual([]);
    expect(frameworksRunBy(['python3 -mdynamo.vllm'])).toEqual([]);
    // \v and no-break space are not white space to RE2
    expect(frameworksRunBy(['python3\u000b-m dynamo.vllm'])).toEqual([]);
    expect(frameworksRunBy(['python3 -m\u00a0dynamo.vllm'])).toEqual([]);
    expect(frameworksRunBy(['python3 -m dynamo.vllm && python3 -m dynamo.trtllm'])).toEqual(['vllm', 'trtllm']);
  });

  test('an argument repeating `python3 -m ` 100k times is read in linear time', () => {
    for (const size of [1_000, 10_000, 100_000]) {
      const line = 'python3 -m '.repeat(size);
      const seconds = secondsOf(() => expect(frameworksRunBy([line])).toEqual([]));
      expect(seconds).toBeLessThan(2);
    }
    const words = Array.from({ length: 100_000 }, () => 'python3 -m x');
    expect(secondsOf(() => frameworksRunBy([...words, '--', 'dynamo.vllm']))).toBeLessThan(2);
  });
});

describe('flag injection into a shell script', () => {
  const flags = '--nnodes 2 --node-rank 0';

  test('agrees with the operator pattern (replace-all) on generated scripts', () => {
    let changed = 0;
    fc.assert(fc.property(commandLine, fc.constantFrom('vllm', 'sglang'), (script, fw) => {
      const expected = injectByPattern(script, flags, fw);
      if (expected !== script) changed++;
      expect(injectFlagsIntoScript(script, flags, fw as 'vllm' | 'sglang')).toBe(expected);
    }), { numRuns: 20000 });
    expect(changed).toBeGreaterThan(100);
  });

  test('a script repeating `python3 -m ` 100k times is read in linear time', () => {
    for (const size of [1_000, 10_000, 100_000]) {
      const script = 'python3 -m '.repeat(size) + 'x';
      expect(secondsOf(() => expect(injectFlagsIntoScript(script, flags, 'vllm')).toBe(script))).toBeLessThan(2);
    }
    const script = 'python3 -m dynamo.vllm;'.repeat(100_000);
    let out = '';
    expect(secondsOf(() => { out = injectFlagsIntoScript(script, '-f', 'vllm'); })).toBeLessThan(2);
    expect(out).toBe('python3 -m dynamo.vllm -f;'.repeat(100_000));
  });
});

describe('GPU drivers named by a DeviceClass selector', () => {
  const classWith = (expression: string) => ({ metadata: { name: 'c' }, spec: { selectors: [{ cel: { expression } }] } });
  const driverPattern = /(?:^|&&)[\t\n\f\r ]*\(*[\t\n\f\r ]*device\.driver[\t\n\f\r ]*==[\t\n\f\r ]*["']([^"']+)["']/g;
  const selector = fc.array(fc.constantFrom(' ', '\t', '(', ')', '&&', 'device.driver', '==', '"gpu.nvidia.com"', "'x'", '"', 'x', '&& device.driver == "gpu.nvidia.com"', "&&(device.driver=='x'"), { maxLength: 16 })
    .map(parts => parts.join(''));

  test('finds the same driver terms as the operator pattern', () => {
    const seenKinds = new Set<string>();
    fc.assert(fc.property(selector, expression => {
      const kinds = new Set([...expression.matchAll(driverPattern)].map(m => looksLikeGpuIdentifier(m[1])));
      // no driver term: the class's extendedResourceName decides (not a GPU one here)
      const deviceClass = { metadata: { name: 'c' }, spec: { extendedResourceName: 'example.com/fpga', selectors: [{ cel: { expression } }] } };
      seenKinds.add(kinds.size === 1 ? String([...kinds][0]) : String(kinds.size));
      if (kinds.size === 2) expect(() => deviceClassGivesGpus(deviceClass, [], 'DCD/x', 'f')).toThrow(/GPU and non-GPU/);
      else expect(deviceClassGivesGpus(deviceClass, [], 'DCD/x', 'f')).toBe(kinds.has(true));
    }), { numRuns: 5000 });
    expect([...seenKinds].sort()).toEqual(['0', '2', 'false', 'true']);
  });

  test('a long white-space run after && is read in linear time', () => {
    for (const size of [1_000, 10_000, 100_000]) {
      const expression = `x && ${' '.repeat(size)}(${' '.repeat(size)}device.driver == "gpu.nvidia.com"`;
      expect(secondsOf(() => expect(deviceClassGivesGpus(classWith(expression), [], 'DCD/x', 'f')).toBe(true))).toBeLessThan(2);
      const miss = `&&${' '.repeat(size)}x`;
      expect(secondsOf(() => expect(() => deviceClassGivesGpus(classWith(miss), [], 'DCD/x', 'f')).toThrow(/cannot tell/))).toBeLessThan(2);
    }
  });
});

describe('quantities with huge exponents', () => {
  test('are read, compared and written in constant time, as Go reads them', () => {
    const seconds = secondsOf(() => {
      expect(canonicalQuantity('1e999999999')).toBe('1e999999999');
      expect(canonicalQuantity('1.5e999999999')).toBe('1500e999999996');
      // rounded up to nano precision, still in exponent notation
      expect(canonicalQuantity('1e-999999999')).toBe('1e-9');
      expect(canonicalQuantity('-1e-2147483647')).toBe('-1e-9');
      expect(canonicalQuantity('0e-2147483647')).toBe('0');
      expect(canonicalQuantity('12345678901234567890123e999999999')).toBe('12345678901234567890123e999999999');
      expect(compareQuantities('1e999999999', '2e999999998')).toBe(1);
      expect(compareQuantities('1e999999999', '10e999999998')).toBe(0);
      expect(compareQuantities('-1e999999999', '1')).toBe(-1);
      expect(compareQuantities('1e-999999999', '1n')).toBe(0);
      expect(compareQuantities('1000000000000000000001e-30', '2n')).toBe(0);
      expect(isWholeAmount(parseQuantity('1e999999999').amount)).toBe(true);
      expect(isWholeAmount(parseQuantity('0e-999999999').amount)).toBe(true);
      expect(isWholeAmount(parseQuantity('1e-999999999').amount)).toBe(false);
    });
    expect(seconds).toBeLessThan(2);
  });

  test('the schema-level checks read them with Go\'s sign and value', () => {
    expect(schemaQuantity('-1e999999999')).toEqual({ sign: -1, value: -Infinity });
    expect(schemaQuantity('1e-999999999')).toEqual({ sign: 1, value: 1e-9 });
    expect(schemaQuantity('0e999999999')).toEqual({ sign: 0, value: 0 });
    expect(schemaQuantity('-1e99999999.5')?.sign).toBe(-1);
    const graph = (size: string) => [
      'apiVersion: nvidia.com/v1beta1',
      'kind: DynamoGraphDeployment',
      'metadata: {name: llm}',
      'spec:',
      '  components:',
      '    - name: decode',
      '      type: decode',
      `      sharedMemorySize: "${size}"`,
      '      podTemplate: {spec: {containers: [{name: main, image: "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"}]}}',
      '',
    ].join('\n');
    const negative = runCliOn({ 'g.yaml': graph('-1e999999999') }, ['validate', 'g.yaml']);
    expect(negative.code).toBe(1);
    expect(negative.stderr).toContain('spec.components[0].sharedMemorySize (component "decode"): Invalid value: "-1e999999999": must be non-negative (rule 100)');
    expect(runCliOn({ 'g.yaml': graph('1e999999999') }, ['validate', 'g.yaml']).code).toBe(0);
  });

  test('the exponent is a 64-bit integer cut to 32 bits (strconv.ParseInt, then int32)', () => {
    expect(canonicalQuantity('1e4294967296')).toBe('1e4294967296');
    expect(compareQuantities('1e4294967296', '1')).toBe(0);
    expect(canonicalQuantity('1e4294967297')).toBe('10');
    expect(canonicalQuantity('1e9223372036854775807')).toBe('100e-3');
    expect(() => parseQuantity('1e9223372036854775808')).toThrow(/unknown suffix/);
    // canonical as written (exponent a multiple of 3, no trailing zeros): kept verbatim, as Go keeps it
    expect(canonicalQuantity('1e00000000000000000000000000003')).toBe('1e00000000000000000000000000003');
    expect(compareQuantities('1e00000000000000000000000000003', '1k')).toBe(0);
  });

  test('comparison agrees with exact arithmetic on generated quantities', () => {
    const exact = (text: string): [bigint, number] => {
      const { unscaled, exp10 } = parseQuantity(text).amount;
      return [unscaled, exp10];
    };
    const quantity = fc.tuple(fc.constantFrom('', '-'), fc.stringMatching(/^[0-9]{1,25}$/), fc.constantFrom('', 'm', 'k', 'Ki', 'Gi', 'e', 'e-', 'E'), fc.integer({ min: 0, max: 60 }))
      .map(([sign, digits, suffix, e]) => `${sign}${digits}${suffix}${suffix.startsWith('e') || suffix === 'E' ? e : ''}`);
    fc.assert(fc.property(quantity, quantity, (a, b) => {
      const [ua, ea] = exact(a);
      const [ub, eb] = exact(b);
      const e = Math.min(ea, eb);
      const x = ua * 10n ** BigInt(ea - e);
      const y = ub * 10n ** BigInt(eb - e);
      expect(compareQuantities(a, b)).toBe(x < y ? -1 : x > y ? 1 : 0);
      expect(isWholeAmount(parseQuantity(a).amount)).toBe(ea >= 0 || ua % 10n ** BigInt(-ea) === 0n);
    }), { numRuns: 5000 });
  });

  test('the library synthesizes `cpu: 1e999999999` at once, in graph and workloads output', () => {
    for (const output of [OutputMode.GRAPH, OutputMode.WORKLOADS]) {
      const chart = new Chart(Testing.app(), 'test');
      DynamoGraph.fromObject(chart, 'Graph', {
        apiVersion: 'nvidia.com/v1beta1',
        kind: 'DynamoGraphDeployment',
        metadata: { name: 'g' },
        spec: {
          backendFramework: 'vllm',
          components: [{
            name: 'decode',
            type: 'decode',
            podTemplate: {
              spec: {
                containers: [{
                  name: 'main',
                  image: 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0',
                  resources: { limits: { cpu: '1e999999999' }, requests: { cpu: '1e999999998' } },
                }],
              },
            },
          }],
        },
      }, { output });
      let objects: any[] = [];
      expect(secondsOf(() => { objects = Testing.synth(chart); })).toBeLessThan(20);
      const pod = output === OutputMode.GRAPH ? objects[0].spec.components[0].podTemplate : objects.find(o => o.kind === 'Deployment').spec.template;
      // the graph keeps the text as written; the operator's Deployment has Go's canonical form
      const request = output === OutputMode.GRAPH ? '1e999999998' : '100e999999996';
      expect(pod.spec.containers.find((c: { name: string }) => c.name === 'main').resources).toEqual({ limits: { cpu: '1e999999999' }, requests: { cpu: request } });
    }
  });

  test('`cpu: 1e999999999` in a graph validates and renders at once, written as given', () => {
    const graph = (cpu: string) => [
      'apiVersion: nvidia.com/v1beta1',
      'kind: DynamoGraphDeployment',
      'metadata: {name: llm}',
      'spec:',
      '  backendFramework: vllm',
      '  components:',
      '    - name: decode',
      '      type: decode',
      '      podTemplate:',
      '        spec:',
      '          containers:',
      '            - name: main',
      '              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0',
      `              resources: {limits: {cpu: ${cpu}}, requests: {cpu: ${cpu}}}`,
      '',
    ].join('\n');
    for (const cpu of ['1e999999999', '"1e-999999999"', '0e-999999999']) {
      let validate: ReturnType<typeof runCliOn> | undefined;
      let render: ReturnType<typeof runCliOn> | undefined;
      const seconds = secondsOf(() => {
        validate = runCliOn({ 'g.yaml': graph(cpu) }, ['validate', 'g.yaml']);
        render = runCliOn({ 'g.yaml': graph(cpu) }, ['render', '--output', 'workloads', 'g.yaml']);
      });
      expect(seconds).toBeLessThan(20);
      expect(withoutSummary(validate!.stderr)).toBe('');
      expect(validate!.code).toBe(0);
      expect(render!.code).toBe(0);
      const deployment = parseAllDocuments(render!.stdout).map(d => d.toJSON()).find(o => o?.kind === 'Deployment');
      const expected = cpu === '1e999999999' ? '1e999999999' : cpu === '0e-999999999' ? '0' : '1e-9';
      expect(deployment.spec.template.spec.containers[0].resources.limits.cpu).toBe(expected);
    }
  });
});

describe('input size limits before parsing', () => {
  const graphWithEnv = (entries: string, comments = '') => [
    'apiVersion: nvidia.com/v1beta1',
    'kind: DynamoGraphDeployment',
    'metadata: {name: llm}',
    'spec:',
    '  backendFramework: vllm',
    comments,
    '  components:',
    '    - name: decode',
    '      type: decode',
    '      podTemplate:',
    '        spec:',
    '          containers:',
    '            - name: main',
    '              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0',
    '              env:',
    entries,
  ].join('\n');
  const envEntries = (count: number) => Array.from({ length: count }, (_, i) => `                - name: VARIABLE_NUMBER_${i}\n                  value: "some value for variable ${i}"`).join('\n');

  test('a document far over the API server limit is refused before it is parsed', () => {
    const text = graphWithEnv(envEntries(300_000));
    let run: ReturnType<typeof runCliOn> | undefined;
    // the YAML parser never sees the text (parsing it would take tens of seconds)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const parse = jest.spyOn(require('yaml') as typeof import('yaml'), 'parseAllDocuments');
    try {
      expect(secondsOf(() => { run = runCliOn({ 'g.yaml': `kind: ConfigMap\napiVersion: v1\nmetadata: {name: c}\n---\n${text}` }, ['validate', 'g.yaml']); })).toBeLessThan(5);
      expect(parse).not.toHaveBeenCalled();
      // (the spy sees what the CLI parses)
      runCliOn({ 'small.yaml': graphWithEnv(envEntries(1)) }, ['validate', 'small.yaml']);
      expect(parse).toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
    expect(run!.code).toBe(1);
    expect(run!.stderr).toContain('g.yaml: the document from line 4: Too long: it holds more than 6291456 bytes of YAML (not counting indentation and comments), not read');
    expect(run!.stderr).not.toMatch(/internal error|\n\s+at /);
  });

  test('indentation and comments do not count: a 2 MiB object in 8 MiB of text is read', () => {
    const comments = Array.from({ length: 60_000 }, () => `  # ${'x'.repeat(100)}`).join('\n');
    const text = graphWithEnv(envEntries(20_000), comments);
    expect(text.length).toBeGreaterThan(6 * 1024 * 1024);
    const run = runCliOn({ 'g.yaml': text }, ['validate', 'g.yaml']);
    expect(run.stderr).toBe('validated 1 object in 1 file: ok\n');
    expect(run.code).toBe(0);
  });

  test('an object over 3 MiB as JSON is still refused after reading, by its JSON size', () => {
    const run = runCliOn({ 'g.yaml': graphWithEnv(envEntries(45_000)) }, ['validate', 'g.yaml']);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/Too long: the object is \d+ bytes as JSON; the API server accepts at most 3145728 bytes \(3 MiB\) per request/);
  });
});

describe('nulls read as the API server stores them', () => {
  const graph = (annotations: string) => [
    'apiVersion: nvidia.com/v1beta1',
    'kind: DynamoGraphDeployment',
    'metadata:',
    '  name: llm',
    `  annotations: {${annotations}}`,
    '  labels: {team: null}',
    'spec:',
    '  backendFramework: vllm',
    '  components:',
    '    - name: decode',
    '      type: decode',
    '      podTemplate:',
    '        metadata: {annotations: {dropped: null, kept: x}, labels: {gone: null}}',
    '        spec:',
    '          containers:',
    '            - name: main',
    '              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0',
    '              command: null',
    '              env: [{name: X, value: null}, {name: Z, value: zz}]',
    '              resources: {limits: {nvidia.com/gpu: 1, cpu: null}, requests: null}',
    '',
  ].join('\n');

  test('a null annotation of the object is the empty string: the webhook\'s verdict on "", no internal error', () => {
    const text = graph('nvidia.com/vllm-distributed-executor-backend: null');
    for (const argv of [['validate'], ['render', '--output', 'workloads']]) {
      const run = runCliOn({ 'g.yaml': text }, [...argv, 'g.yaml']);
      expect(run.code).toBe(1);
      expect(run.stderr).toMatch(/^g\.yaml:\d+:\d+: DynamoGraphDeployment\/llm: metadata\.annotations\[nvidia\.com\/vllm-distributed-executor-backend\]: Invalid value: "": must be "mp" or "ray" \(rule 2\)\n$/);
    }
  });

  test('null fields and map values of the spec are dropped, as the CRD schema prunes them', () => {
    const text = graph('other: null');
    expect(runCliOn({ 'g.yaml': text }, ['validate', 'g.yaml'])).toEqual({ code: 0, stdout: expect.anything(), stderr: 'validated 1 object in 1 file: ok\n' });
    const run = runCliOn({ 'g.yaml': text }, ['render', '--output', 'workloads', 'g.yaml']);
    expect(withoutSummary(run.stderr)).toBe('');
    expect(run.code).toBe(0);
    const objects = parseAllDocuments(run.stdout).map(d => d.toJSON());
    const deployment = objects.find(o => o?.kind === 'Deployment');
    const template = deployment.spec.template;
    expect(template.metadata.annotations.kept).toBe('x');
    expect('dropped' in template.metadata.annotations).toBe(false);
    expect('gone' in (template.metadata.labels ?? {})).toBe(false);
    const main = template.spec.containers.find((c: { name: string }) => c.name === 'main');
    expect(main.env.filter((e: { name: string }) => e.name === 'X' || e.name === 'Z')).toEqual([{ name: 'X' }, { name: 'Z', value: 'zz' }]);
    expect('cpu' in main.resources.limits).toBe(false);
    expect(run.stdout).not.toMatch(/: null$/m);
  });

  test('a null anywhere in a generated graph gets a verdict, never an internal error', () => {
    const nodes = (value: unknown, at: Array<string | number> = [], out: Array<Array<string | number>> = []) => {
      if (value !== null && typeof value === 'object') {
        for (const [key, child] of Object.entries(value)) {
          const path = [...at, Array.isArray(value) ? Number(key) : key];
          out.push(path);
          nodes(child, path, out);
        }
      }
      return out;
    };
    // annotations the engine reads, with values the API server takes
    const annotations = {
      'nvidia.com/vllm-distributed-executor-backend': 'mp',
      'nvidia.com/enable-metrics': 'true',
      'nvidia.com/dynamo-discovery-backend': 'kubernetes',
      'nvidia.com/dynamo-base-model': 'Qwen/Qwen3-0.6B',
      'note': 'x',
    };
    const annotationPaths = Object.keys(annotations).map(key => ['metadata', 'annotations', key]);
    fc.assert(fc.property(anyFuzzGraph, fc.nat(), fc.boolean(), ({ graph: generated }, pick, annotation) => {
      const doc = JSON.parse(JSON.stringify({ ...generated, metadata: { ...generated.metadata, annotations, labels: { team: 'a' } } }));
      const all = annotation ? annotationPaths : nodes(doc);
      const path = all[pick % all.length];
      let parent = doc;
      for (const key of path.slice(0, -1)) parent = parent[key];
      parent[path[path.length - 1]] = null;
      for (const argv of [['validate'], ['render', '--output', 'workloads']]) {
        const run = runCliOn({ 'g.yaml': stringifyYamlDocuments([doc]) }, [...argv, 'g.yaml']);
        expect(run.stderr).not.toMatch(/internal error|TypeError|\n\s+at /);
        expect([0, 1]).toContain(run.code);
        if (run.code === 1) expect(run.stderr).toMatch(/^g\.yaml(:\d+:\d+)?: /);
      }
    }), { numRuns: 60, seed: 23 });
  });
});

/** The notice every accepted multinode graph gets: the operator copies its MPI SSH key Secret (not rendered). */
/** Standard error without the summary line of a successful render or validate. */
const withoutSummary = (stderr: string) => stderr.replace(/^(rendered|validated) \d+ objects? in \d+ files?: .*\n/m, '');

const mpiSshNotice = (graph: string) => `g.yaml:1:1: nvidia.com/v1beta1 DynamoGraphDeployment/${graph}: the operator copies the MPI SSH key Secret `
  + 'mpi-run-ssh-secret from namespace dynamo-system into namespace default (unless one of that name is there already); '
  + 'not rendered: its key pair is generated in the cluster\n';

describe('objects that grow with the node count', () => {
  /** The operator's inter-pod GPU memory service failover sample (deploy/operator/samples), over `nodeCount` nodes. */
  const interPod = (nodeCount: number) => [
    'apiVersion: nvidia.com/v1beta1',
    'kind: DynamoGraphDeployment',
    'metadata: {name: llm-serving-mn}',
    'spec:',
    '  backendFramework: vllm',
    '  components:',
    '    - name: agg',
    '      type: worker',
    '      experimental: {failover: {mode: InterPod, numShadows: 1}, gpuMemoryService: {mode: InterPod}}',
    `      multinode: {nodeCount: ${nodeCount}}`,
    '      podTemplate:',
    '        spec:',
    '          containers:',
    '            - name: main',
    '              image: nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0',
    '              command: [python3, -m, dynamo.vllm]',
    '              args: [--model, Qwen/Qwen3-0.6B, --tensor-parallel-size, "2"]',
    '              resources: {limits: {nvidia.com/gpu: "1"}}',
    '    - name: frontend',
    '      type: frontend',
    '      podTemplate: {spec: {containers: [{name: main, image: "nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0"}]}}',
    '',
  ].join('\n');
  const trtllm = (nodeCount: number) => [
    'apiVersion: nvidia.com/v1beta1',
    'kind: DynamoGraphDeployment',
    'metadata: {name: llm}',
    'spec:',
    '  backendFramework: trtllm',
    '  components:',
    '    - name: decode',
    '      type: decode',
    `      multinode: {nodeCount: ${nodeCount}}`,
    '      podTemplate:',
    '        spec:',
    '          containers:',
    '            - name: main',
    '              image: nvcr.io/nvidia/ai-dynamo/tensorrtllm-runtime:1.4.0',
    '              command: [python3, -m, dynamo.trtllm]',
    '              args: [--model, m]',
    '              resources: {limits: {nvidia.com/gpu: 1}}',
    '',
  ].join('\n');

  test('a TensorRT-LLM leader naming more hosts than an object holds is refused, early when the count alone tells', () => {
    const small = runCliOn({ 'g.yaml': trtllm(1000) }, ['render', '--output', 'workloads', 'g.yaml']);
    expect(withoutSummary(small.stderr)).toBe(mpiSshNotice('llm'));
    expect(small.code).toBe(0);
    // the LeaderWorkerSet's host list is over 3 MiB: the API server refuses it, so the operator cannot create it
    const over = runCliOn({ 'g.yaml': trtllm(60_000) }, ['render', '--output', 'workloads', 'g.yaml']);
    expect(over.code).toBe(1);
    expect(over.stderr).toMatch(/^g\.yaml:\d+:\d+: DynamoGraphDeployment\/llm: LeaderWorkerSet llm-decode-[0-9a-f]+-0: Too long: the object the operator creates is \d+ bytes as JSON; the API server accepts at most 3145728 bytes \(3 MiB\) per request, so the operator could not create it\n$/);
    // 2^31-1 nodes (what the schema allows): refused before any host name is written
    let huge: ReturnType<typeof runCliOn> | undefined;
    expect(secondsOf(() => { huge = runCliOn({ 'g.yaml': trtllm(2_147_483_647) }, ['render', '--grove', '--output', 'workloads', 'g.yaml']); })).toBeLessThan(5);
    expect(huge!.code).toBe(1);
    expect(huge!.stderr).toContain('spec.multinode.nodeCount: Too long: the TensorRT-LLM leader\'s mpirun line names the host of each of the 2147483647 nodes');
  });

  test('an inter-pod GPU memory service over more nodes than a PodCliqueSet holds is refused at once, and validates at once', () => {
    const text = interPod;
    const fits = runCliOn({ 'g.yaml': text(3) }, ['render', '--grove', '--output', 'workloads', 'g.yaml']);
    expect(withoutSummary(fits.stderr)).toBe(mpiSshNotice('llm-serving-mn'));
    expect(fits.code).toBe(0);
    for (const nodeCount of [2_000, 20_000_000]) {
      let validate: ReturnType<typeof runCliOn> | undefined;
      let render: ReturnType<typeof runCliOn> | undefined;
      let explain: ReturnType<typeof runCliOn> | undefined;
      expect(secondsOf(() => {
        validate = runCliOn({ 'g.yaml': text(nodeCount) }, ['validate', '--grove', 'g.yaml']);
        render = runCliOn({ 'g.yaml': text(nodeCount) }, ['render', '--grove', '--output', 'workloads', 'g.yaml']);
        explain = runCliOn({ 'g.yaml': text(nodeCount) }, ['explain', '--grove', 'g.yaml']);
      })).toBeLessThan(10);
      // the graph itself is admitted: it is the PodCliqueSet the operator cannot create
      expect(withoutSummary(validate!.stderr)).toBe(mpiSshNotice('llm-serving-mn'));
      expect(validate!.code).toBe(0);
      const refusal = `: DynamoGraphDeployment/llm-serving-mn: spec.components[0].multinode.nodeCount: Too long: the PodCliqueSet the operator creates holds two cliques per node (${nodeCount} nodes) and would be more than 3145728 bytes as JSON`;
      expect(render!.code).toBe(1);
      expect(render!.stderr).toMatch(/^g\.yaml:\d+:\d+: /);
      expect(render!.stderr).toContain(refusal);
      // explain counts pods without building the cliques; it refuses only what no PodCliqueSet could hold
      if (nodeCount === 2_000) {
        expect(explain!.code).toBe(0);
      } else {
        expect(explain!.code).toBe(1);
        expect(explain!.stderr).toMatch(/^g\.yaml:\d+:\d+: /);
        expect(explain!.stderr).toContain(refusal);
      }
    }
  });

  test('the longest clique name is worked out without listing every node\'s cliques, and is the one the list gives', () => {
    for (let nodeCount = 1; nodeCount <= 1_200; nodeCount += nodeCount < 120 ? 1 : 37) {
      const component: ComponentSpecJson = { name: 'Agg', type: 'worker', multinode: { nodeCount }, experimental: { gpuMemoryService: { mode: 'InterPod' } } };
      const listed = cliqueNames(component, 'Agg').reduce((longest, name) => (name.length > longest.length ? name : longest), '');
      expect(longestCliqueName(component, 'Agg')).toBe(listed);
      expect(longestCliqueNameLength(component)).toBe(Math.max(...cliqueRoles(component).map(r => r.cliqueName.length)));
    }
    const huge: ComponentSpecJson = { name: 'agg', multinode: { nodeCount: 2_147_483_647 }, experimental: { gpuMemoryService: { mode: 'InterPod' } } };
    expect(longestCliqueName(huge, 'agg')).toBe('agg-gms-1000000000');
    expect(longestCliqueNameLength(huge)).toBe('agg-gms-2147483646'.length);
  });
});
