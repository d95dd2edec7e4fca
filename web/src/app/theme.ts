import { createTheme, type Theme } from '@mui/material/styles';
import { AUTOCOMPLETE_MAX_HEIGHT_PX } from '@tessera/common/constants';
import { PALETTE, type ThemeMode } from '@tessera/common/theme';

export function buildTheme(mode: ThemeMode): Theme {
  return createTheme({
    palette: {
      mode,
      primary: { main: PALETTE.primary },
      secondary: { main: PALETTE.secondary },
      error: { main: PALETTE.error },
      warning: { main: PALETTE.warning },
      info: { main: PALETTE.info },
      success: { main: PALETTE.success },
    },
    components: {
      // Spec §9: outlined fields, comfortable density, autocomplete menus at most 310 px high.
      MuiTextField: { defaultProps: { variant: 'outlined', size: 'medium', fullWidth: true } },
      MuiFormControl: { defaultProps: { variant: 'outlined', size: 'medium' } },
      MuiAutocomplete: { styleOverrides: { listbox: { maxHeight: AUTOCOMPLETE_MAX_HEIGHT_PX } } },
    },
  });
}
