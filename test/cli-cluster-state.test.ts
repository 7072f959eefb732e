/** What the CLI says of documents it reads as cluster state rather than objects to apply. */
import { CliRun, runCliOn } from './support/cli-in-process';

const DEVICE_CLASS = 'apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: gpu.nvidia.com}\nspec:\n  selectors:\n    - cel: {expression: \'device.driver == "gpu.nvidia.com"\'}\n';

function run(...argv: string[]): CliRun {
  return runCliOn({ 'dc.yaml': DEVICE_CLASS }, argv);
}

test('a DeviceClass is read, not written, beyond graph output, and the notice says so', () => {
  expect(run('render', '--output', 'workloads', 'dc.yaml')).toEqual({
    code: 0,
    stdout: '',
    stderr: 'dc.yaml:1:1: resource.k8s.io/v1 DeviceClass/gpu.nvidia.com: read as cluster state, not written (no schema for this kind)\n'
      + 'rendered 1 object in 1 file: 0 objects (workloads output)\n',
  });
});

test('graph output passes a DeviceClass through, and validate does not check it', () => {
  const graph = run('render', 'dc.yaml');
  expect(graph.stderr).toBe('dc.yaml:1:1: resource.k8s.io/v1 DeviceClass/gpu.nvidia.com: passed through unchecked (no schema for this kind)\n'
    + 'rendered 1 object in 1 file: 1 object (graph output)\n');
  expect(graph.stdout).toContain('kind: DeviceClass');
  expect(run('validate', 'dc.yaml').stderr).toBe('dc.yaml:1:1: resource.k8s.io/v1 DeviceClass/gpu.nvidia.com: not checked (no schema for this kind)\n'
    + 'validated 1 object in 1 file: ok\n');
});
