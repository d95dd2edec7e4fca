/** Menu icons by the names common/menu.ts uses; imported one by one to keep the bundle small. */

import type { SvgIconComponent } from '@mui/icons-material';
import Api from '@mui/icons-material/Api';
import Business from '@mui/icons-material/Business';
import Code from '@mui/icons-material/Code';
import ContactMail from '@mui/icons-material/ContactMail';
import Dns from '@mui/icons-material/Dns';
import DynamicFeed from '@mui/icons-material/DynamicFeed';
import Help from '@mui/icons-material/Help';
import Insights from '@mui/icons-material/Insights';
import Key from '@mui/icons-material/Key';
import LibraryBooks from '@mui/icons-material/LibraryBooks';
import ManageSearch from '@mui/icons-material/ManageSearch';
import MenuBook from '@mui/icons-material/MenuBook';
import NewReleases from '@mui/icons-material/NewReleases';
import NotificationsActive from '@mui/icons-material/NotificationsActive';
import People from '@mui/icons-material/People';
import Receipt from '@mui/icons-material/Receipt';
import RocketLaunch from '@mui/icons-material/RocketLaunch';
import Segment from '@mui/icons-material/Segment';
import Settings from '@mui/icons-material/Settings';
import SupportAgent from '@mui/icons-material/SupportAgent';
import Terminal from '@mui/icons-material/Terminal';
import ViewQuilt from '@mui/icons-material/ViewQuilt';
import Webhook from '@mui/icons-material/Webhook';

export const ICONS: Record<string, SvgIconComponent> = {
  business: Business,
  template: ViewQuilt,
  usage: Insights,
  reference: MenuBook,
  playground: Code,
  api: Api,
  client: LibraryBooks,
  support: SupportAgent,
  faq: Help,
  contact: ContactMail,
  system: Settings,
  releases: NewReleases,
  deployments: RocketLaunch,
  clusters: Dns,
  query: ManageSearch,
  ssh: Terminal,
  billing: Receipt,
  sessions: People,
  segments: Segment,
  key: Key,
  webhook: Webhook,
  jobs: DynamicFeed,
  subscription: NotificationsActive,
};

export function MenuIcon({ name }: { name: string }) {
  const Icon = ICONS[name] ?? Settings;
  return <Icon fontSize="small" />;
}
