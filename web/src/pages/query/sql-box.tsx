/** The SQL editor's frame: CodeMirror in its own chunk, loaded on first use. */
import { lazy } from 'react';
import { CodeFrame } from '../code-frame';
import type { SqlEditorProps } from './sql-editor';

const SqlEditor = lazy(() => import('./sql-editor'));

export function SqlBox(props: SqlEditorProps) {
  return (
    <CodeFrame sx={{ height: 220, resize: 'vertical' }}>
      <SqlEditor {...props} />
    </CodeFrame>
  );
}
