/** Home: a greeting and the places a signed-in user goes from here, as the menu allows for their role. */
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { isMenuGroup } from '@tessera/common/menu';
import { ROLE_LABEL } from '@tessera/common/roles';
import { Link } from 'react-router';
import { MenuIcon } from '../../app/icons';
import { visibleMenu } from '../../app/shell/nav-menu';
import { useStore } from '../../lib/store';
import { PageHeading } from '../page-heading';

export default function HomePage() {
  const self = useStore((s) => s.self);
  const destinations = visibleMenu(self.role)
    .flatMap((entry) => (isMenuGroup(entry) ? entry.items : [entry]))
    .filter((item) => !item.ciHosted);
  return (
    <>
      <PageHeading>Home</PageHeading>
      <Typography sx={{ mb: 3 }} color="text.secondary">
        Signed in as {self.name || self.email} ({ROLE_LABEL[self.role]}
        {self.organizationName ? `, ${self.organizationName}` : ''}).
      </Typography>
      <Grid container spacing={2}>
        {destinations.map((item) => (
          <Grid key={item.path} size={{ xs: 12, sm: 6, md: 4, lg: 3 }}>
            <Card variant="outlined">
              <CardActionArea component={Link} to={item.path}>
                <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 1.5 }}>
                  <MenuIcon name={item.icon} />
                  <Typography>{item.label}</Typography>
                </CardContent>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </>
  );
}
