// Monaco's editor worker, bundled by webpack as its own file (new Worker(new URL(...)) in setup.ts).
import 'monaco-editor/editor/editor.worker';
