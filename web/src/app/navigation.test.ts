import type { ClientMessage } from '@tessera/common/socket';
import { beforeEach, describe, expect, it } from 'vitest';
import { useStore } from '../lib/store';
import {
  beginNavigation,
  decodeHash,
  finishNavigation,
  modelSearch,
  resetHitIndex,
  takeOverScrolling,
} from './navigation';

let sent: ClientMessage[];
let scrolls: ScrollToOptions[];
const socket = {
  send: (m: ClientMessage) => void sent.push(m),
  clear: () => void sent.push(['clear', null]),
};

beforeEach(() => {
  sent = [];
  scrolls = [];
  resetHitIndex();
  useStore.setState({ route: null, model: {}, alerts: [], carriedAlerts: [], loading: false });
  window.scrollTo = ((options: ScrollToOptions) => scrolls.push(options)) as typeof window.scrollTo;
  document.body.innerHTML = '';
});

describe('navigation (spec §2)', () => {
  it('records the route, sets loading, clears alerts and sends a hit with a running index and the full URL', () => {
    useStore.getState().addAlert({ type: 'error', title: 'Old' });
    beginNavigation('/usage', 'http://localhost:3000/usage', '', socket);
    beginNavigation('/keys/:id', 'http://localhost:3000/keys/3#limits', '', socket);
    const state = useStore.getState();
    expect(state.route).toEqual({ pattern: '/keys/:id', url: 'http://localhost:3000/keys/3#limits' });
    expect(state.loading).toBe(true);
    expect(state.alerts).toEqual([]);
    expect(sent).toEqual([
      ['hit', { index: 0, url: 'http://localhost:3000/usage' }],
      ['clear', null],
      ['hit', { index: 1, url: 'http://localhost:3000/keys/3#limits' }],
    ]);
  });

  it('keeps the model on the first navigation and clears it, telling the server, on every later one', () => {
    useStore.getState().setModel({ draft: 'kept' });
    beginNavigation('/usage', 'http://localhost/usage', '', socket);
    expect(useStore.getState().model).toEqual({ draft: 'kept' });
    expect(sent).toEqual([['hit', { index: 0, url: 'http://localhost/usage' }]]);
    useStore.getState().setModel({ draft: 'dropped' });
    beginNavigation('/templates', 'http://localhost/templates', '', socket);
    expect(useStore.getState().model).toEqual({});
    expect(sent.slice(1)).toEqual([
      ['clear', null],
      ['hit', { index: 1, url: 'http://localhost/templates' }],
    ]);
  });

  it('takes scrolling over from the browser, which would restore old positions on Back and Forward', () => {
    const history = { scrollRestoration: 'auto' as ScrollRestoration };
    takeOverScrolling(history);
    expect(history.scrollRestoration).toBe('manual');
  });

  it('syncs query-string parameters into the page model', () => {
    beginNavigation('/usage', 'http://localhost/usage?range=week&interval=hour', '?range=week&interval=hour', socket);
    expect(useStore.getState().model).toEqual({ range: 'week', interval: 'hour' });
  });

  it('finishes by clearing loading, setting the title and scrolling to the top', () => {
    useStore.setState({ loading: true });
    finishNavigation('Usage', '');
    expect(useStore.getState().loading).toBe(false);
    expect(document.title).toBe('Tessera - Usage');
    expect(scrolls).toEqual([{ top: 0 }]);
  });

  it('scrolls smoothly to a hash anchor, 72 px above it', () => {
    const target = document.createElement('h2');
    target.id = 'rate limits';
    target.getBoundingClientRect = () => ({ top: 500 }) as DOMRect;
    document.body.append(target);
    finishNavigation('API Reference', '#rate%20limits');
    expect(scrolls).toEqual([{ top: 500 + window.scrollY - 72, behavior: 'smooth' }]);
  });

  it('survives a malformed hash', () => {
    finishNavigation('FAQ', '#%zz');
    expect(scrolls).toEqual([{ top: 0 }]);
    expect(decodeHash('#a%20b')).toBe('a b');
  });

  it('writes the non-empty model values back as a query string', () => {
    expect(modelSearch({ range: 'week', q: '', who: 'a b' })).toBe('?range=week&who=a+b');
    expect(modelSearch({})).toBe('');
  });
});
