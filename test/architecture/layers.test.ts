import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The layers of src/, lowest first: a folder (or a file at the top of src/) may import
 * its own layer and the layers below it, never one above. The one table of the order.
 */
const LAYERS: readonly (readonly string[])[] = [
  ['errors.ts', 'version.ts', 'nearest.ts', 'zod-issues.ts', 'heap-growth.ts'],
  ['model'],
  ['sanitize'],
  ['io'],
  ['canonical'],
  ['ingest'],
  ['receiver'],
  ['audit'],
  ['seal'],
  ['report'],
  ['config', 'logger.ts'],
  ['core.ts'],
  ['github'],
  ['action', 'cli'],
  ['main.ts', 'cli.ts', 'index.ts'],
];

/** Files allowed past 250 lines, each with why. */
const LONG_FILES: Readonly<Record<string, string>> = {
  'receiver/otlp-descriptor.ts': 'a table: the OTLP protobuf descriptor as data',
};

/** Functions allowed past 60 lines (`file:name`), each with why. */
const LONG_FUNCTIONS: Readonly<Record<string, string>> = {};

const MAX_FILE_LINES = 250;
const MAX_FUNCTION_LINES = 60;
const SRC = 'src';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const FILES = sourceFiles(SRC).map((path) => ({ path: relative(SRC, path).split('\\').join('/'), text: readFileSync(path, 'utf8') }));
const PARSED = FILES.map((file) => ({ ...file, source: ts.createSourceFile(file.path, file.text, ts.ScriptTarget.ES2022, true) }));

/** The unit a file belongs to: its top folder under src/, or the file itself at the top. */
function unitOf(path: string): string {
  const slash = path.indexOf('/');
  return slash === -1 ? path : path.slice(0, slash);
}

/** Every relative import and re-export of a file (static and dynamic), as src-relative paths. */
function importsOf(file: { path: string; source: ts.SourceFile }): string[] {
  const out: string[] = [];
  const visit = (node: ts.Node) => {
    let spec: ts.Expression | undefined;
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) spec = node.moduleSpecifier;
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) spec = node.arguments[0];
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) spec = node.argument.literal;
    if (spec && ts.isStringLiteral(spec) && spec.text.startsWith('.')) {
      out.push(normalize(join(dirname(file.path), spec.text)).split('\\').join('/').replace(/\.js$/, '.ts'));
    }
    ts.forEachChild(node, visit);
  };
  visit(file.source);
  return out;
}

const EDGES = PARSED.flatMap((file) => importsOf(file).map((target) => ({ from: file.path, to: target })));

function layerOf(unit: string): number {
  const layer = LAYERS.findIndex((units) => units.includes(unit));
  if (layer === -1) throw new Error(`${unit} is not in the LAYERS table of test/architecture/layers.test.ts`);
  return layer;
}

/** Function-like nodes with a name to report them by. */
function functionsOf(source: ts.SourceFile): Array<{ name: string; lines: number }> {
  const out: Array<{ name: string; lines: number }> = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  const visit = (node: ts.Node, owner: string) => {
    let name = owner;
    if (ts.isClassDeclaration(node) && node.name) name = node.name.text;
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const own = node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name)) ? node.name.text : null;
      const holder = ts.isVariableDeclaration(node.parent) && ts.isIdentifier(node.parent.name) ? node.parent.name.text : ts.isPropertyAssignment(node.parent) && ts.isIdentifier(node.parent.name) ? node.parent.name.text : null;
      name = [owner, own ?? holder ?? `(anonymous at line ${lineOf(node.getStart()) + 1})`].filter((part) => part !== '').join('.');
      out.push({ name, lines: lineOf(node.getEnd()) - lineOf(node.getStart()) + 1 });
    }
    ts.forEachChild(node, (child) => visit(child, name));
  };
  visit(source, '');
  return out;
}

describe('the layers of src/', () => {
  it('reads the imports of every file (the test is not vacuous)', () => {
    expect(FILES.length).toBeGreaterThan(200);
    expect(EDGES.length).toBeGreaterThan(900);
    for (const { to } of EDGES) expect(FILES.some((file) => file.path === to), to).toBe(true);
  });

  it('has every folder and top-level file in the layer table, once', () => {
    const units = [...new Set(FILES.map((file) => unitOf(file.path)))].sort();
    const listed = LAYERS.flat();
    expect(new Set(listed).size).toBe(listed.length);
    expect(units.filter((unit) => !listed.includes(unit))).toEqual([]);
  });

  it('imports nothing from a higher layer', () => {
    const upward = EDGES.filter(({ from, to }) => layerOf(unitOf(to)) > layerOf(unitOf(from))).map(({ from, to }) => `${from} -> ${to}`);
    expect(upward).toEqual([]);
  });

  it('has no import cycle between folders', () => {
    const next = new Map<string, Set<string>>();
    for (const { from, to } of EDGES) {
      const [a, b] = [unitOf(from), unitOf(to)];
      if (a !== b) next.set(a, (next.get(a) ?? new Set()).add(b));
    }
    const cycles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const walk = (unit: string, path: string[]) => {
      if (state.get(unit) === 'done') return;
      if (state.get(unit) === 'open') {
        cycles.push([...path.slice(path.indexOf(unit)), unit].join(' -> '));
        return;
      }
      state.set(unit, 'open');
      for (const to of next.get(unit) ?? []) walk(to, [...path, unit]);
      state.set(unit, 'done');
    };
    for (const unit of [...next.keys()].sort()) walk(unit, []);
    expect(cycles).toEqual([]);
  });

  it('reaches src/canonical/ only through its index (its fast paths stay inside it)', () => {
    const inside = EDGES.filter(({ from, to }) => unitOf(to) === 'canonical' && unitOf(from) !== 'canonical' && to !== 'canonical/index.ts');
    expect(inside.map(({ from, to }) => `${from} -> ${to}`)).toEqual([]);
  });

  it(`keeps every file within ${MAX_FILE_LINES} lines, but the listed ones`, () => {
    const long = FILES.filter((file) => file.text.split('\n').length - (file.text.endsWith('\n') ? 1 : 0) > MAX_FILE_LINES).map((file) => file.path);
    expect(long.sort()).toEqual(Object.keys(LONG_FILES).sort());
  });

  it(`keeps every function within ${MAX_FUNCTION_LINES} lines, but the listed ones`, () => {
    const long = PARSED.flatMap((file) => functionsOf(file.source).filter((fn) => fn.lines > MAX_FUNCTION_LINES).map((fn) => `${file.path}:${fn.name}`));
    expect(long.sort()).toEqual(Object.keys(LONG_FUNCTIONS).sort());
  });
});
