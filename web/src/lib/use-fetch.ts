/**
 * Loads a resource into the store when a page opens (and again when its path changes). Returns whether the call
 * has finished; a failure was already shown by the API client, so pages only need to stop waiting.
 */
import { useEffect, useState } from 'react';
import { api } from './api';

export function useFetch(path: string | null, query?: Record<string, string | number | boolean>): boolean {
  const [loaded, setLoaded] = useState(false);
  const search = query ? JSON.stringify(query) : '';
  useEffect(() => {
    if (path === null) return;
    let live = true;
    const done = () => {
      if (live) setLoaded(true);
    };
    void api.get(path, search ? JSON.parse(search) : undefined).then(done, done);
    return () => {
      live = false;
    };
  }, [path, search]);
  return loaded;
}
