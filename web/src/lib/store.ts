/**
 * The client's data areas (spec §3) and navigation state. HTTP replies and socket pushes are keyed objects,
 * and both go through the one `merge` below.
 */
import type { Alert } from '@tessera/common/alerts';
import { ANONYMOUS_USER, COLLECTION_AREAS, type User } from '@tessera/common/entities';
import type { ReactNode } from 'react';
import { create } from 'zustand';

type Item = Record<string, unknown>;
type Collection = Record<string, Item>;

export interface Dialog {
  title: string;
  content: ReactNode;
  onClose?: () => void;
}

export interface NavigationState {
  /** The matched route pattern and the full URL of the current page. */
  route: { pattern: string; url: string } | null;
  loading: boolean;
  /** The page model; query-string parameters are synced into it. */
  model: Record<string, string>;
  alerts: Alert[];
  /** Alerts to show on the next page, which would otherwise clear them (e.g. 'Signed Out'). */
  carriedAlerts: Alert[];
  dialog: Dialog | null;
  online: boolean;
}

export interface StoreState extends NavigationState {
  self: User;
  /** Every other data area, by name. */
  areas: Record<string, unknown>;
  merge(keyed: Record<string, unknown>): void;
  setSelf(user: User): void;
  addAlert(alert: Alert): void;
  /** Adds an alert that survives the navigation that follows it. */
  carryAlert(alert: Alert): void;
  closeAlert(title: string): void;
  /** Clears the alerts at a navigation, keeping the carried ones. */
  clearAlerts(): void;
  setModel(model: Record<string, string>): void;
  openDialog(dialog: Dialog): void;
  closeDialog(): void;
  set(partial: Partial<NavigationState>): void;
}

const COLLECTIONS = new Set<string>(COLLECTION_AREAS);

/** Merges incoming items into a collection: shallow merge per item, removal when deletedAt is set. */
export function mergeCollection(current: Collection | undefined, incoming: unknown, keyField: string): Collection {
  const next: Collection = { ...(current ?? {}) };
  const items: [string, Item][] = Array.isArray(incoming)
    ? (incoming as Item[]).map((item) => [String(item[keyField]), item])
    : Object.entries((incoming ?? {}) as Collection);
  for (const [key, item] of items) {
    if (item === null || (item as Item).deletedAt) {
      delete next[key];
      continue;
    }
    next[key] = { ...(next[key] ?? {}), ...item };
  }
  return next;
}

export const useStore = create<StoreState>((set, get) => ({
  self: ANONYMOUS_USER,
  areas: {},
  route: null,
  loading: false,
  model: {},
  alerts: [],
  carriedAlerts: [],
  dialog: null,
  online: true,

  merge(keyed) {
    const areas = { ...get().areas };
    let self = get().self;
    for (const [area, value] of Object.entries(keyed)) {
      if (area === 'self') self = value as User;
      else if (COLLECTIONS.has(area)) {
        areas[area] = mergeCollection(areas[area] as Collection | undefined, value, area === 'tasks' ? 'key' : 'id');
      } else areas[area] = value;
    }
    set({ areas, self });
  },
  setSelf: (self) => set({ self }),
  addAlert: (alert) => set({ alerts: [...get().alerts.filter((a) => a.title !== alert.title), alert] }),
  closeAlert: (title) => set({ alerts: get().alerts.filter((a) => a.title !== title) }),
  carryAlert(alert) {
    get().addAlert(alert);
    set({ carriedAlerts: [...get().carriedAlerts.filter((a) => a.title !== alert.title), alert] });
  },
  clearAlerts: () => set({ alerts: get().carriedAlerts, carriedAlerts: [] }),
  setModel: (model) => set({ model }),
  openDialog: (dialog) => set({ dialog }),
  closeDialog() {
    const { dialog } = get();
    set({ dialog: null });
    dialog?.onClose?.();
  },
  set: (partial) => set(partial),
}));
