import { ANONYMOUS_USER } from '@tessera/common/entities';
import { beforeEach, describe, expect, it } from 'vitest';
import { mergeCollection, useStore } from './store';

const ROOT_USER = { ...ANONYMOUS_USER, id: 1, email: 'root@tessera.test', role: 'root' as const, expires: 1 };

beforeEach(() => {
  useStore.setState({ self: ANONYMOUS_USER, areas: {}, alerts: [], carriedAlerts: [], dialog: null, model: {} });
});

describe('keyed objects (spec §3)', () => {
  it('merges collections item by item, keyed by id, and drops deleted items', () => {
    const { merge } = useStore.getState();
    merge({
      organizations: [
        { id: 1, name: 'Acme' },
        { id: 2, name: 'Globex' },
      ],
    });
    merge({ organizations: [{ id: 1, emailDomain: 'acme.test' }] });
    merge({ organizations: { 2: { id: 2, deletedAt: '2026-11-23T00:00:00Z' } } });
    expect(useStore.getState().areas.organizations).toEqual({
      1: { id: 1, name: 'Acme', emailDomain: 'acme.test' },
    });
  });

  it('keys tasks by their key, replaces single areas and sets self', () => {
    useStore.getState().merge({ tasks: [{ key: 'export', done: false }], version: 'v2', self: ROOT_USER });
    const state = useStore.getState();
    expect(state.areas.tasks).toEqual({ export: { key: 'export', done: false } });
    expect(state.areas.version).toBe('v2');
    expect(state.self).toEqual(ROOT_USER);
  });

  it('treats a null item as a removal', () => {
    expect(mergeCollection({ 3: { id: 3 } }, { 3: null }, 'id')).toEqual({});
  });
});

describe('alerts', () => {
  it('keeps one alert per title, the latest winning, and closes by title', () => {
    const { addAlert, closeAlert } = useStore.getState();
    addAlert({ type: 'error', title: 'Server Error', text: 'first' });
    addAlert({ type: 'info', title: 'Saved' });
    addAlert({ type: 'error', title: 'Server Error', text: 'second' });
    expect(useStore.getState().alerts.map((a) => [a.title, a.text])).toEqual([
      ['Saved', undefined],
      ['Server Error', 'second'],
    ]);
    closeAlert('Saved');
    expect(useStore.getState().alerts.map((a) => a.title)).toEqual(['Server Error']);
  });

  it('clears alerts at a navigation but keeps a carried one for exactly one more page', () => {
    const { addAlert, carryAlert, clearAlerts } = useStore.getState();
    addAlert({ type: 'error', title: 'Old' });
    carryAlert({ type: 'info', title: 'Signed Out' });
    clearAlerts();
    expect(useStore.getState().alerts.map((a) => a.title)).toEqual(['Signed Out']);
    useStore.getState().clearAlerts();
    expect(useStore.getState().alerts).toEqual([]);
  });
});

describe('dialog', () => {
  it('runs the close callback when the dialog closes', () => {
    const closed: string[] = [];
    useStore.getState().openDialog({ title: 'Edit', content: null, onClose: () => closed.push('Edit') });
    expect(useStore.getState().dialog?.title).toBe('Edit');
    useStore.getState().closeDialog();
    expect(useStore.getState().dialog).toBeNull();
    expect(closed).toEqual(['Edit']);
  });
});
