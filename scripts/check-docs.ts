/**
 * Fails when a public prop has no TSDoc, or an optional one has no `@default`.
 * Usage: ts-node scripts/check-docs.ts [DIR...] (default: src/constructs)
 */
import * as fs from 'fs';
import * as path from 'path';
import * as ts from 'typescript';

export function undocumentedProps(files: string[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    const source = ts.createSourceFile(file, fs.readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    source.forEachChild(node => {
      if (!ts.isInterfaceDeclaration(node)) return;
      if (!node.modifiers?.some(m => m.kind === ts.SyntaxKind.ExportKeyword)) return;
      for (const member of node.members) {
        if (!ts.isPropertySignature(member)) continue;
        const where = `${path.relative(process.cwd(), file)}: ${node.name.text}.${member.name.getText(source)}`;
        const docs = ts.getJSDocCommentsAndTags(member);
        if (docs.length === 0) {
          problems.push(`${where}: no TSDoc`);
          continue;
        }
        if (member.questionToken && !ts.getJSDocTags(member).some(t => t.tagName.text === 'default')) {
          problems.push(`${where}: optional prop without @default`);
        }
      }
    });
  }
  return problems;
}

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap(e => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return tsFiles(p);
    return e.name.endsWith('.ts') && !e.name.endsWith('.d.ts') ? [p] : [];
  }).sort();
}

if (require.main === module) {
  const dirs = process.argv.slice(2).length ? process.argv.slice(2) : ['src/constructs'];
  const problems = undocumentedProps(dirs.flatMap(tsFiles));
  for (const p of problems) console.error(p);
  if (problems.length > 0) process.exit(1);
  console.log('check:docs: every public prop is documented, every optional one with @default');
}
