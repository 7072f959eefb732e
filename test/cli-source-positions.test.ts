/** Where a field path of an object is in its file (`src/cli/source-positions.ts`), and the closest known name (`src/model/did-you-mean.ts`). */
import { FilePositions, pathSteps } from '../src/cli';
import { closestName, editDistance } from '../src/model';

const TEXT = `# a comment
---
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: a
  annotations:
    nvidia.com/x.y: "1"
data: &shared
  k: v
---
apiVersion: v1
kind: List
items:
  - apiVersion: v1
    kind: List
    items:
      - {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}
  - apiVersion: v1
    kind: ConfigMap
    metadata: {name: c}
    data: *shared
`;

describe('FilePositions', () => {
  const positions = new FilePositions(TEXT);

  test('documents are counted as the reader counts them: empty documents left out', () => {
    expect(positions.at('document 1', '')).toEqual({ line: 4, column: 1 });
    expect(positions.at('document 2', '')).toEqual({ line: 13, column: 1 });
    expect(positions.at('document 3', '')).toBeUndefined();
  });

  test('a field is at its key; a map key in brackets may hold dots and slashes', () => {
    expect(positions.at('document 1', 'metadata.name')).toEqual({ line: 7, column: 3 });
    expect(positions.at('document 1', 'metadata.annotations[nvidia.com/x.y]')).toEqual({ line: 9, column: 5 });
  });

  test('a field not in the file is at its nearest ancestor that is, unless the whole path is asked for', () => {
    expect(positions.at('document 1', 'metadata.labels[app]')).toEqual({ line: 6, column: 1 });
    expect(positions.at('document 1', 'metadata.labels[app]', { exact: true })).toBeUndefined();
  });

  test('list items, nested lists, flow mappings and aliases', () => {
    expect(positions.at('document 2: items[0].items[0]', 'metadata.name')).toEqual({ line: 19, column: 54 });
    expect(positions.at('document 2: items[1]', 'metadata')).toEqual({ line: 22, column: 5 });
    // an alias whose anchor is in another document resolves to nothing: at the field that holds it
    expect(positions.at('document 2: items[1]', 'data.k')).toEqual({ line: 23, column: 5 });
    // an alias within the document: at the key of the anchored mapping
    const aliased = new FilePositions('a: &m\n  k: v\nb: *m\n');
    expect(aliased.at('document 1', 'b.k')).toEqual({ line: 2, column: 3 });
  });

  test('text that does not parse has no positions', () => {
    expect(new FilePositions('a: [\n').at('document 1', 'a')).toBeUndefined();
  });
});

test('pathSteps reads the API server\'s field paths', () => {
  expect(pathSteps('spec.components[1].podTemplate.metadata.annotations[nvidia.com/a.b]')).toEqual([
    { name: 'spec' }, { name: 'components' }, { index: 1 }, { name: 'podTemplate' }, { name: 'metadata' }, { name: 'annotations' }, { name: 'nvidia.com/a.b' },
  ]);
  expect(pathSteps('metadata.annotations["nvidia.com/workload-provider"]')).toEqual([{ name: 'metadata' }, { name: 'annotations' }, { name: 'nvidia.com/workload-provider' }]);
  expect(pathSteps('')).toEqual([]);
});

describe('closestName', () => {
  const fields = ['replicas', 'name', 'type', 'podTemplate', 'minAvailable', 'multinode'];

  test('a misspelling names the field; letter case alone counts as none', () => {
    expect(closestName('replica', fields)).toBe('replicas');
    expect(closestName('podtemplate', fields)).toBe('podTemplate');
    expect(closestName('multiNode', fields)).toBe('multinode');
    expect(closestName('tpye', fields)).toBe('type');
  });

  test('nothing for a name far from every field, or equally close to two', () => {
    expect(closestName('foo', fields)).toBeUndefined();
    expect(closestName('componentType', fields)).toBeUndefined();
    expect(closestName('ab', ['aa', 'bb'])).toBeUndefined();
  });

  test('editDistance stops at its limit', () => {
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('tpye', 'type')).toBe(1);
    expect(editDistance('abc', 'abcdefgh', 2)).toBe(3);
  });
});
