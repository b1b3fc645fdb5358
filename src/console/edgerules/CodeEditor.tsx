/**
 * The programming-mode editor, with Monaco in a lazy chunk of its own ("monaco"): the editor page
 * loads without it and fetches it when programming mode is shown.
 */
import { lazy, Suspense } from 'react';
import { Spinner } from '@blueprintjs/core';
import type { RuleCodeEditorProps } from './monaco/RuleCodeEditor';

const RuleCodeEditor = lazy(() => import(/* webpackChunkName: "monaco" */ './monaco/RuleCodeEditor'));

export function CodeEditor(props: RuleCodeEditorProps) {
  return (
    <Suspense fallback={<div className="edge-code-editor edge-code-loading"><Spinner size={24} aria-label="编辑器加载中" /></div>}>
      <RuleCodeEditor {...props} />
    </Suspense>
  );
}
