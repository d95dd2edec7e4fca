import { describe, expect, it } from 'vitest';
import { drawerMode } from './drawer-mode';

describe('drawer mode (spec §2)', () => {
  it('is full from 1040 px, a rail from 760 px and icon-only below', () => {
    expect([500, 759, 760, 1039, 1040, 1920].map(drawerMode)).toEqual(['icon', 'icon', 'rail', 'rail', 'full', 'full']);
  });
});
