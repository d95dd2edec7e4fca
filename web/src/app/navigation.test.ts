import type { ClientMessage } from '@tessera/common/socket';
import { beforeEach, describe, expect, it } from 'vitest';
import { useStore } from '../lib/store';
import { beginNavigation, decodeHash, finishNavigation, modelSearch, resetHitIndex } from './navigation';

let sent: ClientMessage[];
let scrolls: ScrollToOptions[];
const send = (m: ClientMessage) => sent.push(m);

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
    beginNavigation('/usage', 'http://localhost:3000/usage', '', send);
    beginNavigation('/keys/:id', 'http://localhost:3000/keys/3#limits', '', send);
    const state = useStore.getState();
    expect(state.route).toEqual({ pattern: '/keys/:id', url: 'http://localhost:3000/keys/3#limits' });
    expect(state.loading).toBe(true);
    expect(state.alerts).toEqual([]);
    expect(sent).toEqual([
      ['hit', { index: 0, url: 'http://localhost:3000/usage' }],
      ['hit', { index: 1, url: 'http://localhost:3000/keys/3#limits' }],
    ]);
  });

  it('keeps the model on the first navigation and clears it on every later one', () => {
    useStore.getState().setModel({ draft: 'kept' });
    beginNavigation('/usage', 'http://localhost/usage', '', send);
    expect(useStore.getState().model).toEqual({ draft: 'kept' });
    useStore.getState().setModel({ draft: 'dropped' });
    beginNavigation('/templates', 'http://localhost/templates', '', send);
    expect(useStore.getState().model).toEqual({});
  });

  it('syncs query-string parameters into the page model', () => {
    beginNavigation('/usage', 'http://localhost/usage?range=week&interval=hour', '?range=week&interval=hour', send);
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
