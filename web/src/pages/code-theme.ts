/**
 * What the code editors (the template and SQL editors) share of CodeMirror's look: token colours at WCAG AA
 * contrast against the editor's background in both modes, and the editor theme drawn from the console theme.
 * Imported only by the lazily loaded editors, so it rides in their chunk.
 */
import { EditorView } from '@codemirror/view';
import type { Theme } from '@mui/material/styles';

/** Token colours with at least 4.5:1 against the editor's background. */
export const TOKEN_COLOURS = {
  light: {
    keyword: '#7b1fa2',
    string: '#a31515',
    number: '#0b6e4f',
    comment: '#5f6368',
    name: '#0d47a1',
    regexp: '#8a3b00',
    property: '#1f1f1f',
    operator: '#6a3d00',
  },
  dark: {
    keyword: '#e1a6ff',
    string: '#ffab91',
    number: '#80cbc4',
    comment: '#b0b0b0',
    name: '#90caf9',
    regexp: '#ffcc80',
    property: '#e8e8e8',
    operator: '#ffe082',
  },
};

type Styles = Parameters<typeof EditorView.theme>[0];

/** The editor in the console's colours, with an editor's own rules added (brackets, diagnostics, tooltips). */
export function codeTheme(theme: Theme, own: Styles = {}) {
  const { palette } = theme;
  return EditorView.theme(
    {
      '&': { backgroundColor: palette.background.paper, color: palette.text.primary, height: '100%' },
      '.cm-content': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, Consolas, monospace', fontSize: '14px' },
      '.cm-gutters': {
        backgroundColor: palette.background.default,
        color: palette.text.secondary,
        borderRight: `1px solid ${palette.divider}`,
      },
      '.cm-activeLineGutter': { backgroundColor: palette.action.selected, color: palette.text.primary },
      '.cm-activeLine': { backgroundColor: palette.action.hover },
      '.cm-cursor': { borderLeftColor: palette.text.primary },
      '.cm-tooltip': { backgroundColor: palette.background.paper, color: palette.text.primary },
      ...own,
    },
    { dark: palette.mode === 'dark' },
  );
}
