/** Spec §9 numbers, and the few protocol limits both sides must agree on. */
export const PRODUCT_NAME = 'Tessera';

export const RECONNECT_DELAY_MS = 1000;
export const OFFLINE_INDICATOR_DELAY_MS = 3000;
export const DEBOUNCE_MS = 250;
export const SUBMENU_OPEN_DELAY_MS = 300;
export const SUBMENU_CLOSE_DELAY_MS = 250;
export const SCROLL_OFFSET_PX = 72;

export const DRAWER_BREAKPOINT_PX = 760;
export const DRAWER_FULL_BREAKPOINT_PX = 1040;
export const DRAWER_WIDTH_PX = 200;
export const DRAWER_RAIL_WIDTH_PX = 56;

export const ITEMS_PER_PAGE = 100;
export const TABLE_PAGE_SIZES = [10, 25, 100, 250, 1000] as const;
/** The generic footer's options; 'All' is represented by -1. */
export const FOOTER_PAGE_SIZES = [10, 25, 50, 100, -1] as const;
export const PANE_SIZES = [50, 80] as const;

export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 100;
export const ZIP_LENGTH = 5;

export const DATE_FORMAT = 'M/D/YY h:mma';
export const BYTE_UNITS = ['B', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB', 'ZB', 'YB'] as const;

export const DATE_PICKER_YEARS_BEFORE = 100;
export const DATE_PICKER_YEARS_AFTER = 52;
export const TIME_PICKER_STEP = 5;
export const AUTOCOMPLETE_MAX_HEIGHT_PX = 310;

/** Socket: the largest message a client may send, and how many it may send per second. */
export const SOCKET_MAX_MESSAGE_BYTES = 64 * 1024;
export const SOCKET_MAX_MESSAGES_PER_SECOND = 40;

/** Formats a byte count with decimal units from B to YB (spec §9). */
export function formatBytes(bytes: number, digits = 1): string {
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1000 && unit < BYTE_UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  const text = unit === 0 ? String(value) : value.toFixed(digits).replace(/\.0+$/, '');
  return `${text} ${BYTE_UNITS[unit]}`;
}
