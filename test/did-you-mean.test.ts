/** The one edit distance: a swap of two neighbours is one edit, or two without transpositions. */
import { editDistance } from '../src/model';

test('a swap of neighbours is one edit, two in the Levenshtein distance', () => {
  expect(editDistance('tpye', 'type')).toBe(1);
  expect(editDistance('tpye', 'type', Infinity, false)).toBe(2);
  expect(editDistance('kitten', 'sitting', Infinity, false)).toBe(3);
});

test('stops at the limit, reporting limit + 1', () => {
  expect(editDistance('DynamoGraphDeployment', 'Deployment', 3, false)).toBe(4);
  expect(editDistance('dynamographdeploymnet', 'dynamographdeployment', 3, false)).toBe(2);
  expect(editDistance('abcdef', 'badcfe', 3)).toBe(3);
  expect(editDistance('abcdef', 'badcfe', 3, false)).toBe(4);
});
