import { describe, expect, it } from 'vitest';
import { keyOfWho } from './key-options';

const self = { id: 7, organizationId: 3 };
const mine = { userId: 7, organizationId: 3 };
const colleague = { userId: 8, organizationId: 3 };
const stranger = { userId: 9, organizationId: 4 };

describe('the key filter follows the who filter', () => {
  it('offers the keys of whoever is chosen', () => {
    const offered = (who: Parameters<typeof keyOfWho>[1]) =>
      [mine, colleague, stranger].filter((k) => keyOfWho(k, who, self));
    expect(offered('me')).toEqual([mine]);
    expect(offered('organization')).toEqual([mine, colleague]);
    expect(offered('all')).toEqual([mine, colleague, stranger]);
    expect(offered('user:8')).toEqual([colleague]);
    expect(offered('organization:4')).toEqual([stranger]);
  });
});
