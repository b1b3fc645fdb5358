/**
 * The programming-mode editor: Monaco with the edge-rule language (setup.ts). Loaded lazily from
 * CodeEditor.tsx as the "monaco" chunk.
 */
import { useEffect, useRef } from 'react';
import Editor, { type OnMount } from '@monaco-editor/react';
import { Spinner } from '@blueprintjs/core';
import { LANGUAGE_ID, THEME, updateMarkers, monaco } from './setup';

/** Said under the editor: how a keyboard user leaves it (Tab indents inside Monaco). */
export const EDITOR_KEYS_HINT = '在编辑器中 Tab 键用于缩进：按 Ctrl+M 切换为用 Tab 键移动焦点，或先按 Esc 再按 Tab 离开编辑器。';

export interface RuleCodeEditorProps {
  value: string;
  onChange(value: string): void;
  /** The URI extraction pattern: `$n` is checked against its groups. */
  pattern: string;
  height?: number;
  invalid?: boolean;
}

export default function RuleCodeEditor({ value, onChange, pattern, height = 220, invalid }: RuleCodeEditorProps) {
  const editorRef = useRef<monaco.editor.IStandaloneCodeEditor | null>(null);
  const patternRef = useRef(pattern);
  patternRef.current = pattern;

  // markers follow the text and the pattern, a moment after typing stops
  useEffect(() => {
    const model = editorRef.current?.getModel();
    if (!model) return;
    const t = setTimeout(() => updateMarkers(model, pattern), 250);
    return () => clearTimeout(t);
  }, [value, pattern]);

  const onMount: OnMount = (editor) => {
    editorRef.current = editor;
    // Escape then Tab (or Shift+Tab) leaves the editor: Escape lets the next key move focus, any other key takes it back
    let leaving = false;
    const leave = (on: boolean) => {
      if (leaving === on) return;
      leaving = on;
      editor.updateOptions({ tabFocusMode: on });
    };
    editor.onKeyDown((e) => {
      if (e.keyCode === monaco.KeyCode.Escape) leave(true);
      else if (e.keyCode !== monaco.KeyCode.Tab && e.keyCode !== monaco.KeyCode.Shift) leave(false);
    });
    editor.onDidBlurEditorText(() => leave(false));
    const model = editor.getModel();
    if (model) updateMarkers(model, patternRef.current);
  };

  return (
    <>
    <div className={`edge-code-editor${invalid ? ' is-invalid' : ''}`} data-testid="rule-editor">
      <Editor
        height={height}
        language={LANGUAGE_ID}
        theme={THEME}
        value={value}
        onChange={(v) => onChange(v ?? '')}
        onMount={onMount}
        loading={<Spinner size={24} aria-label="编辑器加载中" />}
        options={{
          minimap: { enabled: false },
          fontSize: 13,
          lineNumbers: 'on',
          wordWrap: 'on',
          scrollBeyondLastLine: false,
          automaticLayout: true,
          tabSize: 2,
          fixedOverflowWidgets: true,
          renderLineHighlight: 'line',
          placeholder: '例如：$WHEN($MATCH($_URI, \'\\.m3u8$\'), $NOT($_GET_sign))$EXIT(403)',
          ariaLabel: '规则编辑器',
          quickSuggestions: { other: true, strings: false, comments: false },
          suggest: { showWords: false },
        }}
      />
    </div>
    <p className="edge-code-editor-hint">{EDITOR_KEYS_HINT}</p>
    </>
  );
}
