/**
 * The page model (spec §2): query-string parameters arrive in it at navigation, and changes to it replace
 * the URL's query string without counting as a new navigation.
 */
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useStore } from '../lib/store';
import { modelSearch } from './navigation';

export function usePageModel(): [Record<string, string>, (patch: Record<string, string>) => void] {
  const model = useStore((s) => s.model);
  const navigate = useNavigate();
  const { pathname, hash } = useLocation();
  const update = useCallback(
    (patch: Record<string, string>) => {
      const next = { ...useStore.getState().model, ...patch };
      useStore.getState().setModel(next);
      void navigate(`${pathname}${modelSearch(next)}${hash}`, { replace: true, state: { modelSync: true } });
    },
    [navigate, pathname, hash],
  );
  return [model, update];
}
