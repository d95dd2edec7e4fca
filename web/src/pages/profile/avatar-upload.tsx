/** The user's picture, and uploading a new one: type and size are checked here first, and again by the server. */
import Avatar from '@mui/material/Avatar';
import Button from '@mui/material/Button';
import FormHelperText from '@mui/material/FormHelperText';
import Stack from '@mui/material/Stack';
import { IMAGE_MAX_BYTES, IMAGE_TYPES, RESOURCE_PATHS } from '@tessera/common/resources';
import { MESSAGES } from '@tessera/common/validation';
import { useState } from 'react';
import { initials } from '../../app/shell/user-menu';
import { api } from '../../lib/api';
import { imageUrl } from '../../lib/image-url';
import { useStore } from '../../lib/store';

/** Why a file cannot be the picture, or '' when it can. */
export function imageProblem(file: Pick<File, 'type' | 'size'>): string {
  if (!(IMAGE_TYPES as readonly string[]).includes(file.type)) return MESSAGES.imageType;
  if (file.size > IMAGE_MAX_BYTES) return MESSAGES.imageTooLarge(IMAGE_MAX_BYTES);
  return '';
}

export function AvatarUpload() {
  const self = useStore((s) => s.self);
  const [problem, setProblem] = useState('');
  const [busy, setBusy] = useState(false);

  async function upload(file: File) {
    const found = imageProblem(file);
    setProblem(found);
    if (found) return;
    setBusy(true);
    try {
      await api.upload(RESOURCE_PATHS.userImage(self.id), file);
    } catch {
      // The API client has shown the server's reason.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack spacing={1} sx={{ alignItems: 'center' }}>
      <Avatar
        src={imageUrl(self.image)}
        alt={self.name || self.email}
        sx={{ width: 96, height: 96, fontSize: 36, bgcolor: 'secondary.main' }}
      >
        {initials(self.name, self.email)}
      </Avatar>
      <Button component="label" size="small" variant="outlined" disabled={busy}>
        Upload picture
        <input
          hidden
          type="file"
          accept={IMAGE_TYPES.join(',')}
          data-testid="avatar-file"
          onChange={(event) => {
            const file = event.target.files?.[0];
            event.target.value = ''; // choosing the same file again still fires
            if (file) void upload(file);
          }}
        />
      </Button>
      {problem && (
        <FormHelperText error role="alert" sx={{ textAlign: 'center', maxWidth: 200 }}>
          {problem}
        </FormHelperText>
      )}
    </Stack>
  );
}
