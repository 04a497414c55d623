import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const WEB_SRC = path.resolve(import.meta.dirname, '../../web/src');

/** One GraphQL document the web app sends, with where it is sent from. */
export interface WebOperation {
  document: string;
  /** `file:line` of the `graphqlRequest(...)` call. */
  source: string;
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/**
 * Every document the web app passes to `graphqlRequest`, read from its source with the TypeScript parser (not
 * by running it), so that a new operation is covered by the tests without anyone listing it. The documents are
 * string literals, templates and constants (also imported ones, and properties of constant objects); anything
 * else fails loudly, so the extraction never silently skips an operation.
 */
export function webOperations(): WebOperation[] {
  const files = sourceFiles(WEB_SRC).map((file) => {
    const text = fs.readFileSync(file, 'utf8');
    return ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  });
  // Top-level constants of every file, by name; a name used in two files is resolved within the file first.
  const constants = new Map<string, { file: ts.SourceFile; init: ts.Expression }[]>();
  for (const file of files) {
    for (const statement of file.statements) {
      if (!ts.isVariableStatement(statement)) continue;
      for (const declaration of statement.declarationList.declarations) {
        if (!ts.isIdentifier(declaration.name) || !declaration.initializer) continue;
        const list = constants.get(declaration.name.text) ?? [];
        list.push({ file, init: declaration.initializer });
        constants.set(declaration.name.text, list);
      }
    }
  }

  const where = (node: ts.Node) => {
    const file = node.getSourceFile();
    const { line } = file.getLineAndCharacterOfPosition(node.getStart());
    return `${path.relative(WEB_SRC, file.fileName)}:${line + 1}`;
  };

  const lookUp = (name: string, from: ts.Node): ts.Expression => {
    const candidates = constants.get(name) ?? [];
    const local = candidates.filter((candidate) => candidate.file === from.getSourceFile());
    const chosen = local.length === 1 ? local : candidates;
    if (chosen.length !== 1 || !chosen[0]) throw new Error(`Cannot resolve ${name} at ${where(from)}`);
    return chosen[0].init;
  };

  const evaluate = (node: ts.Expression): string => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) {
      return node.templateSpans.reduce(
        (text, span) => text + evaluate(span.expression) + span.literal.text,
        node.head.text,
      );
    }
    if (ts.isIdentifier(node)) return evaluate(lookUp(node.text, node));
    if (ts.isAsExpression(node) || ts.isParenthesizedExpression(node) || ts.isSatisfiesExpression(node)) {
      return evaluate(node.expression);
    }
    if (ts.isPropertyAccessExpression(node) && ts.isIdentifier(node.expression)) {
      let object = lookUp(node.expression.text, node);
      while (ts.isAsExpression(object) || ts.isSatisfiesExpression(object)) object = object.expression;
      if (ts.isObjectLiteralExpression(object)) {
        const property = object.properties.find(
          (p) => ts.isPropertyAssignment(p) && ts.isIdentifier(p.name) && p.name.text === node.name.text,
        );
        if (property && ts.isPropertyAssignment(property)) return evaluate(property.initializer);
      }
    }
    throw new Error(`Cannot evaluate the GraphQL document at ${where(node)}`);
  };

  const operations: WebOperation[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'graphqlRequest') {
      const [document] = node.arguments;
      if (document) operations.push({ document: evaluate(document), source: where(node) });
    }
    ts.forEachChild(node, visit);
  };
  for (const file of files) visit(file);
  return operations;
}
