/**
 * Every page module of the route table (common/routes.ts), loaded lazily. Pages that later work fills share
 * the frame page, which says what they will hold.
 */
import type { ResourceParams, RouteDef } from '@tessera/common/routes';
import type { ComponentType } from 'react';

export interface PageProps {
  route: RouteDef;
  params: Record<string, string | undefined>;
  resource: ResourceParams | null;
}

type Loader = () => Promise<{ default: ComponentType<PageProps> }>;

const frame: Loader = () => import('../pages/frame/frame-page');

export const PAGE_MODULES: Record<string, Loader> = {
  'user-home': () => import('../pages/home/home-page'),
  login: () => import('../pages/login/login-page'),
  error: () => import('../pages/error/error-page'),
  'user-playground': frame,
  'user-profile': frame,
  password: frame,
  'super-billing': frame,
  'super-segments': frame,
  'root-clusters': frame,
  'root-query': frame,
  'root-ssh': frame,
  'user-contract': frame,
  'root-releases': frame,
  'root-release': frame,
  'root-deployments': frame,
  'root-deployment': frame,
  'super-sessions': frame,
  'api-reference': frame,
  'client-libraries': frame,
  signup: frame,
  terms: () => import('../pages/terms/terms-page'),
  'user-organizations': frame,
  'user-organization': frame,
  'user-user': frame,
  'user-key': frame,
  'user-templates': frame,
  'user-template': frame,
  'user-usage': frame,
  faq: frame,
  scoring: frame,
  contact: frame,
  chat: frame,
};
