/**
 * The JSONata editor: CodeMirror 6 with the JSONata stream language, bracket matching, and the compiler's error
 * as a lint marker at its line and column. Loaded lazily by the template pages, so CodeMirror is in a chunk of its
 * own and no other page pays for it. Colours are the console theme's, at WCAG AA contrast in both modes. An editable
 * one completes the record's fields and JSONata's functions (jsonata-completion.ts) as you type or on Ctrl+Space.
 */
import { autocompletion, completionStatus } from '@codemirror/autocomplete';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { type Diagnostic, lintGutter, setDiagnostics } from '@codemirror/lint';
import { Prec } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';
import { type Theme, useTheme } from '@mui/material/styles';
import CodeMirror, { type ReactCodeMirrorRef } from '@uiw/react-codemirror';
import { useEffect, useMemo, useRef } from 'react';
import { codeTheme, TOKEN_COLOURS } from '../code-theme';
import { jsonataCompletion } from './jsonata-completion';
import { jsonataLanguage } from './jsonata-language';
import { RECORD_FIELDS } from './record-fields';
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
  /** The id of text that describes the editor (how to use it). */
  describedBy?: string;
  /** Hands out the editor once made (null when it goes), so others can write into it. */
  onView?: (view: EditorView | null) => void;
}

const completeJsonata = jsonataCompletion(RECORD_FIELDS);

type Rect = { left: number; right: number; top: number; bottom: number };

/**
 * Where a completion's description goes: beside the list, at its option, when there is room; otherwise (a narrow
 * window) under the whole list, or over it when there is more room there, so it never covers the other options.
 */
export function placeInfo(_view: EditorView, list: Rect, option: Rect, info: Rect, space: Rect) {
  const width = info.right - info.left;
  const height = info.bottom - info.top;
  const right = space.right - list.right;
  const left = list.left - space.left;
  if (width <= right || width <= left) {
    const side = width <= right ? 'right' : 'left';
    const top = Math.max(space.top, Math.min(option.top, space.bottom - height)) - list.top;
    return {
      style: `top: ${top}px; max-width: ${Math.min(400, side === 'right' ? right : left)}px`,
      class: `cm-completionInfo-${side}`,
    };
  }
  const below = space.bottom - list.bottom >= height || space.bottom - list.bottom >= list.top - space.top;
  const maxWidth = Math.min(400, space.right - list.left);
  return { style: `${below ? 'top' : 'bottom'}: ${list.bottom - list.top}px; left: 0; max-width: ${maxWidth}px` };
}

/**
 * Completion as you type, and Esc then Tab leaving the editor even when Esc closed the completion list: CodeMirror
 * arms its Tab-moves-focus mode on an Esc nothing else took, and the list's own Esc takes it.
 */
const completion = [
  Prec.highest(
    EditorView.domEventHandlers({
      keydown(event, view) {
        if (event.key === 'Escape' && completionStatus(view.state) !== null) view.setTabFocusMode(2000);
        return false;
      },
    }),
  ),
  autocompletion({ override: [completeJsonata], icons: false, positionInfo: placeInfo }),
];

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

/** The completion list and its info panel in the console's colours, the chosen option in the primary colour. */
function completionStyles(theme: Theme) {
  const { palette } = theme;
  const selected = { backgroundColor: palette.primary.main, color: palette.primary.contrastText };
  return {
    '.cm-tooltip.cm-tooltip-autocomplete, .cm-tooltip.cm-completionInfo': {
      border: `1px solid ${palette.divider}`,
      borderRadius: '4px',
      boxShadow: theme.shadows[4],
    },
    '.cm-tooltip.cm-tooltip-autocomplete > ul': {
      fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace',
    },
    '.cm-tooltip.cm-tooltip-autocomplete > ul > li': { padding: '2px 8px' },
    // Compound, to outrank CodeMirror's own light and dark rules for the chosen option.
    '.cm-tooltip.cm-tooltip-autocomplete ul li[aria-selected]': selected,
    '.cm-completionDetail': { color: palette.text.secondary, marginLeft: '1em' },
    '.cm-tooltip.cm-tooltip-autocomplete ul li[aria-selected] .cm-completionDetail': { color: 'inherit' },
    '.cm-completionInfo': { fontFamily: theme.typography.fontFamily ?? 'inherit', fontSize: '13px', lineHeight: 1.5 },
  };
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

export default function TemplateCode(props: TemplateCodeProps) {
  const { value, onChange, readOnly, error, label, height = '100%', describedBy, onView } = props;
  const theme = useTheme();
  const dark = theme.palette.mode === 'dark';
  const ref = useRef<ReactCodeMirrorRef>(null);
  const extensions = useMemo(
    () => [
      jsonataLanguage,
      ...(readOnly ? [] : completion),
      syntaxHighlighting(highlight(dark)),
      lintGutter(),
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({
        'aria-label': label,
        ...(describedBy ? { 'aria-describedby': describedBy } : {}),
      }),
      codeTheme(theme, {
        '&.cm-focused .cm-matchingBracket': {
          backgroundColor: dark ? '#2e5b2e' : '#c8e6c9',
          color: theme.palette.text.primary,
          outline: `1px solid ${theme.palette.success.main}`,
        },
        '&.cm-focused .cm-nonmatchingBracket': { backgroundColor: dark ? '#5b2e2e' : '#ffcdd2' },
        '.cm-diagnostic-error': { borderLeftColor: theme.palette.error.main },
        ...completionStyles(theme),
      }),
    ],
    [dark, theme, label, readOnly, describedBy],
  );

  // Whoever asked is told when the editor goes.
  const onViewRef = useRef(onView);
  onViewRef.current = onView;
  useEffect(() => () => onViewRef.current?.(null), []);

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
        onView?.(view);
        if (error && error.line <= view.state.doc.lines) {
          view.dispatch(setDiagnostics(view.state, [diagnosticOf(view.state.doc.toString(), error)]));
        }
      }}
      data-testid="template-code"
    />
  );
}
