/** Every page module of the route table (common/routes.ts), loaded lazily. */
import type { ResourceParams, RouteDef } from '@tessera/common/routes';
import type { ComponentType } from 'react';

export interface PageProps {
  route: RouteDef;
  params: Record<string, string | undefined>;
  resource: ResourceParams | null;
}

type Loader = () => Promise<{ default: ComponentType<PageProps> }>;

export const PAGE_MODULES: Record<string, Loader> = {
  'user-home': () => import('../pages/home/home-page'),
  login: () => import('../pages/login/login-page'),
  error: () => import('../pages/error/error-page'),
  'user-playground': () => import('../pages/playground/playground-page'),
  'user-profile': () => import('../pages/profile/profile-page'),
  password: () => import('../pages/password/password-page'),
  'super-billing': () => import('../pages/billing/billing-page'),
  'super-segments': () => import('../pages/segments/segments-page'),
  'root-clusters': () => import('../pages/clusters/clusters-page'),
  'root-query': () => import('../pages/query/query-page'),
  'root-ssh': () => import('../pages/ssh/ssh-page'),
  'user-contract': () => import('../pages/contract/contract-page'),
  'root-releases': () => import('../pages/releases/releases-page'),
  'root-release': () => import('../pages/releases/release-page'),
  'root-deployments': () => import('../pages/deployments/deployments-page'),
  'root-deployment': () => import('../pages/deployments/deployment-page'),
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
  'user-jobs': () => import('../pages/jobs/jobs-page'),
  'user-webhooks': () => import('../pages/webhooks/webhooks-page'),
  'user-webhook': () => import('../pages/webhooks/webhook-page'),
  'user-subscriptions': () => import('../pages/subscriptions/subscriptions-page'),
  faq: () => import('../pages/faq/faq-page'),
  scoring: () => import('../pages/scoring/scoring-page'),
  contact: () => import('../pages/contact/contact-page'),
  chat: () => import('../pages/chat/chat-page'),
};
