/**
 * The JSONata editor: CodeMirror 6 with the JSONata stream language, bracket matching, and the compiler's error
 * as a lint marker at its line and column. Loaded lazily by the template pages, so CodeMirror is in a chunk of its
 * own and no other page pays for it. Colours are the console theme's, at WCAG AA contrast in both modes.
 */
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import { useTheme } from '@mui/material/styles';
import CodeMirror, { type ReactCodeMirrorRef } from '@uiw/react-codemirror';
import { useEffect, useMemo, useRef } from 'react';
import { codeTheme, TOKEN_COLOURS } from '../code-theme';
import { jsonataLanguage } from './jsonata-language';
import type { CompileError } from './template-api';
import { offsetOf } from './template-logic';

export interface TemplateCodeProps {
  value: string;
  onChange?: (value: string) => void;
  readOnly?: boolean;
  /** The compiler's error, marked at its place. */
  error?: CompileError | null;
  /** The editor's accessible name. */
  label: string;
  height?: string;
}

function highlight(dark: boolean) {
  const c = dark ? TOKEN_COLOURS.dark : TOKEN_COLOURS.light;
  return HighlightStyle.define([
    { tag: [t.keyword, t.atom, t.bool, t.null], color: c.keyword },
    { tag: t.string, color: c.string },
    { tag: t.number, color: c.number },
    { tag: [t.variableName, t.function(t.variableName)], color: c.name },
    { tag: t.comment, color: c.comment, fontStyle: 'italic' },
    { tag: t.regexp, color: c.regexp },
    { tag: t.propertyName, color: c.property },
    { tag: t.operator, color: c.operator },
  ]);
}

/** The diagnostic for a compile error: the token that failed, from its column to the end of the word. */
export function diagnosticOf(doc: string, error: CompileError): Diagnostic {
  const from = offsetOf(doc, error.line, error.column);
  const word = /^[^\s()[\]{},;]+/.exec(doc.slice(from))?.[0].length ?? 0;
  return {
    from,
    to: Math.min(doc.length, from + Math.max(1, word)),
    severity: 'error',
    message: `Line ${error.line}, column ${error.column}: ${error.message}`,
    source: 'JSONata',
  };
}

export default function TemplateCode({ value, onChange, readOnly, error, label, height = '100%' }: TemplateCodeProps) {
  const theme = useTheme();
  const dark = theme.palette.mode === 'dark';
  const ref = useRef<ReactCodeMirrorRef>(null);
  const extensions = useMemo(
    () => [
      jsonataLanguage,
      syntaxHighlighting(highlight(dark)),
      lintGutter(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ 'aria-label': label }),
      codeTheme(theme, {
        '&.cm-focused .cm-matchingBracket': {
          backgroundColor: dark ? '#2e5b2e' : '#c8e6c9',
          color: theme.palette.text.primary,
          outline: `1px solid ${theme.palette.success.main}`,
        },
        '&.cm-focused .cm-nonmatchingBracket': { backgroundColor: dark ? '#5b2e2e' : '#ffcdd2' },
        '.cm-diagnostic-error': { borderLeftColor: theme.palette.error.main },
      }),
    ],
    [dark, theme, label],
  );

  // The compiler's error, placed on the text it was about; cleared when there is none.
  useEffect(() => {
    const view = ref.current?.view;
    if (!view) return;
    const doc = view.state.doc.toString();
    const found = error && error.line <= view.state.doc.lines ? [diagnosticOf(doc, error)] : [];
    view.dispatch(setDiagnostics(view.state, found));
  }, [error]);

  return (
    <CodeMirror
      ref={ref}
      value={value}
      onChange={onChange}
      readOnly={readOnly}
      editable={!readOnly}
      theme="none"
      height={height}
      style={{ height }}
      basicSetup={{
        lineNumbers: true,
        foldGutter: false,
        bracketMatching: true,
        closeBrackets: !readOnly,
        autocompletion: false,
        highlightActiveLine: !readOnly,
        highlightActiveLineGutter: !readOnly,
        highlightSelectionMatches: false,
        searchKeymap: true,
        crosshairCursor: false,
        rectangularSelection: false,
        syntaxHighlighting: false,
      }}
      extensions={extensions}
      onCreateEditor={(view) => {
        if (error && error.line <= view.state.doc.lines) {
          view.dispatch(setDiagnostics(view.state, [diagnosticOf(view.state.doc.toString(), error)]));
        }
      }}
      data-testid="template-code"
    />
  );
}
