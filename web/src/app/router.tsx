/** The router, built from the route table in common/routes.ts; every other path is Page Not Found. */
import { ROUTES } from '@tessera/common/routes';
import { createBrowserRouter } from 'react-router';
import { setNavigator } from '../lib/navigator';
import { takeOverScrolling } from './navigation';
import { NotFound, RouteElement } from './route-element';
import { RouteError } from './route-error';
import { Shell } from './shell/shell';

export const NOT_FOUND_PATTERN = '*';

export const router = createBrowserRouter([
  {
    element: <Shell />,
    errorElement: <RouteError />,
    children: [
      ...ROUTES.map((route) => ({ id: route.path, path: route.path, element: <RouteElement route={route} /> })),
      { id: NOT_FOUND_PATTERN, path: NOT_FOUND_PATTERN, element: <NotFound /> },
    ],
  },
]);

setNavigator((to, options) => void router.navigate(to, options));
takeOverScrolling();
