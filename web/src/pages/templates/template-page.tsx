/**
 * Templates (issue 15; spec §2 resource pattern): /templates/add[/{id}] makes one (from a copy of {id}),
 * /templates/{id} shows one (/templates/{id},{id}… lists several), /templates/edit/{id} edits its draft, /templates/publish/{id} publishes it, and
 * /templates/delete/{id}[,{id}…] deletes one or several after one confirmation. Edit, publish and delete send
 * someone who may not edit the template to /error/403 (spec §6, mayEditTemplate).
 */
import CircularProgress from '@mui/material/CircularProgress';
import { formatDate } from '@tessera/common/dates';
import { mayEditTemplate, type Template } from '@tessera/common/templates';
import { useEffect, useRef } from 'react';
import { Navigate } from 'react-router';
import type { PageProps } from '../../app/page-modules';
import { navigate } from '../../lib/navigator';
import { useStore } from '../../lib/store';
import { useFetch } from '../../lib/use-fetch';
import { confirmInDialog } from '../confirm-dialog';
import { PageHeading } from '../page-heading';
import { ResourceList } from '../resource-list';
import { deleteTemplates, TEMPLATES_PATH } from './template-api';
import { TemplateEditor } from './template-editor';
import { TemplatePublish } from './template-publish';
import { TemplateView } from './template-view';

function DeleteTemplates({ ids }: { ids: number[] }) {
  const self = useStore((s) => s.self);
  const all = useStore((s) => s.areas.templates) as Record<string, Template> | undefined;
  const loaded = useFetch(ids.length === 1 ? `${TEMPLATES_PATH}/${ids[0]}` : TEMPLATES_PATH);
  const asked = useRef(false);
  const templates = ids.map((id) => all?.[String(id)]).filter((t): t is Template => t !== undefined);

  useEffect(() => {
    if (!loaded || asked.current) return;
    asked.current = true;
    if (templates.length !== ids.length) {
      navigate('/error/404', { replace: true });
      return;
    }
    if (!templates.every((t) => mayEditTemplate(self, t))) {
      navigate('/error/403', { replace: true });
      return;
    }
    const names = templates.map((t) => `${t.name} (${t.id})`).join(', ');
    const one = templates.length === 1;
    confirmInDialog({
      title: one ? 'Delete Template' : `Delete ${templates.length} Templates`,
      text: `Delete ${names}? Lookups naming ${one ? 'it' : 'them'} will answer 404 from then on.`,
      confirmLabel: 'Delete',
      onConfirm: async () => {
        await deleteTemplates(templates.map((t) => t.id));
        navigate('/templates', { replace: true });
      },
      onCancel: () => navigate(one ? `/templates/${ids[0]}` : '/templates', { replace: true }),
    });
  }, [loaded, templates, ids, self]);

  return (
    <>
      <PageHeading>{ids.length === 1 ? 'Delete Template' : 'Delete Templates'}</PageHeading>
      {!loaded && <CircularProgress aria-label="Loading the templates" />}
    </>
  );
}

export default function TemplatePage({ resource }: PageProps) {
  if (!resource) return <Navigate to="/error/404" replace />;
  const [id] = resource.ids;
  if (resource.mode === 'create') return <TemplateEditor key={`add-${id ?? ''}`} from={id} />;
  if (resource.mode === 'delete') return <DeleteTemplates ids={resource.ids} />;
  if (resource.mode === 'view' && resource.ids.length > 1) {
    return (
      <ResourceList<Template>
        plural="Templates"
        area="templates"
        ids={resource.ids}
        path={TEMPLATES_PATH}
        href={(t) => `/templates/${t.id}`}
        name={(t) => t.name}
        columns={[{ label: 'Updated', value: (t) => formatDate(t.updatedAt) }]}
      />
    );
  }
  if (id === undefined || resource.ids.length > 1) return <Navigate to="/error/404" replace />;
  switch (resource.mode) {
    case 'edit':
      return <TemplateEditor key={id} id={id} />;
    case 'publish':
      return <TemplatePublish key={id} id={id} />;
    default:
      return <TemplateView key={id} id={id} />;
  }
}
