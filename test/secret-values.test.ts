/** A Secret's values never appear in a message, whatever is wrong with them. */
import { apiServerLines, apiServerRefusals, cli } from './support/facade';

const SECRET = {
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name: 's' },
  data: { password: 'hunter2-not-base64!', other: 5 },
  stringData: { token: { nested: 's3cr3t-value' } },
};

test('violations under data and stringData keep the field and the problem, not the value', () => {
  const lines = apiServerLines(SECRET);
  expect(lines).toEqual([
    'Secret/s: data[password]: Invalid value: (the value of a Secret is not shown): must be of type byte (rule schema)',
    'Secret/s: data[other]: Invalid value: (the value of a Secret is not shown): must be of type string (rule schema)',
    'Secret/s: stringData[token]: Invalid value: (the value of a Secret is not shown): must be of type string (rule schema)',
  ]);
  expect(apiServerRefusals(SECRET).every(v => v.value === undefined)).toBe(true);
});

test('cdk8s-dynamo validate of a Secret names no value', () => {
  const { code, stderr } = cli({ 'secret.yaml': 'apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  password: "hunter2-not-base64!"\n' }, 'validate', 'secret.yaml');
  expect(code).toBe(1);
  expect(stderr).toBe('secret.yaml:5:3: Secret/s: data[password]: Invalid value: (the value of a Secret is not shown): must be of type byte (rule schema)\n');
  expect(stderr).not.toContain('hunter2');
});

test('other fields of a Secret are reported as usual', () => {
  const lines = apiServerLines({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 's' }, type: 5 });
  expect(lines).toEqual(['Secret/s: type: Invalid value: 5: must be of type string (rule schema)']);
});
