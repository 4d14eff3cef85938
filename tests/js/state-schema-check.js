// Checkers of the state schema's consumers that are not generated from it: the .d.ts's ExplorerState, read with
// the TypeScript compiler's own type checker (its API: github.com/microsoft/TypeScript/wiki/Using-the-Compiler-API),
// and the attributes the element observes. Each returns the disagreements as sentences ([] when none), so a test
// can show them failing on a made-up pair as well as passing on the real one.
import ts from 'typescript';
import { isList, itemType } from '../../web/src/settings/schema.js';

/** The TypeScript type of each single-value schema type (a name's is the union of its names). */
const TS_TYPES = {
  text: 'string',
  boolean: 'boolean',
  integer: 'number',
  number: 'number',
  head: '{ head: number; layer: number }',
};

/** A union written one way: its alternatives sorted, `true | false` as boolean. */
function union(alternatives) {
  const set = new Set(alternatives);
  if (set.has('true') && set.has('false')) {
    set.delete('true');
    set.delete('false');
    set.add('boolean');
  }
  return [...set].sort().join(' | ');
}

/** The TypeScript type a setting's values have, written as canonicalType writes a declared one. */
export function schemaType(setting) {
  const single = (type) => (type === 'name' ? setting.names().map((name) => JSON.stringify(name)) : [TS_TYPES[type]]);
  let alternatives;
  if (!isList(setting.type)) alternatives = single(setting.type);
  else if (setting.length !== undefined)
    alternatives = [
      `[${Array(setting.length)
        .fill(union(single(itemType(setting.type))))
        .join(', ')}]`,
    ];
  else {
    const items = [...single(itemType(setting.type)), ...(setting.emptyItems ? ['undefined'] : [])];
    alternatives = [`(${union(items)})[]`];
  }
  return union(setting.nullable ? [...alternatives, 'null'] : alternatives);
}

/** A type the checker resolved (aliases and imports followed), written one way. */
function canonicalType(checker, type) {
  const { flags } = type;
  if (flags & ts.TypeFlags.Union) return union(type.types.map((member) => canonicalType(checker, member)));
  if (flags & ts.TypeFlags.StringLiteral) return JSON.stringify(type.value);
  if (flags & ts.TypeFlags.BooleanLiteral) return checker.typeToString(type);
  if (flags & ts.TypeFlags.String) return 'string';
  if (flags & ts.TypeFlags.Number) return 'number';
  if (flags & ts.TypeFlags.Null) return 'null';
  if (flags & ts.TypeFlags.Undefined) return 'undefined';
  if (checker.isTupleType(type))
    return `[${checker
      .getTypeArguments(type)
      .map((item) => canonicalType(checker, item))
      .join(', ')}]`;
  if (checker.isArrayType(type)) return `(${canonicalType(checker, checker.getTypeArguments(type)[0])})[]`;
  // An object type (a head: { layer, head }) as its properties, sorted by name.
  if (flags & ts.TypeFlags.Object) {
    const properties = checker
      .getPropertiesOfType(type)
      .map((p) => `${p.name}: ${canonicalType(checker, checker.getTypeOfSymbolAtLocation(p, p.valueDeclaration))}`)
      .sort();
    if (properties.length) return `{ ${properties.join('; ')} }`;
  }
  return `a type the schema has no word for: ${checker.typeToString(type)}`;
}

/**
 * The fields of an interface as a declaration file states them, each type resolved by the TypeScript checker.
 * @param {string} file  the .d.ts's path
 * @param {string} name  the interface's name (ExplorerState)
 * @param {Record<string, string>} [files]  made-up files by path, read instead of the disk's (a test's synthetic .d.ts)
 * @returns {{ fields: Map<string, string>, indexSignature: boolean }} each field's type written as schemaType writes
 *   one; whether the interface also takes any other key
 */
export function declaredFields(file, name, files = {}) {
  const options = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
  };
  const host = ts.createCompilerHost(options);
  const disk = { fileExists: host.fileExists, readFile: host.readFile, getSourceFile: host.getSourceFile };
  host.fileExists = (path) => Object.hasOwn(files, path) || disk.fileExists.call(host, path);
  host.readFile = (path) => (Object.hasOwn(files, path) ? files[path] : disk.readFile.call(host, path));
  host.getSourceFile = (path, language, ...rest) =>
    Object.hasOwn(files, path)
      ? ts.createSourceFile(path, files[path], language)
      : disk.getSourceFile.call(host, path, language, ...rest);
  const program = ts.createProgram([file], options, host);
  const source = program.getSourceFile(file);
  if (!source) throw new Error(`${file}: no such file`);
  // Its syntax only: a type that does not resolve is caught as a disagreement (scripts/test.sh compiles the
  // declarations in full, and type-checking the DOM's library here would take seconds).
  const problems = program.getSyntacticDiagnostics(source);
  if (problems.length) {
    const messages = problems.map((problem) => ts.flattenDiagnosticMessageText(problem.messageText, '\n'));
    throw new Error(`${file} does not compile: ${messages.join('; ')}`);
  }
  const checker = program.getTypeChecker();
  const declaration = source.statements.find(
    (statement) => ts.isInterfaceDeclaration(statement) && statement.name.text === name,
  );
  if (!declaration) throw new Error(`${file} declares no interface ${name}`);
  const type = checker.getTypeAtLocation(declaration);
  const fields = new Map(
    checker
      .getPropertiesOfType(type)
      .map((field) => [field.name, canonicalType(checker, checker.getTypeOfSymbolAtLocation(field, declaration))]),
  );
  return { fields, indexSignature: checker.getIndexInfosOfType(type).length > 0 };
}

/**
 * Where a declared state type and the schema disagree: a setting it lacks, a field the schema lacks, a type that is not
 * the setting's, or an index signature (a field of any name: the schema has none).
 * @param {import('../../web/src/settings/schema.js').Setting[]} schema
 * @param {{ fields: Map<string, string>, indexSignature: boolean }} declared  declaredFields()
 * @returns {string[]}
 */
export function typeDisagreements(schema, declared) {
  const found = [];
  const names = new Set(schema.map((setting) => setting.name));
  for (const setting of schema) {
    const expected = schemaType(setting);
    const stated = declared.fields.get(setting.name);
    if (stated === undefined) found.push(`${setting.name}: a setting the .d.ts does not declare (${expected})`);
    else if (stated !== expected) found.push(`${setting.name}: declared ${stated}, the schema says ${expected}`);
  }
  for (const field of declared.fields.keys()) {
    if (!names.has(field)) found.push(`${field}: declared, but no setting of the schema`);
  }
  if (declared.indexSignature) found.push('an index signature: the .d.ts takes fields the schema does not have');
  return found;
}

/**
 * Where the attributes an element observes and the schema disagree: a setting's attribute not observed, or an observed
 * attribute that neither sets a setting nor is one of the element's own (views, controls, …, and `state`).
 * @param {import('../../web/src/settings/schema.js').Setting[]} schema
 * @param {string[]} observed  the element's observedAttributes
 * @param {string[]} own  the attributes that are not settings
 * @returns {string[]}
 */
export function attributeDisagreements(schema, observed, own) {
  const found = [];
  const fromSchema = new Set(schema.flatMap((setting) => (setting.attribute ? [setting.attribute] : [])));
  for (const attribute of fromSchema) {
    if (!observed.includes(attribute)) found.push(`${attribute}: a setting's attribute the element does not observe`);
  }
  for (const attribute of observed) {
    if (!fromSchema.has(attribute) && !own.includes(attribute))
      found.push(`${attribute}: observed, but the attribute of no setting`);
  }
  return found;
}
