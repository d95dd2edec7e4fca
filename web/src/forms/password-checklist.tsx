/** Spec §5 new-password checklist: each of PASSWORD_CHECKS marked met or not; the whole turns success when all are. */
import CheckCircle from '@mui/icons-material/CheckCircle';
import RadioButtonUnchecked from '@mui/icons-material/RadioButtonUnchecked';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import { PASSWORD_CHECKS } from '@tessera/common/validation';

/**
 * Read by screen readers, not shown: whether an item is met is otherwise only its icon and colour. Sizes are
 * strings: MUI reads a bare `width: 1` as 100 %, which once made the password pages scroll sideways.
 */
const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  margin: '-1px',
  padding: 0,
  border: 0,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
} as const;

export function PasswordChecklist({ value }: { value: string }) {
  const items = PASSWORD_CHECKS.map((c) => ({ label: c.label, met: c.test(value) }));
  const complete = items.every((i) => i.met);
  return (
    <Alert
      severity={complete ? 'success' : 'info'}
      variant="outlined"
      icon={false}
      role="group"
      aria-label="Password requirements"
      data-testid="password-checklist"
      data-complete={complete}
      sx={{ py: 0 }}
    >
      <Box component="ul" sx={{ m: 0, p: 0, listStyle: 'none' }}>
        {items.map(({ label, met }) => (
          <Box
            component="li"
            key={label}
            data-met={met}
            sx={{ display: 'flex', alignItems: 'center', gap: 1, color: met ? 'success.main' : 'text.secondary' }}
          >
            {met ? <CheckCircle fontSize="inherit" /> : <RadioButtonUnchecked fontSize="inherit" />}
            {label}
            <Box component="span" sx={VISUALLY_HIDDEN}>
              {met ? ', met' : ', not met'}
            </Box>
          </Box>
        ))}
      </Box>
    </Alert>
  );
}
