/**
 * Every nvidia.com/v1alpha1 file of the shared corpus (../shared/corpus/v1alpha1, real documents
 * of the Dynamo repository) converted to v1beta1: each converts, keeps its component names,
 * images, replicas, env and resources, and the converted graph passes the create-time admission
 * (with semantic-version images, as `withVersionedImages` substitutes them). Skipped without the
 * corpus.
 */
import * as fs from 'fs';
import * as path from 'path';
import { DynamoDocuments, OutputMode } from '../src';
import { admissionLines, convertDocument, readDocuments, writeDocuments } from './support/facade';
import { CORPUS_DIR, describeNeeding, filledTemplate, withVersionedImages } from './support/shared';
import { canonicalQuantity } from '../src/go';

/** A v1alpha1 DynamoGraphDeployment or DynamoComponentDeployment (what `convert` converts). */
const isV1alpha1DynamoDocument = (d: any): boolean =>
  d?.apiVersion === 'nvidia.com/v1alpha1' && ['DynamoGraphDeployment', 'DynamoComponentDeployment'].includes(d?.kind);

const ALPHA_DIR = CORPUS_DIR ? path.join(CORPUS_DIR, 'v1alpha1') : undefined;

function alphaFiles(): { file: string; docs: any[] }[] {
  if (!ALPHA_DIR || !fs.existsSync(ALPHA_DIR)) return [];
  return fs.readdirSync(ALPHA_DIR).filter(f => f.endsWith('.yaml')).sort().map(file => ({
    file,
    docs: (readDocuments(filledTemplate(fs.readFileSync(path.join(ALPHA_DIR, file), 'utf8')), file) as any[]).filter(isV1alpha1DynamoDocument),
  }));
}

/**
 * Files whose converted graphs the create-time admission refuses for a reason the conversion
 * carries over from the v1alpha1 document: the old `componentType: main`, which v1beta1's `type`
 * does not accept (rule 43). The conversion webhook copies it as written.
 */
const TYPE_MAIN = new Set([
  'components__src__dynamo__planner__tests__data__profiling_results__H200_TP1P_TP1D__disagg.yaml',
  'components__src__dynamo__planner__tests__manual__perf_test_configs__agg_8b.yaml',
  'components__src__dynamo__planner__tests__manual__perf_test_configs__disagg_8b_2p2d.yaml',
  'components__src__dynamo__planner__tests__manual__perf_test_configs__disagg_8b_3p1d.yaml',
  'components__src__dynamo__planner__tests__manual__perf_test_configs__disagg_8b_planner.yaml',
  'components__src__dynamo__planner__tests__manual__perf_test_configs__disagg_8b_tp2.yaml',
]);

/**
 * The operator's two config samples are placeholders ("TODO(user): Add fields here"): the DGD has
 * no service (rule 17), the DCD no main-container image (rule 46). Admission refuses them in either
 * version.
 */
const EMPTY_SAMPLES: Record<string, string> = {
  'deploy__operator__config__samples__nvidia.com_v1alpha1_dynamocomponentdeployment.yaml': '46',
  'deploy__operator__config__samples__nvidia.com_v1alpha1_dynamographdeployment.yaml': '17',
};

const files = alphaFiles();

function convertedOf(doc: any): any {
  const outcome = convertDocument(withVersionedImages(doc));
  expect(outcome.problems).toEqual([]);
  return outcome.document;
}

function mainOf(component: any): any {
  return (component.podTemplate?.spec?.containers ?? []).find((c: any) => c.name === 'main');
}

describeNeeding('corpus')('corpus (nvidia.com/v1alpha1) converted to v1beta1', () => {
  test('has the 22 v1alpha1 files, each with a Dynamo document', () => {
    expect(files).toHaveLength(22);
    for (const f of files) expect(f.docs.length).toBeGreaterThan(0);
  });

  test.each(files.map(f => [f.file, f]))('%s converts, keeps names, images, replicas, env and resources', (_file, { docs }) => {
    for (const alpha of docs) {
      const doc = convertedOf(alpha);
      expect(doc.apiVersion).toBe('nvidia.com/v1beta1');
      const versioned = withVersionedImages(alpha);
      const services: [string, any][] = alpha.kind === 'DynamoGraphDeployment'
        ? Object.entries(versioned.spec?.services ?? {})
        : [[versioned.spec?.serviceName ?? alpha.metadata.name, versioned.spec ?? {}]];
      const components: any[] = alpha.kind === 'DynamoGraphDeployment' ? doc.spec.components ?? [] : [doc.spec];
      expect(components.map(c => c.name).sort()).toEqual(services.map(([name]) => name).sort());
      for (const [name, svc] of services) {
        const comp = components.find(c => c.name === name);
        expect(comp.replicas).toEqual(svc.replicas);
        const extra = svc.extraPodSpec?.mainContainer ?? {};
        const main = mainOf(comp);
        if (extra.image !== undefined) expect(main.image).toBe(extra.image);
        // env: the component's envs, each overridden by a main-container entry of the same name
        const wantEnv = new Map<string, any>();
        for (const e of [...(svc.envs ?? []), ...(extra.env ?? [])]) wantEnv.set(e.name, e);
        expect(new Map((main?.env ?? []).map((e: any) => [e.name, e]))).toEqual(wantEnv);
        // resources: cpu, memory, gpu (as nvidia.com/gpu or gpuType) and custom keys, unless the main container sets its own
        if (svc.resources && !extra.resources) {
          for (const part of ['requests', 'limits']) {
            const item = svc.resources[part];
            if (!item) continue;
            const want: Record<string, string> = {};
            if (item.cpu) want.cpu = canonicalQuantity(item.cpu);
            if (item.memory) want.memory = canonicalQuantity(item.memory);
            if (item.gpu) want[item.gpuType ?? 'nvidia.com/gpu'] = canonicalQuantity(item.gpu);
            for (const [k, v] of Object.entries(item.custom ?? {})) want[k] = canonicalQuantity(v as string);
            expect(main.resources[part]).toEqual(want);
          }
        }
      }
    }
  });

  test.each(files.map(f => [f.file, f]))('%s: the converted documents pass the create-time admission', (file, { docs }) => {
    for (const alpha of docs) {
      const problems = admissionLines(convertedOf(alpha));
      if (EMPTY_SAMPLES[file] !== undefined) {
        expect(problems).toEqual([expect.stringMatching(new RegExp(`\\(rule ${EMPTY_SAMPLES[file]}\\)$`))]);
      } else if (TYPE_MAIN.has(file)) {
        expect(problems.length).toBeGreaterThan(0);
        for (const p of problems) expect(p).toMatch(/\.type \(component "[^"]+"\): Unsupported value: "main": supported values: .* \(rule 43\)$/);
      } else {
        expect(problems).toEqual([]);
      }
    }
  });

  test.each(files.filter(f => !TYPE_MAIN.has(f.file) && EMPTY_SAMPLES[f.file] === undefined).map(f => [f.file, f]))('%s: the converted graph renders its workloads', (_file, { docs }) => {
    const objects = readDocuments(DynamoDocuments.renderYaml(writeDocuments(docs.map(convertedOf)), { output: OutputMode.WORKLOADS }));
    expect(objects.length).toBeGreaterThan(0);
  });
});
