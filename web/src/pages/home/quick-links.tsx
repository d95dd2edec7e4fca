/** The places a signed-in user goes from home, as the menu allows for their role (in-app pages only). */
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import Grid from '@mui/material/Grid';
import Typography from '@mui/material/Typography';
import { isMenuGroup } from '@tessera/common/menu';
import type { Role } from '@tessera/common/roles';
import { Link } from 'react-router';
import { MenuIcon } from '../../app/icons';
import { visibleMenu } from '../../app/shell/nav-menu';

export function QuickLinks({ role }: { role: Role }) {
  const destinations = visibleMenu(role)
    .flatMap((entry) => (isMenuGroup(entry) ? entry.items : [entry]))
    .filter((item) => !item.ciHosted);
  return (
    <section aria-labelledby="quick-links-heading">
      <Typography variant="h6" component="h2" id="quick-links-heading" sx={{ mb: 1 }}>
        Quick links
      </Typography>
      <Grid container spacing={1} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
        {destinations.map((item) => (
          <Grid key={item.path} component="li" size={{ xs: 6, sm: 4, md: 3, lg: 2 }}>
            <Card variant="outlined" sx={{ height: '100%' }}>
              <CardActionArea
                component={Link}
                to={item.path}
                sx={{ display: 'flex', justifyContent: 'flex-start', gap: 1, px: 1.5, py: 1, height: '100%' }}
              >
                <MenuIcon name={item.icon} />
                <Typography variant="body2" sx={{ minWidth: 0, overflowWrap: 'anywhere' }}>
                  {item.label}
                </Typography>
              </CardActionArea>
            </Card>
          </Grid>
        ))}
      </Grid>
    </section>
  );
}
