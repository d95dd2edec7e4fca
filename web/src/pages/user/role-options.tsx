/** The options of a role select: only the given roles, with their spec §6 labels. */
import MenuItem from '@mui/material/MenuItem';
import { ROLE_LABEL, type Role } from '@tessera/common/roles';

/** MUI's select reads its options' props, so these are returned as elements, not wrapped in a component. */
export function roleOptions(roles: readonly Role[]) {
  return roles.map((role) => (
    <MenuItem key={role} value={role}>
      {ROLE_LABEL[role]}
    </MenuItem>
  ));
}
