/** Spec §2 fullscreen dialog area; closing it runs the dialog's close callback. */
import CloseIcon from '@mui/icons-material/Close';
import AppBar from '@mui/material/AppBar';
import Box from '@mui/material/Box';
import Dialog from '@mui/material/Dialog';
import IconButton from '@mui/material/IconButton';
import Toolbar from '@mui/material/Toolbar';
import Typography from '@mui/material/Typography';
import { useStore } from '../../lib/store';

export default function DialogArea() {
  const dialog = useStore((s) => s.dialog);
  const closeDialog = useStore((s) => s.closeDialog);
  return (
    <Dialog fullScreen open={dialog !== null} onClose={closeDialog} aria-labelledby="dialog-title">
      <AppBar position="sticky" color="default" elevation={1}>
        <Toolbar>
          <Typography id="dialog-title" variant="h6" component="h2" sx={{ flex: 1 }}>
            {dialog?.title}
          </Typography>
          <IconButton edge="end" aria-label="Close" onClick={closeDialog}>
            <CloseIcon />
          </IconButton>
        </Toolbar>
      </AppBar>
      <Box sx={{ p: 3 }}>{dialog?.content}</Box>
    </Dialog>
  );
}
