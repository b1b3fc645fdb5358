/**
 * The edge-rule language: catalogue, parser, compiler from general rules and evaluator.
 * Pure TypeScript (no Node or DOM APIs), shared by the server, the console and the tests.
 */
export * from './types';
export * from './catalogue';
export * from './countries';
export { parse, tokenize, lineColumn, formatSyntaxError, type Program, type Piece, type Expr, type SyntaxError as RuleSyntaxError, type ParseResult, type ParseOptions, type QueryMode } from './parser';
export { compileGeneral, compileCondition, compileAction, programOf, quote, template, splitVariable, variableOf, splitRate } from './compile';
export { compileRule, compileRuleSet, run, evaluate, parseRequest, EdgeRuntimeError, type CompiledRule, type CompiledRuleSet, type RunOptions } from './evaluate';
export { pcre, groupCount } from './regex';
export { checkProgram, type CheckResult } from './check';
