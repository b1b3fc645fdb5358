/**
 * Monaco, bundled (never fetched from a CDN: ../../../../../shared/SETUP-NOTES.md "Monaco without a
 * CDN"), with the edge-rule language: highlighting, completion of every function and variable with
 * its Chinese one-line description, hover, parameter hints, and syntax errors as markers from the
 * same parser the server runs. This module and everything it imports form the lazy "monaco" chunk.
 */
import 'monaco-editor/nls/lang/zh-cn';
import * as monaco from 'monaco-editor/editor';
import 'monaco-editor/features/codicon/register';
import 'monaco-editor/editor/browser/coreCommands';
import 'monaco-editor/editor/contrib/suggest/browser/suggestController';
import 'monaco-editor/features/hover/register';
import 'monaco-editor/features/bracketMatching/register';
import 'monaco-editor/features/find/register';
import 'monaco-editor/features/clipboard/register';
import 'monaco-editor/features/contextmenu/register';
import 'monaco-editor/features/snippet/register';
import 'monaco-editor/features/parameterHints/register';
import 'monaco-editor/features/placeholderText/register';
// Ctrl+M: Tab moves focus instead of indenting (issue 24; RuleCodeEditor says so under the editor)
import 'monaco-editor/features/toggleTabFocusMode/register';
import { loader } from '@monaco-editor/react';
import { CATEGORY_LABELS, checkProgram, FUNCTION_BY_NAME, FUNCTIONS, VARIABLES, type FunctionInfo } from '../../../shared/edgerules';

declare global {
  interface Window {
    MonacoEnvironment?: { getWorker(workerId: string, label: string): Worker };
  }
}

// A classic worker: webpack gives the worker chunk the code it shares with the page through
// importScripts, which module workers do not have (docs/edge-rules.md "Monaco").
self.MonacoEnvironment = {
  getWorker: () => new Worker(new URL('./editor.worker.ts', import.meta.url)),
};
loader.config({ monaco: monaco as never });

export { monaco };
export const LANGUAGE_ID = 'edgerule';
export const THEME = 'edgerule-light';
const OWNER = 'edgerule';

/** "$REDIRECT(url, code)" → ["url", "code"]: the required parameters, for snippets. */
function params(f: FunctionInfo): string[] {
  const inner = /\((.*)\)/.exec(f.signature)?.[1] ?? '';
  return inner
    .replace(/\[.*\]/, '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p && p !== '…')
    .slice(0, Math.max(f.min, 1));
}

monaco.languages.register({ id: LANGUAGE_ID, aliases: ['边缘规则', 'edgerule'] });

monaco.languages.setMonarchTokensProvider(LANGUAGE_ID, {
  functions: FUNCTIONS.map((f) => `$${f.name}`),
  tokenizer: {
    root: [
      [/\$\$/, 'keyword.break'],
      [/\$[A-Z][A-Z0-9_]*/, { cases: { '@functions': 'function', '@default': 'invalid' } }],
      [/\$_(?:HEADER|COOKIE|GET|POST)_[A-Za-z0-9_-]+/, 'variable'],
      [/\$_[A-Za-z0-9_]+/, 'variable'],
      [/\$\d(?:\.\d)?/, 'capture'],
      [/\$/, 'invalid'],
      [/'/, 'string', '@string'],
      [/\\./, 'escape'],
      [/[(),]/, 'delimiter'],
      [/\?\??(?=\s*(?:\$\$)?\s*$)/, 'keyword.query'],
      [/[^\s$'\\(),?]+/, 'text'],
    ],
    string: [
      [/[^\\']+/, 'string'],
      [/\\./, 'string.escape'],
      [/'/, 'string', '@pop'],
    ],
  },
} as monaco.languages.IMonarchLanguage);

monaco.languages.setLanguageConfiguration(LANGUAGE_ID, {
  brackets: [['(', ')']],
  autoClosingPairs: [
    { open: '(', close: ')' },
    { open: "'", close: "'", notIn: ['string'] },
  ],
  surroundingPairs: [
    { open: '(', close: ')' },
    { open: "'", close: "'" },
  ],
  wordPattern: /\$?[A-Za-z0-9_.-]+/,
});

monaco.editor.defineTheme(THEME, {
  base: 'vs',
  inherit: true,
  rules: [
    { token: 'function', foreground: '2d72d2', fontStyle: 'bold' },
    { token: 'variable', foreground: '1c6e42' },
    { token: 'capture', foreground: '7961db' },
    { token: 'string', foreground: 'a45b00' },
    { token: 'string.escape', foreground: 'c87619' },
    { token: 'escape', foreground: '8f99a8' },
    { token: 'keyword.break', foreground: 'cd4246', fontStyle: 'bold' },
    { token: 'keyword.query', foreground: 'cd4246' },
    { token: 'delimiter', foreground: '5f6b7c' },
    { token: 'invalid', foreground: 'cd4246', fontStyle: 'underline' },
    { token: 'text', foreground: '1c2127' },
  ],
  // the placeholder's grey reaches 4.5:1 on the highlighted line (axe color-contrast)
  colors: { 'editor.lineHighlightBackground': '#f6f7f9', 'editor.placeholder.foreground': '#5f6b7c' },
});

monaco.languages.registerCompletionItemProvider(LANGUAGE_ID, {
  triggerCharacters: ['$', '_'],
  provideCompletionItems(model, position, context) {
    const prefix = model.getLineContent(position.lineNumber).slice(0, position.column - 1);
    const m = /\$[A-Za-z0-9_-]*$/.exec(prefix);
    // while typing, only after a $; Ctrl+Space offers everything in place of the current word
    if (!m && context.triggerKind !== monaco.languages.CompletionTriggerKind.Invoke) return { suggestions: [] };
    const word = /[A-Za-z0-9_-]*$/.exec(prefix)![0];
    const startColumn = position.column - (m ? m[0].length : word.length);
    const range = new monaco.Range(position.lineNumber, startColumn, position.lineNumber, position.column);
    const Kind = monaco.languages.CompletionItemKind;
    const Rule = monaco.languages.CompletionItemInsertTextRule;
    const functions = FUNCTIONS.map((f, i) => ({
      label: { label: `$${f.name}`, detail: ` ${f.signature.slice(f.name.length + 1)}`, description: f.description },
      kind: Kind.Function,
      detail: f.signature,
      documentation: `${CATEGORY_LABELS[f.category]}：${f.description}`,
      insertText: `\\$${f.name}(${params(f).map((p, k) => `\${${k + 1}:${p}}`).join(', ')})`,
      insertTextRules: Rule.InsertAsSnippet,
      filterText: `$${f.name}`,
      sortText: `1${String(i).padStart(3, '0')}`,
      range,
    }));
    const variables = VARIABLES.map((v, i) => ({
      label: { label: `$_${v.name}`, description: v.description },
      kind: Kind.Variable,
      detail: `$_${v.name}`,
      documentation: `变量：${v.description}`,
      insertText: v.prefix && v.insert.endsWith('_') ? `\\$_${v.insert}\${1:name}` : `\\$_${v.insert}`,
      insertTextRules: Rule.InsertAsSnippet,
      filterText: `$_${v.name}`,
      sortText: `0${String(i).padStart(3, '0')}`,
      range,
    }));
    return { suggestions: [...variables, ...functions] };
  },
});

/** The function or variable name covering a position. */
function nameAt(model: monaco.editor.ITextModel, position: monaco.Position): { text: string; start: number; end: number } | null {
  const line = model.getLineContent(position.lineNumber);
  for (const m of line.matchAll(/\$[A-Z][A-Z0-9_]*|\$_(?:(?:HEADER|COOKIE|GET|POST)_[A-Za-z0-9_-]+|[A-Za-z0-9_]+)/g)) {
    const start = m.index! + 1;
    const end = start + m[0].length;
    if (position.column >= start && position.column <= end) return { text: m[0], start, end };
  }
  return null;
}

/** What a name is, in one line. */
export function describeName(text: string): string | null {
  if (text.startsWith('$_')) {
    const name = text.slice(2);
    const v = VARIABLES.find((x) => (x.prefix ? name.startsWith(x.prefix) : x.name === name));
    return v ? `**变量 $_${v.name}**：${v.description}` : null;
  }
  const f = FUNCTION_BY_NAME.get(text.slice(1));
  return f ? `**${f.signature}**${f.extension ? '（本控制台扩展）' : ''}\n\n${f.description}` : null;
}

monaco.languages.registerHoverProvider(LANGUAGE_ID, {
  provideHover(model, position) {
    const hit = nameAt(model, position);
    const text = hit && describeName(hit.text);
    if (!hit || !text) return null;
    return { range: new monaco.Range(position.lineNumber, hit.start, position.lineNumber, hit.end), contents: [{ value: text }] };
  },
});

monaco.languages.registerSignatureHelpProvider(LANGUAGE_ID, {
  signatureHelpTriggerCharacters: ['(', ','],
  signatureHelpRetriggerCharacters: [','],
  provideSignatureHelp(model, position) {
    const before = model.getValueInRange(new monaco.Range(1, 1, position.lineNumber, position.column));
    // walk back to the innermost open call, counting commas at its depth (quotes respected roughly)
    let depth = 0;
    let commas = 0;
    let inString = false;
    for (let i = before.length - 1; i >= 0; i--) {
      const c = before[i];
      if (c === "'" && before[i - 1] !== '\\') inString = !inString;
      if (inString || before[i - 1] === '\\') continue;
      if (c === ')') depth++;
      else if (c === ',' && depth === 0) commas++;
      else if (c === '(') {
        if (depth === 0) {
          const m = /\$([A-Z][A-Z0-9_]*)\s*$/.exec(before.slice(0, i));
          const f = m && FUNCTION_BY_NAME.get(m[1]);
          if (!f) return null;
          const labels = (/\((.*)\)/.exec(f.signature)?.[1] ?? '').replace(/[[\]]/g, '').split(',').map((p) => p.trim());
          return {
            value: {
              signatures: [{ label: f.signature, documentation: f.description, parameters: labels.map((l) => ({ label: l })) }],
              activeSignature: 0,
              activeParameter: Math.min(commas, labels.length - 1),
            },
            dispose() {},
          };
        }
        depth--;
      }
    }
    return null;
  },
});

/** Syntax errors of the program as markers (the URI extraction pattern is checked beside it). */
export function updateMarkers(model: monaco.editor.ITextModel, pattern: string): void {
  const source = model.getValue();
  const r = source.trim() ? checkProgram(source, pattern) : ({ ok: true } as const);
  if (r.ok || r.part !== 'rule') {
    monaco.editor.setModelMarkers(model, OWNER, []);
    return;
  }
  const start = model.getPositionAt(r.error.start);
  const end = model.getPositionAt(Math.max(r.error.end, r.error.start + 1));
  monaco.editor.setModelMarkers(model, OWNER, [
    { severity: monaco.MarkerSeverity.Error, message: r.error.reason, startLineNumber: start.lineNumber, startColumn: start.column, endLineNumber: end.lineNumber, endColumn: end.column, source: '边缘规则' },
  ]);
}
