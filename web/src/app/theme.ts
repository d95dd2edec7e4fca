/**
 * The console's MUI theme (spec §3 palette, §9 field defaults), held to WCAG 2.1 AA contrast:
 * the spec's colours fill buttons and bars with dark text where white would not reach 4.5:1, and text drawn in a
 * palette colour uses its darker shade on light backgrounds and its lighter shade on dark ones.
 */
import { formLabelClasses } from '@mui/material/FormLabel';
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
      // A selected tab's label is drawn in the primary colour: its text shade, like links and text buttons.
      MuiTab: {
        styleOverrides: {
          root: ({ theme, ownerState }) =>
            ownerState.textColor === 'primary'
              ? { [`&.${tabClasses.selected}`]: { color: textShade(theme, 'primary') } }
              : {},
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
