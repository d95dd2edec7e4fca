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
  'user-playground': () => import('../pages/playground/playground-page'),
  'user-profile': () => import('../pages/profile/profile-page'),
  password: () => import('../pages/password/password-page'),
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
  'super-sessions': () => import('../pages/sessions/sessions-page'),
  'api-reference': () => import('../pages/api-reference/api-reference-page'),
  'client-libraries': () => import('../pages/client/client-libraries-page'),
  signup: () => import('../pages/signup/signup-page'),
  terms: () => import('../pages/terms/terms-page'),
  'user-organizations': () => import('../pages/organizations/organizations-page'),
  'user-organization': () => import('../pages/organization/organization-page'),
  'user-user': () => import('../pages/user/user-page'),
  'user-key': () => import('../pages/keys/key-page'),
  'user-templates': () => import('../pages/templates/templates-page'),
  'user-template': () => import('../pages/templates/template-page'),
  'user-usage': () => import('../pages/usage/usage-page'),
  faq: () => import('../pages/faq/faq-page'),
  scoring: () => import('../pages/scoring/scoring-page'),
  contact: () => import('../pages/contact/contact-page'),
  chat: frame,
};
