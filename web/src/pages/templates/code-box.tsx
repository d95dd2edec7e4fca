/** The JSONata editor, loaded on first use in its own chunk (CodeMirror is large). */
import { lazy } from 'react';
import { CodeFrame } from '../code-frame';
import type { TemplateCodeProps } from './template-code';

const TemplateCode = lazy(() => import('./template-code'));

export function CodeBox(props: TemplateCodeProps & { minHeight?: number }) {
  const { minHeight = 160, ...code } = props;
  return (
    <CodeFrame sx={{ height: code.height ?? '100%', minHeight }}>
      <TemplateCode {...code} />
    </CodeFrame>
  );
}
