/**
 * The console's MUI theme (spec §3 palette, §9 field defaults), held to WCAG 2.1 AA contrast:
 * the spec's colours fill buttons and bars with dark text where white would not reach 4.5:1, and text drawn in a
 * palette colour uses its darker shade on light backgrounds and its lighter shade on dark ones.
 * Every control shows one focus ring when focused from the keyboard (WCAG 2.4.7), set here once (decision 0060).
 */
import { buttonBaseClasses } from '@mui/material/ButtonBase';
import { formLabelClasses } from '@mui/material/FormLabel';
import { inputBaseClasses } from '@mui/material/InputBase';
import { createTheme, type PaletteColor, type Theme } from '@mui/material/styles';
import { tabClasses } from '@mui/material/Tab';
import { AUTOCOMPLETE_MAX_HEIGHT_PX } from '@tessera/common/constants';
import { PALETTE, type ThemeMode } from '@tessera/common/theme';

/** The status colours in dark mode: the spec names them without values; MUI's dark ones read on dark paper. */
const DARK_STATUS = { error: '#f44336', warning: '#ffa726', info: '#29b6f6', success: '#66bb6a' } as const;

/** WCAG 2.1 AA for normal text: the text on a palette colour is white only where white reaches 4.5:1. */
export const CONTRAST_THRESHOLD = 4.5;

const PALETTE_COLORS = ['primary', 'secondary', 'error', 'warning', 'info', 'success'] as const;
type PaletteColorName = (typeof PALETTE_COLORS)[number];

function isPaletteColor(color: unknown): color is PaletteColorName {
  return (PALETTE_COLORS as readonly unknown[]).includes(color);
}

/** The shade of a palette colour for text on the page: darker in light mode, lighter in dark mode. */
export function textShade(theme: Theme, color: PaletteColorName): string {
  const shades: PaletteColor = theme.palette[color];
  return theme.palette.mode === 'light' ? shades.dark : shades.light;
}

/**
 * The focus ring's colour, a CSS variable so that a coloured surface (a status bar) can set its own: near-black in
 * light mode, white in dark mode. Each reaches 3:1 (WCAG 1.4.11) on the page, on paper, and on the top bar
 * (#77933c in light mode: 4.6:1 against the ring; dark paper in dark mode).
 */
export const FOCUS_RING_VAR = '--tessera-focus-ring';
export const FOCUS_RING_COLOR: Record<ThemeMode, string> = { light: '#1a1a1a', dark: '#ffffff' };
/** The fixed top bar's height with any status bars under it, measured by the top bar (see top-bar.tsx). */
export const TOP_BAR_HEIGHT_VAR = '--tessera-top-bar-height';

const FOCUS_RING = { outline: `2px solid var(${FOCUS_RING_VAR})`, outlineOffset: 2 } as const;
/** For controls that fill their container edge to edge (menu items, list rows, tabs), where an outer ring is clipped. */
const INSET_FOCUS_RING = { outline: `2px solid var(${FOCUS_RING_VAR})`, outlineOffset: -2 } as const;

export function buildTheme(mode: ThemeMode): Theme {
  const status = mode === 'dark' ? DARK_STATUS : PALETTE;
  return createTheme({
    palette: {
      mode,
      contrastThreshold: CONTRAST_THRESHOLD,
      primary: { main: PALETTE.primary },
      secondary: { main: PALETTE.secondary },
      error: { main: status.error },
      warning: { main: status.warning },
      info: { main: status.info },
      success: { main: status.success },
    },
    // Spec wording is shown as written: no buttons in capitals.
    typography: { button: { textTransform: 'none' } },
    components: {
      MuiCssBaseline: {
        styleOverrides: {
          ':root': { [FOCUS_RING_VAR]: FOCUS_RING_COLOR[mode] },
          // A control focused by Tab scrolls clear of the fixed top bar, not under it (WCAG 2.4.11).
          html: { scrollPaddingTop: `calc(var(${TOP_BAR_HEIGHT_VAR}, 64px) + 8px)` },
          // Links, native controls, anything focusable that MUI does not draw.
          ':focus-visible': FOCUS_RING,
          // A chart's keyboard layer (MUI X's accessibility proxy, a focusable `role="none"` div over the chart) has
          // an inline `outline: none`: ring it inside.
          '[role="none"][tabindex]:focus-visible': {
            outline: `2px solid var(${FOCUS_RING_VAR}) !important`,
            outlineOffset: -2,
          },
        },
      },
      // Buttons, icon buttons, menu items, tabs, switches, checkboxes, sort headers: all are a ButtonBase, which
      // takes away the browser's outline and marks keyboard focus with this class.
      MuiButtonBase: { styleOverrides: { root: { [`&.${buttonBaseClasses.focusVisible}`]: FOCUS_RING } } },
      MuiListItemButton: { styleOverrides: { root: { [`&.${buttonBaseClasses.focusVisible}`]: INSET_FOCUS_RING } } },
      MuiMenuItem: { styleOverrides: { root: { [`&.${buttonBaseClasses.focusVisible}`]: INSET_FOCUS_RING } } },
      MuiTab: {
        styleOverrides: {
          root: ({ theme, ownerState }) => ({
            [`&.${buttonBaseClasses.focusVisible}`]: INSET_FOCUS_RING,
            // A selected tab's label is drawn in the primary colour: its text shade, like links and text buttons.
            ...(ownerState.textColor === 'primary'
              ? { [`&.${tabClasses.selected}`]: { color: textShade(theme, 'primary') } }
              : {}),
          }),
        },
      },
      // A text field's input takes no outline; the ring goes round the whole field.
      MuiInputBase: { styleOverrides: { root: { [`&.${inputBaseClasses.focused}`]: FOCUS_RING } } },
      // Spec §9: outlined fields, comfortable density, autocomplete menus at most 310 px high.
      MuiTextField: { defaultProps: { variant: 'outlined', size: 'medium', fullWidth: true } },
      MuiFormControl: { defaultProps: { variant: 'outlined', size: 'medium' } },
      MuiAutocomplete: { styleOverrides: { listbox: { maxHeight: AUTOCOMPLETE_MAX_HEIGHT_PX } } },
      MuiButton: {
        styleOverrides: {
          root: ({ theme, ownerState }) =>
            isPaletteColor(ownerState.color)
              ? {
                  '--variant-textColor': textShade(theme, ownerState.color),
                  '--variant-outlinedColor': textShade(theme, ownerState.color),
                }
              : {},
        },
      },
      MuiLink: {
        styleOverrides: {
          root: ({ theme, ownerState }) =>
            isPaletteColor(ownerState.color)
              ? {
                  color: textShade(theme, ownerState.color),
                  textDecorationColor: theme.alpha(textShade(theme, ownerState.color), 0.4),
                }
              : {},
        },
      },
      MuiFormLabel: {
        styleOverrides: {
          root: ({ theme, ownerState }) => ({
            [`&.${formLabelClasses.focused}:not(.${formLabelClasses.error})`]: {
              color: textShade(theme, isPaletteColor(ownerState.color) ? ownerState.color : 'primary'),
            },
          }),
        },
      },
      MuiChip: {
        styleOverrides: {
          root: ({ theme, ownerState }) =>
            ownerState.variant === 'outlined' && isPaletteColor(ownerState.color)
              ? { color: textShade(theme, ownerState.color) }
              : {},
        },
      },
    },
  });
}
