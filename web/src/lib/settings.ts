/** Spec §3 local settings, persisted in the browser. */
import { DEFAULT_SETTINGS, type Settings } from '@tessera/common/settings';
import { create } from 'zustand';
import { persist } from 'zustand/middleware';

interface SettingsState extends Settings {
  update(patch: Partial<Settings>): void;
}

export const useSettings = create<SettingsState>()(
  persist((set) => ({ ...DEFAULT_SETTINGS, update: (patch) => set(patch) }), {
    name: 'tessera-settings',
    version: 1,
  }),
);
