/**
 * Pod templates of emitted objects checked once per distinct template
 * (src/admission/structural/templates.ts): the same violations as a check of the whole object,
 * a repeated template validated once, its violations reported at each of its places.
 */
import { groveComponent, groveGraph, renderGrove } from './support/grove-fixtures';
import { mutants } from './support/mutants';
import { checkEmittedObject, emittedObjectViolations, templateValidationCount } from '../src/admission';
import { renderDocuments } from '../src/pipeline/check-and-render';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

type Json = any;

function copy<T>(value: T): T {
  return JSON.parse(JSON.stringify(value));
}

function multinodeGraph(): Json {
  return {
    apiVersion: 'nvidia.com/v1beta1',
    kind: 'DynamoGraphDeployment',
    metadata: { name: 'llm', namespace: 'prod' },
    spec: {
      backendFramework: 'vllm',
      components: [
        { name: 'Frontend', type: 'frontend', podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } },
        {
          name: 'decode',
          type: 'decode',
          multinode: { nodeCount: 2 },
          podTemplate: {
            spec: {
              containers: [{
                name: 'main',
                image: IMAGE,
                command: ['python3', '-m', 'dynamo.vllm'],
                args: ['--model', 'm', '--tensor-parallel-size', '16'],
                resources: { limits: { 'nvidia.com/gpu': '8' } },
              }],
            },
          },
        },
      ],
    },
  };
}

function groveDoc(): Json {
  return groveGraph([
    groveComponent('Frontend', 'frontend'),
    groveComponent('prefill', 'prefill', {}, { resources: { limits: { 'nvidia.com/gpu': '1' } } }),
    groveComponent('decode', 'decode', {}, { resources: { limits: { 'nvidia.com/gpu': '1' } } }),
  ]);
}

const OBJECTS: Json[] = [
  ...renderDocuments([multinodeGraph()], { output: 'workloads', operator: {} }) as Json[],
  ...renderDocuments([multinodeGraph()], { output: 'components', operator: {} }) as Json[],
  ...renderGrove(groveDoc()),
  multinodeGraph(),
];

function only(kind: string): Json {
  const found = OBJECTS.find((o) => o.kind === kind);
  if (!found) throw new Error(`no ${kind}`);
  return copy(found);
}

describe('pod templates checked once per distinct template', () => {
  test('the objects hold templates in every kind of place', () => {
    const kinds = new Set(OBJECTS.map((o) => o.kind));
    for (const kind of ['Deployment', 'LeaderWorkerSet', 'PodCliqueSet', 'DynamoComponentDeployment', 'DynamoGraphDeployment']) expect(kinds).toContain(kind);
  });

  test('the same violations as the check of the whole object, on valid objects and their mutants', () => {
    let invalid = 0;
    let inTemplates = 0;
    for (const obj of OBJECTS) {
      for (const value of [obj, ...mutants(obj, 150)]) {
        const whole = emittedObjectViolations(value, false);
        expect(emittedObjectViolations(value, true)).toStrictEqual(whole);
        if (whole.length > 0) invalid++;
        inTemplates += whole.filter((v) => /[Tt]emplate\.|podSpec\./.test(v.path)).length;
      }
    }
    expect(invalid).toBeGreaterThan(300);
    expect(inTemplates).toBeGreaterThan(200);
  });

  test('two places with the same template in one object: validated once, reported at both paths', () => {
    const lws = only('LeaderWorkerSet');
    const template = copy(lws.spec.leaderWorkerTemplate.workerTemplate);
    template.spec.containers[0].bogusField = 'once';
    template.spec.containers[0].ports = [{ containerPort: 'eighty' }];
    lws.spec.leaderWorkerTemplate.leaderTemplate = copy(template);
    lws.spec.leaderWorkerTemplate.workerTemplate = copy(template);
    const before = templateValidationCount();
    const violations = checkEmittedObject(lws);
    expect(templateValidationCount() - before).toBe(1);
    const at = (role: string): string[] => violations
      .filter((v) => v.path.startsWith(`spec.leaderWorkerTemplate.${role}.`))
      .map((v) => `${v.path.slice(`spec.leaderWorkerTemplate.${role}.`.length)}: ${v.message.split(`spec.leaderWorkerTemplate.${role}.`).join('')} (${v.rule})`);
    expect(at('leaderTemplate')).toEqual([
      'spec.containers[0].ports[0].containerPort: Invalid value: "eighty": must be of type integer (schema)',
      'spec.containers[0].bogusField: unknown field "spec.containers[0].bogusField" (schema)',
    ]);
    expect(at('workerTemplate')).toEqual(at('leaderTemplate'));
    // the messages name each place's own path
    expect(violations.map((v) => v.message)).toContain('unknown field "spec.leaderWorkerTemplate.workerTemplate.spec.containers[0].bogusField"');
    expect(violations.map((v) => v.message)).toContain('unknown field "spec.leaderWorkerTemplate.leaderTemplate.spec.containers[0].bogusField"');
  });

  test('a PodCliqueSet whose cliques share a pod spec validates it once; a template seen again is not validated again', () => {
    const pcs = only('PodCliqueSet');
    const cliques: Json[] = pcs.spec.template.cliques;
    expect(cliques.length).toBeGreaterThanOrEqual(3);
    const podSpec = copy(cliques[1].spec.podSpec);
    podSpec.containers[0].env = [{ name: 'UNIQUE', value: 'pcs-shared-spec' }, { name: 'BAD', value: 3 }];
    for (const clique of cliques) clique.spec.podSpec = copy(podSpec);
    const before = templateValidationCount();
    const violations = checkEmittedObject(pcs);
    expect(templateValidationCount() - before).toBe(1);
    expect(violations.filter((v) => v.message.includes('must be of type string')).map((v) => v.path))
      .toEqual(cliques.map((_c, i) => `spec.template.cliques[${i}].spec.podSpec.containers[0].env[1].value`));
    const again = templateValidationCount();
    expect(checkEmittedObject(copy(pcs))).toStrictEqual(violations);
    expect(templateValidationCount()).toBe(again);
  });

  test('the same template in different objects (DCDs) is validated once', () => {
    const dcd = only('DynamoComponentDeployment');
    const other = copy(dcd);
    other.metadata.name = 'other';
    dcd.spec.podTemplate.metadata = { labels: { unique: 'two-dcds' } };
    other.spec.podTemplate = copy(dcd.spec.podTemplate);
    const before = templateValidationCount();
    expect(checkEmittedObject(dcd)).toEqual([]);
    expect(checkEmittedObject(other)).toEqual([]);
    expect(templateValidationCount() - before).toBe(1);
  });

  test('a Deployment\'s template (its own: it carries the Deployment\'s selector labels) is validated with each Deployment, with the same results', () => {
    const deployment = only('Deployment');
    deployment.spec.template.metadata.labels = { ...deployment.spec.template.metadata.labels, unique: 'two-deployments' };
    deployment.spec.template.spec.containers[0].ports = [{ containerPort: 'eighty' }];
    const other = copy(deployment);
    other.metadata.name = 'other';
    const before = templateValidationCount();
    const messages = (obj: Json) => checkEmittedObject(obj).map((v) => `${v.path}: ${v.message}`);
    expect(messages(deployment)).toEqual(['spec.template.spec.containers[0].ports[0].containerPort: Invalid value: "eighty": must be of type integer']);
    expect(messages(other)).toEqual(messages(deployment));
    expect(templateValidationCount() - before).toBe(3);
  });
});
