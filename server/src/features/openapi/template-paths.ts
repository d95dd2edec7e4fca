/** The OpenAPI paths of templates (/v2/templates...). */
import { createTemplateBody, previewBody, restoreBody, updateTemplateBody } from '../templates/schemas';
import { type Examples, type Json, ref } from './base';
import {
  BODY_ERRORS,
  CONSOLE_SECURITY,
  CONTENT_ENCODING,
  errors,
  jsonBody,
  jsonReply,
  requestedWith,
} from './http-parts';
import { IF_MATCH, IF_NONE_MATCH, NOT_MODIFIED, stale, withETag } from './key-paths';

export const TEMPLATE_ID = { type: 'integer', minimum: 1, maximum: 2_147_483_647, description: 'The template id.' };

export const TEMPLATE_VERSION = {
  type: 'object',
  required: ['version', 'expression', 'publishedAt', 'createdBy'],
  properties: {
    version: { type: 'integer', minimum: 1 },
    expression: { type: 'string' },
    publishedAt: { type: 'string', format: 'date-time' },
    createdBy: { type: ['integer', 'null'] },
  },
  additionalProperties: false,
};

export const TEMPLATE = {
  type: 'object',
  description:
    'A template: a JSONata expression over the lookup record (LookupRecord) that shapes each identity, kept as numbered immutable published versions and at most one open draft. Lookups use the published version.',
  required: [
    'id',
    'name',
    'description',
    'organizationId',
    'adminIds',
    'createdBy',
    'createdAt',
    'updatedAt',
    'publishedVersion',
    'expression',
    'draft',
  ],
  properties: {
    id: TEMPLATE_ID,
    name: { type: 'string' },
    description: { type: 'string' },
    organizationId: { type: ['integer', 'null'], description: 'Null for a system template, shared with everyone.' },
    adminIds: { type: 'array', items: { type: 'integer' }, description: 'Users and organizations that may edit it.' },
    createdBy: { type: ['integer', 'null'] },
    createdAt: { type: 'string', format: 'date-time' },
    updatedAt: { type: 'string', format: 'date-time' },
    publishedVersion: { type: ['integer', 'null'], description: 'The version lookups use; null before the first.' },
    expression: { type: 'string', description: "The published version's expression; '' before the first." },
    draft: {
      oneOf: [
        {
          type: 'object',
          required: ['expression', 'version', 'updatedAt', 'createdBy'],
          properties: {
            expression: { type: 'string' },
            version: { type: 'integer', description: 'The version it will be published as.' },
            updatedAt: { type: 'string', format: 'date-time' },
            createdBy: { type: ['integer', 'null'] },
          },
          additionalProperties: false,
        },
        { type: 'null' },
      ],
      description: 'The open draft, or null.',
    },
    versions: {
      type: 'array',
      items: ref('TemplateVersion'),
      description: 'Every published version, newest first: in the reply to GET /v2/templates/{id} and to changes.',
    },
    deletedAt: { type: ['string', 'null'], format: 'date-time' },
  },
  additionalProperties: false,
};

export function templatePaths(examples: Examples): Record<string, Json> {
  const tags = ['Templates'];
  const ex = (id: string) => examples.operations[id];
  const templateId = (id: string) => ({
    name: 'id',
    in: 'path',
    required: true,
    description: 'The template id.',
    schema: TEMPLATE_ID,
    ...(ex(id)?.request.query?.id ? { example: Number(ex(id)!.request.query!.id) } : {}),
  });
  const notFound = { '404': 'No such template, or not one you may see.' };
  // Templates are refused before the agreement gate: a session that has not accepted it is 403, not 451.
  const CONSOLE_ERRORS = {
    '400': null,
    '401': null,
    '403': 'Not allowed, including a session that has not accepted the current agreement.',
    '500': null,
    '503': null,
  };
  const notEditable = { '403': 'You may see the template but not edit it.' };
  const reply = (id: string, words: string) => withETag(jsonReply(words, ref('Templates'), ex(id)));
  const staleTemplate = stale('template');
  return {
    '/v2/templates': {
      get: {
        operationId: 'listTemplates',
        summary: 'List templates',
        description:
          "The templates you may use: the system templates (Full, id 1, and the others), your organization's and those naming you in adminIds; super and root: all. Without versions.",
        tags,
        security: CONSOLE_SECURITY,
        parameters: [IF_NONE_MATCH],
        responses: {
          '200': reply('listTemplates', 'The templates, by id.'),
          '304': NOT_MODIFIED,
          ...errors({ '401': null, '403': CONSOLE_ERRORS['403'], '500': null, '503': null }),
        },
      },
      post: {
        operationId: 'createTemplate',
        summary: 'Make a template',
        description:
          'Makes a template of your organization whose first draft is the expression; publish it to use it in lookups. Super and root may make one for another organization or, with organizationId null, a system template. The expression must compile (400 with line and column otherwise).',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [requestedWith(true), CONTENT_ENCODING],
        requestBody: jsonBody(createTemplateBody, ex('createTemplate')),
        responses: {
          '200': reply('createTemplate', 'The new template.'),
          ...errors({
            ...CONSOLE_ERRORS,
            ...BODY_ERRORS,
            '403':
              'Only super and root make system templates or templates of another organization; you need an organization.',
          }),
        },
      },
    },
    '/v2/templates/{id}': {
      get: {
        operationId: 'getTemplate',
        summary: 'Read a template',
        description: 'One template you may see, with every published version.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [templateId('getTemplate'), IF_NONE_MATCH],
        responses: {
          '200': reply('getTemplate', 'The template with its versions.'),
          '304': NOT_MODIFIED,
          ...errors({ ...CONSOLE_ERRORS, ...notFound }),
        },
      },
      put: {
        operationId: 'updateTemplate',
        summary: 'Change a template or its draft',
        description:
          'Changes the name, description or adminIds, and with an expression saves the draft (replacing the open one). Lookups keep using the published version until the draft is published.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [templateId('updateTemplate'), requestedWith(true), CONTENT_ENCODING, IF_MATCH],
        requestBody: jsonBody(updateTemplateBody, ex('updateTemplate')),
        responses: {
          '200': reply('updateTemplate', 'The changed template.'),
          ...staleTemplate,
          ...errors({ ...CONSOLE_ERRORS, ...BODY_ERRORS, ...notEditable, ...notFound }),
        },
      },
      delete: {
        operationId: 'deleteTemplate',
        summary: 'Delete a template',
        description: 'Deletes the template: lookups naming it answer 404 from now on.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [templateId('deleteTemplate'), requestedWith(true), IF_MATCH],
        responses: {
          '200': jsonReply(
            'The template marked deleted: `{templates: {id: {id, deletedAt}}}`.',
            {
              type: 'object',
              required: ['templates'],
              properties: { templates: { type: 'object', additionalProperties: ref('DeletedTemplate') } },
            },
            ex('deleteTemplate'),
          ),
          ...staleTemplate,
          ...errors({ ...CONSOLE_ERRORS, ...notEditable, ...notFound }),
        },
      },
    },
    '/v2/templates/{id}/publish': {
      post: {
        operationId: 'publishTemplate',
        summary: "Publish a template's draft",
        description: 'Makes the open draft the next published version, which lookups use from now on.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [templateId('publishTemplate'), requestedWith(true), IF_MATCH],
        responses: {
          '200': reply('publishTemplate', 'The template with its new version.'),
          ...staleTemplate,
          ...errors({ ...CONSOLE_ERRORS, ...notEditable, ...notFound, '409': 'The template has no draft to publish.' }),
        },
      },
    },
    '/v2/templates/{id}/restore': {
      post: {
        operationId: 'restoreTemplate',
        summary: 'Restore a published version as the draft',
        description: "Makes a published version's expression the open draft; publish it to use it again.",
        tags,
        security: CONSOLE_SECURITY,
        parameters: [templateId('restoreTemplate'), requestedWith(true), CONTENT_ENCODING, IF_MATCH],
        requestBody: jsonBody(restoreBody, ex('restoreTemplate')),
        responses: {
          '200': reply('restoreTemplate', 'The template with the restored draft.'),
          ...staleTemplate,
          ...errors({
            ...CONSOLE_ERRORS,
            ...BODY_ERRORS,
            ...notEditable,
            '404': 'No such template or published version.',
          }),
        },
      },
    },
    '/v2/templates/preview': {
      post: {
        operationId: 'previewTemplate',
        summary: 'Preview an unsaved template',
        description:
          'Renders an expression, as JSON or CSV, on a synthetic identity (free), or with sample.identityId on a real one looked up as byId (metered and charged as a lookup, so it can answer 402, 422 and 429 like one). Nothing is saved.',
        tags,
        security: CONSOLE_SECURITY,
        parameters: [requestedWith(true), CONTENT_ENCODING],
        requestBody: jsonBody(previewBody, ex('previewTemplate')),
        responses: {
          '200': jsonReply(
            'The rendered identities.',
            {
              type: 'object',
              required: ['preview'],
              properties: { preview: ref('TemplatePreview') },
              additionalProperties: false,
            },
            ex('previewTemplate'),
          ),
          ...errors({ ...CONSOLE_ERRORS, ...BODY_ERRORS, '402': null, '422': null, '429': null }),
        },
      },
    },
  };
}
