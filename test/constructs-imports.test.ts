/**
 * The modules of `src/constructs/` import one another without a circle: every import between them
 * (`import`, `import type`, `export ... from`, and `require('./x')`) points down a DAG. What the
 * constructs load on first use (the pipeline, the readers behind `fromObject` / `fromYaml`) they
 * reach through the one deferred loader outside the folder, `src/lazy-modules.ts`.
 */
import * as fs from 'fs';
import * as path from 'path';

const CONSTRUCTS = path.resolve(__dirname, '..', 'src', 'constructs');

/** The modules of the folder, each with the modules of the folder it imports (by file name). */
function importsOf(dir: string): Map<string, string[]> {
  const files = fs.readdirSync(dir).filter(f => f.endsWith('.ts'));
  const graph = new Map<string, string[]>();
  const pattern = /(?:^|\n)\s*(?:import|export)\s[^;]*?from\s+'(\.\/[^']+)'|require\(\s*'(\.\/[^']+)'\s*\)/g;
  for (const file of files) {
    const text = fs.readFileSync(path.join(dir, file), 'utf8');
    const targets = [...text.matchAll(pattern)].map(m => `${(m[1] ?? m[2]).slice(2)}.ts`).filter(t => files.includes(t));
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** A circle of the graph (its modules in import order, the first again at the end), if it has one. */
function findCircle(graph: ReadonlyMap<string, readonly string[]>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (node: string): string[] | undefined => {
    if (state.get(node) === 'done') return undefined;
    if (state.get(node) === 'open') return [...stack.slice(stack.indexOf(node)), node];
    state.set(node, 'open');
    stack.push(node);
    for (const next of graph.get(node) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    stack.pop();
    state.set(node, 'done');
    return undefined;
  };
  for (const node of graph.keys()) {
    const circle = visit(node);
    if (circle) return circle;
  }
  return undefined;
}

test('the finder finds a circle, and none in a DAG', () => {
  expect(findCircle(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']]]))).toEqual(['a.ts', 'b.ts', 'c.ts', 'a.ts']);
  expect(findCircle(new Map([['a.ts', ['b.ts', 'c.ts']], ['b.ts', ['c.ts']], ['c.ts', []]]))).toBeUndefined();
});

test('the reader sees every kind of import between the modules', () => {
  const graph = importsOf(CONSTRUCTS);
  expect(graph.get('graph.ts')).toEqual(expect.arrayContaining(['component.ts', 'resource.ts']));
  expect(graph.get('deferred-parts.ts')).toEqual(expect.arrayContaining(['graph-import.ts', 'component-import.ts']));
  expect(graph.get('component-deployment.ts')).toContain('graph.ts'); // `import type`
});

test('the modules of src/constructs import one another without a circle', () => {
  expect(findCircle(importsOf(CONSTRUCTS))).toBeUndefined();
});
