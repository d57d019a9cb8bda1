// Measures every function-like body in a folder's TypeScript files with the compiler's own parser.
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type TypeScript from 'typescript';

// The compiler is one 9 MB CommonJS file: imported as an ES module, Node parses it to detect its format and
// again for its named exports (0.9 CPU-s in the test worker that loads it); required, 0.3.
const ts = createRequire(import.meta.url)('typescript') as typeof TypeScript;

export interface FunctionLength {
  file: string;
  line: number;
  name: string;
  lines: number;
}

export function longestFunctions(root: string): FunctionLength[] {
  const found: FunctionLength[] = [];
  for (const file of tsFiles(root)) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: TypeScript.Node): void => {
      if (ts.isFunctionLike(node) && 'body' in node && node.body) {
        const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
        const end = source.getLineAndCharacterOfPosition(node.end).line;
        found.push({ file, line: start + 1, name: nameOf(node), lines: end - start + 1 });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

function nameOf(node: TypeScript.Node): string {
  const named = (node as { name?: TypeScript.Node }).name;
  if (named) return named.getText();
  if (ts.isVariableDeclaration(node.parent) || ts.isPropertyAssignment(node.parent)) return node.parent.name.getText();
  return '(anonymous)';
}

function tsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}
