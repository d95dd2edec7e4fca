/**
 * Home (issue 16): how the month is going at a glance (requests, match rate, identities returned, cost against the
 * contract's monthly limit), the last 30 days' requests, the user's keys by last use, the most recently edited
 * templates, and the places the menu allows; live over the socket. Whose usage is what the usage page opens with:
 * a user their own, an administrator their organization's, super and root everyone's.
 */
import Grid from '@mui/material/Grid';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { Contract } from '@tessera/common/contracts';
import type { KeyEntry } from '@tessera/common/key-settings';
import { hasRank, ROLE_LABEL } from '@tessera/common/roles';
import type { Template } from '@tessera/common/templates';
import { useMemo } from 'react';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { PageHeading } from '../page-heading';
import { contractInForce, homeScope, recentKeys, recentTemplates, useHomeUsage } from './home-data';
import { MonthCard } from './month-card';
import { QuickLinks } from './quick-links';
import { RecentKeys, RecentTemplates } from './recent-lists';
import { RequestsSparkline } from './requests-sparkline';

export default function HomePage() {
  const self = useStore((s) => s.self);
  const { who } = homeScope(self);
  const usage = useHomeUsage(self);

  const wantsContract = who !== 'all' && self.organizationId !== null;
  const contractsLoaded = useFetch(wantsContract ? '/v2/contracts' : null);
  const contracts = useStore((s) => s.areas.contracts) as Record<string, Contract> | undefined;
  const contract = useMemo(
    () => (contractsLoaded ? contractInForce(Object.values(contracts ?? {}), self.organizationId) : undefined),
    [contractsLoaded, contracts, self.organizationId],
  );

  const keysLoaded = useFetch('/v2/keys');
  const allKeys = useStore((s) => s.areas.keys) as Record<string, KeyEntry> | undefined;
  const keys = useMemo(() => recentKeys(allKeys, self.id), [allKeys, self.id]);

  const templatesLoaded = useFetch('/v2/templates');
  const allTemplates = useStore((s) => s.areas.templates) as Record<string, Template> | undefined;
  const templates = useMemo(() => recentTemplates(allTemplates), [allTemplates]);

  return (
    <>
      <PageHeading>Home</PageHeading>
      <Typography sx={{ mb: 3 }} color="textSecondary">
        Signed in as {self.name || self.email} ({ROLE_LABEL[self.role]}
        {self.organizationName ? `, ${self.organizationName}` : ''}).
      </Typography>
      <Stack spacing={3}>
        <Grid container spacing={2}>
          <Grid size={{ xs: 12, lg: 8 }}>
            <MonthCard
              usage={usage}
              who={who}
              organizationId={self.organizationId}
              organizationName={self.organizationName}
              contract={contract}
            />
          </Grid>
          <Grid size={{ xs: 12, lg: 4 }}>
            <RequestsSparkline points={usage?.days ?? null} />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <RecentKeys keys={keys} loaded={keysLoaded} userId={self.id} />
          </Grid>
          <Grid size={{ xs: 12, md: 6 }}>
            <RecentTemplates
              templates={templates}
              loaded={templatesLoaded}
              mayCreate={self.organizationId !== null || hasRank(self.role, 'super')}
            />
          </Grid>
        </Grid>
        <QuickLinks role={self.role} />
      </Stack>
    </>
  );
}
