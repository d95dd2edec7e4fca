/**
 * Cut a release (/releases/add) or change a draft (/releases/edit/{id}): a semantic version, the commit it is built
 * from (the server builds its artifact with `git archive`), and Markdown notes. Published releases are not edited.
 */
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import { COMMIT_PATTERN, RELEASE_LIMITS, RELEASE_MESSAGES, SEMVER_PATTERN } from '@tessera/common/deployments';
import { useEffect, useRef } from 'react';
import { Navigate } from 'react-router';
import { FormContainer, TextInput, useForm } from '../../forms';
import { navigate } from '../../lib/navigator';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import { createRelease, RELEASES_PATH, type ReleaseInput, updateRelease, useRelease } from './release-api';

const EMPTY: ReleaseInput = { version: '', commit: '', notes: '' };

export const checkVersion = (value: string) => (SEMVER_PATTERN.test(value) ? undefined : RELEASE_MESSAGES.version);
export const checkCommit = (value: string) =>
  COMMIT_PATTERN.test(value.toLowerCase()) ? undefined : RELEASE_MESSAGES.commit;

export function ReleaseEditor({ id }: { id?: number }) {
  const release = useRelease(id);
  const form = useForm<ReleaseInput>(EMPTY);
  const loaded = useRef(false);
  useFetch(id === undefined ? null : `${RELEASES_PATH}/${id}`);

  useEffect(() => {
    if (!release || loaded.current) return;
    loaded.current = true;
    form.reset({ version: release.version, commit: release.commit, notes: release.notes });
  }, [release, form.reset]);

  if (id !== undefined && !release) return <CircularProgress aria-label="Loading the release" />;
  if (release && release.status !== 'draft') return <Navigate to={`/releases/${release.id}`} replace />;

  async function save(values: ReleaseInput) {
    const input = { version: values.version.trim(), commit: values.commit.trim(), notes: values.notes };
    if (id === undefined) {
      const created = await createRelease(input);
      if (created) navigate(`/releases/${created.id}`);
    } else {
      await updateRelease(id, input);
      navigate(`/releases/${id}`);
    }
  }

  return (
    <>
      <PageHeading>{id === undefined ? 'New Release' : `Edit Release ${release?.version ?? ''}`}</PageHeading>
      <FormContainer form={form} onValid={save} sx={{ maxWidth: 720 }}>
        <Stack spacing={2}>
          <TextInput
            name="version"
            label="Version"
            what="a version"
            maxLength={RELEASE_LIMITS.version}
            check={checkVersion}
            helperText="A semantic version, such as 1.4.0."
            autoFocus
          />
          <TextInput
            name="commit"
            label="Commit"
            what="a commit"
            maxLength={RELEASE_LIMITS.commit}
            check={checkCommit}
            helperText="The commit of this repository to build from (git archive --format=tar.gz <commit>)."
          />
          <TextInput
            name="notes"
            label="Notes"
            optional
            multiline
            minRows={6}
            maxLength={RELEASE_LIMITS.notes}
            helperText="Markdown."
          />
          <Stack direction="row" spacing={2}>
            <Button type="submit" variant="contained" disabled={form.busy}>
              {id === undefined ? 'Create Release' : 'Save'}
            </Button>
            <Button onClick={() => navigate(id === undefined ? '/releases' : `/releases/${id}`)}>Cancel</Button>
          </Stack>
        </Stack>
      </FormContainer>
    </>
  );
}
