#!/usr/bin/env node
// Lints Cypher with Neo4j's own parser and semantic analysis (@neo4j-cypher/language-support),
// so that the queries in cypher/neo4j/ are checked on machines where no Neo4j can run.
//
// stdin:  {"queries": [{"name": "...", "text": "...", "params": ["id", ...]}],
//          "procedures": [<extra Neo4jProcedure objects>], "functions": [<extra Neo4jFunction>],
//          "cypherVersion": "CYPHER 5"}
// stdout: {"results": [{"name": "...", "diagnostics": [{"severity": "error", "message": "...",
//          "line": 1, "column": 1, "offset": 0}]}], "errors": <total error count>}
//
// The linter only knows the procedures and functions it is told about: with a registry present,
// anything not declared is an error. Built-in functions come from the Neo4j 5 catalogue the
// package ships; every plugin or db.* procedure the project calls is declared below with its
// signature, so a misspelt name or a wrong argument count is caught here, not in production.

import { readFileSync } from 'node:fs';
import { lintCypherQuery, testData } from '@neo4j-cypher/language-support';

const SEVERITY = { 1: 'error', 2: 'warning', 3: 'information', 4: 'hint' };

// [name, mode, [[argName, type, default?], ...], [[returnName, type], ...], description]
const PROCEDURES = [
  ['db.awaitIndexes', 'READ', [['timeOutSeconds', 'INTEGER', '300']], [],
    'Wait for all indexes to come online.'],
  ['db.index.vector.queryNodes', 'READ',
    [['indexName', 'STRING'], ['numberOfNearestNeighbours', 'INTEGER'], ['query', 'ANY']],
    [['node', 'NODE'], ['score', 'FLOAT']], 'Query a node vector index.'],
  ['db.index.fulltext.queryNodes', 'READ',
    [['indexName', 'STRING'], ['queryString', 'STRING'], ['options', 'MAP', '{}']],
    [['node', 'NODE'], ['score', 'FLOAT']], 'Query a node full-text index (Lucene syntax).'],
  ['gds.graph.list', 'READ', [['graphName', 'STRING', '__ALL__']],
    [['graphName', 'STRING'], ['database', 'STRING'], ['nodeCount', 'INTEGER'],
      ['relationshipCount', 'INTEGER'], ['configuration', 'MAP'], ['schema', 'MAP']],
    'List projected graphs.'],
  ['gds.graph.exists', 'READ', [['graphName', 'STRING']],
    [['graphName', 'STRING'], ['exists', 'BOOLEAN']], 'Whether a projected graph exists.'],
  ['gds.graph.drop', 'READ',
    [['graphName', 'ANY'], ['failIfMissing', 'BOOLEAN', 'true'], ['dbName', 'STRING', ''],
      ['username', 'STRING', '']],
    [['graphName', 'STRING'], ['database', 'STRING'], ['nodeCount', 'INTEGER'],
      ['relationshipCount', 'INTEGER']], 'Drop a projected graph.'],
  ['gds.pageRank.stream', 'READ', [['graphName', 'STRING'], ['configuration', 'MAP', '{}']],
    [['nodeId', 'INTEGER'], ['score', 'FLOAT']], 'PageRank (personalized with sourceNodes).'],
  ['gds.pageRank.write', 'WRITE', [['graphName', 'STRING'], ['configuration', 'MAP', '{}']],
    [['nodePropertiesWritten', 'INTEGER'], ['ranIterations', 'INTEGER'], ['didConverge', 'BOOLEAN']],
    'PageRank written back to the database.'],
  ['apoc.meta.schema', 'READ', [['config', 'MAP', '{}']], [['value', 'MAP']],
    'The graph schema as a map.'],
];

// Neo4j's own procedures the project calls, taken with their signatures from the Neo4j 5
// catalogue the package ships (like the built-in functions below).
const BUILTIN_PROCEDURES = [
  'db.schema.nodeTypeProperties',
  'db.schema.relTypeProperties',
  'db.schema.visualization',
];

// [name, [[argName, type], ...], returnType, aggregating, description]
const FUNCTIONS = [
  ['gds.version', [], 'STRING', false, 'The installed Graph Data Science version.'],
  ['gds.util.asNode', [['nodeId', 'INTEGER | FLOAT']], 'NODE', false,
    'The node with the given GDS node id.'],
  ['gds.graph.project',
    [['graphName', 'STRING'], ['sourceNode', 'ANY'], ['targetNode', 'ANY', 'null'],
      ['dataConfig', 'ANY', 'null'], ['configuration', 'ANY', 'null']],
    'MAP', true, 'Cypher projection of a graph into the GDS catalogue.'],
  ['apoc.coll.sort', [['coll', 'LIST<ANY>']], 'LIST<ANY>', false, 'A sorted copy of a list.'],
  ['apoc.coll.toSet', [['coll', 'LIST<ANY>']], 'LIST<ANY>', false,
    'The list without repeated values.'],
  ['apoc.map.merge', [['map1', 'MAP'], ['map2', 'MAP']], 'MAP', false,
    'The two maps merged; the second one wins on a shared key.'],
  ['apoc.text.replace', [['text', 'STRING'], ['regex', 'STRING'], ['replacement', 'STRING']],
    'STRING', false, 'Every match of a regular expression replaced.'],
  ['apoc.map.fromPairs', [['pairs', 'LIST<LIST<ANY>>']], 'MAP', false,
    'A map from a list of [key, value] pairs.'],
  ['apoc.text.join', [['texts', 'LIST<STRING>'], ['delimiter', 'STRING']], 'STRING', false,
    'The strings joined by a delimiter.'],
];

function argText([name, type, dflt]) {
  return dflt === undefined ? `${name} :: ${type}` : `${name} = ${dflt} :: ${type}`;
}

function argDescription([name, type, dflt]) {
  const arg = { name, type, description: name, isDeprecated: false };
  if (dflt !== undefined) arg.default = `DefaultParameterValue{value=${dflt}, type=${type}}`;
  return arg;
}

function procedure([name, mode, args, returns, description]) {
  const ret = returns.map(([n, t]) => `${n} :: ${t}`).join(', ');
  return {
    name,
    description,
    mode,
    worksOnSystem: false,
    signature: `${name}(${args.map(argText).join(', ')})${returns.length ? ` :: (${ret})` : ''}`,
    argumentDescription: args.map(argDescription),
    returnDescription: returns.map(([n, t]) => ({
      name: n, type: t, description: n, isDeprecated: false,
    })),
    admin: false,
    option: { deprecated: false },
  };
}

function func([name, args, returnType, aggregating, description]) {
  return {
    name,
    category: '',
    description,
    isBuiltIn: false,
    signature: `${name}(${args.map(argText).join(', ')}) :: ${returnType}`,
    argumentDescription: args.map(argDescription),
    returnDescription: returnType,
    aggregating,
    isDeprecated: false,
  };
}

function registry(items) {
  return Object.fromEntries(items.map((item) => [item.name, item]));
}

export function buildSchema(request) {
  const version = request.cypherVersion ?? 'CYPHER 5';
  // Neo4j's own built-in functions (size, coalesce, ...): the package ships the catalogue of a
  // real Neo4j 5 server; only entries flagged isBuiltIn are taken, never plugin ones.
  const bundled = testData.mockSchema.functions[version] ?? {};
  const builtIns = Object.values(bundled).filter((f) => f.isBuiltIn);
  const functions = [...builtIns, ...FUNCTIONS.map(func), ...(request.functions ?? [])];
  const shipped = testData.mockSchema.procedures[version] ?? {};
  const builtInProcedures = BUILTIN_PROCEDURES.map((name) => {
    if (!shipped[name]) throw new Error(`the bundled catalogue has no procedure ${name}`);
    return shipped[name];
  });
  const procedures = [
    ...builtInProcedures, ...PROCEDURES.map(procedure), ...(request.procedures ?? []),
  ];
  return {
    defaultLanguage: version,
    labels: ['Document', 'Chunk', 'Entity', 'Alias', 'Meta', 'NumericFact'],
    relationshipTypes: ['HAS_CHUNK', 'NEXT', 'MENTIONS', 'ALIAS_OF', 'RELATED', 'SAME_AS', 'ABOUT',
      'TITLE_SUBJECT'],
    functions: { [version]: registry(functions) },
    procedures: { [version]: registry(procedures) },
  };
}

export function lint(request) {
  const base = buildSchema(request);
  const results = (request.queries ?? []).map(({ name, text, params }) => {
    // Declared parameters are exactly those the query names; their values only matter for
    // type inference, which the linter does not do for parameters.
    const schema = { ...base, parameters: Object.fromEntries((params ?? []).map((p) => [p, null])) };
    const { diagnostics } = lintCypherQuery(text, schema);
    return {
      name,
      diagnostics: diagnostics.map((d) => ({
        severity: SEVERITY[d.severity] ?? String(d.severity),
        message: d.message,
        line: d.range.start.line + 1,
        column: d.range.start.character + 1,
        offset: d.offsets?.start ?? null,
      })),
    };
  });
  const errors = results.reduce(
    (n, r) => n + r.diagnostics.filter((d) => d.severity === 'error').length, 0);
  return { results, errors };
}

const request = JSON.parse(readFileSync(0, 'utf8'));
process.stdout.write(`${JSON.stringify(lint(request), null, 2)}\n`);
