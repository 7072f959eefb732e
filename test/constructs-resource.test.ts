/**
 * DynamoResource, the base of the Dynamo resource constructs: a resource whose synthesized objects
 * come from another document than its own (as a request synthesized as the graph it plans) says so
 * through `_synthesisInput` and `_renderIntoChildren`; the base checks and renders that document in
 * the resource's output mode, once per change.
 */
import { Chart, Testing } from 'cdk8s';
import { Construct } from 'constructs';
import { DynamoResource, DynamoResourceProps, OutputMode } from '../src';
import * as pipeline from '../src/pipeline/check-and-render';

const IMAGE = 'nvcr.io/nvidia/ai-dynamo/vllm-runtime:1.4.0';

/** A resource synthesized as a graph it derives from its own document (here: a fixed one). */
class Derived extends DynamoResource {
  public derivations = 0;
  constructor(scope: Construct, id: string, props: DynamoResourceProps, private readonly replicas: number) {
    super(scope, id, props);
    this._renderIntoChildren();
  }

  public toJson(): any {
    return { apiVersion: 'example.com/v1', kind: 'Intent', metadata: { name: this.name }, spec: { replicas: this.replicas } };
  }

  protected _documentTracked(): boolean {
    return true;
  }

  protected _synthesisInput(): { readonly document: unknown; readonly render?: pipeline.OutputMode } {
    this.derivations++;
    const graph = {
      apiVersion: 'nvidia.com/v1beta1',
      kind: 'DynamoGraphDeployment',
      metadata: { name: this.name },
      spec: { components: [{ name: 'Frontend', type: 'frontend', replicas: this.replicas, podTemplate: { spec: { containers: [{ name: 'main', image: IMAGE }] } } }] },
    };
    return { document: graph, render: this.output };
  }
}

test('GRAPH output: the derived graph, as its own child, checked once over the N + 1 validation passes', () => {
  const app = Testing.app();
  const resources = [0, 1, 2].map(i => new Derived(new Chart(app, `c${i}`), 'Intent', { metadata: { name: `llm${i}` } }, 2));
  const objects = Testing.synth(app.charts[0]);
  expect(objects.map(o => `${o.kind}/${o.metadata.name}`)).toEqual(['DynamoGraphDeployment/llm0']);
  expect(objects[0].spec.components[0].replicas).toBe(2);
  app.synthYaml();
  expect(resources.map(r => r.derivations)).toEqual([1, 1, 1]);
});

test('WORKLOADS output: what the operator creates for the derived graph', () => {
  const chart = new Chart(Testing.app(), 'test');
  new Derived(chart, 'Intent', { metadata: { name: 'llm' }, output: OutputMode.WORKLOADS }, 1);
  const kinds = Testing.synth(chart).map(o => o.kind);
  expect(kinds).toEqual(expect.arrayContaining(['DynamoComponentDeployment', 'Deployment', 'Service']));
});

test('what admission refuses of the derived document is reported on the resource', () => {
  const chart = new Chart(Testing.app(), 'test');
  new Derived(chart, 'Intent', { metadata: { name: 'llm' } }, -1);
  expect(() => Testing.synth(chart)).toThrow(/test\/Intent: DynamoGraphDeployment\/llm: spec\.components\[0\]\.replicas/);
});
