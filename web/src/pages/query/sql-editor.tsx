/**
 * The SQL editor: CodeMirror 6 with PostgreSQL's dialect and completion of the chosen cluster's tables and
 * columns; Ctrl/Cmd-Enter runs. Loaded lazily (sql-box.tsx), so CodeMirror is in a chunk of its own.
 */
import { PostgreSQL, sql } from '@codemirror/lang-sql';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { Prec } from '@codemirror/state';
import { EditorView, keymap } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import { useTheme } from '@mui/material/styles';
import type { ClusterSchema } from '@tessera/common/query-console';
import CodeMirror from '@uiw/react-codemirror';
import { useMemo, useRef } from 'react';
import { codeTheme, TOKEN_COLOURS } from '../code-theme';
import { namespaceOf } from './schema-namespace';

export interface SqlEditorProps {
  value: string;
  onChange: (value: string) => void;
  onRun: () => void;
  schema: ClusterSchema;
  label: string;
}

export default function SqlEditor({ value, onChange, onRun, schema, label }: SqlEditorProps) {
  const theme = useTheme();
  const dark = theme.palette.mode === 'dark';
  const run = useRef(onRun);
  run.current = onRun;
  const extensions = useMemo(() => {
    const c = dark ? TOKEN_COLOURS.dark : TOKEN_COLOURS.light;
    return [
      sql({ dialect: PostgreSQL, schema: namespaceOf(schema), defaultSchema: 'public' }),
      syntaxHighlighting(
        HighlightStyle.define([
          { tag: [t.keyword, t.operatorKeyword, t.bool, t.null], color: c.keyword },
          { tag: [t.string, t.special(t.string)], color: c.string },
          { tag: t.number, color: c.number },
          { tag: [t.comment, t.lineComment, t.blockComment], color: c.comment, fontStyle: 'italic' },
          { tag: [t.typeName, t.standard(t.name)], color: c.name },
        ]),
      ),
      Prec.highest(
        keymap.of([
          {
            key: 'Mod-Enter',
            run: () => {
              run.current();
              return true;
            },
          },
        ]),
      ),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': label }),
      codeTheme(theme, {
        '.cm-tooltip-autocomplete ul li[aria-selected]': {
          backgroundColor: theme.palette.primary.main,
          color: theme.palette.primary.contrastText,
        },
      }),
    ];
  }, [dark, theme, label, schema]);

  return (
    <CodeMirror
      value={value}
      onChange={onChange}
      theme="none"
      height="100%"
      style={{ height: '100%' }}
      basicSetup={{
        lineNumbers: true,
        foldGutter: false,
        autocompletion: true,
        highlightSelectionMatches: false,
        syntaxHighlighting: false,
        crosshairCursor: false,
        rectangularSelection: false,
      }}
      extensions={extensions}
      data-testid="sql-editor"
    />
  );
}
