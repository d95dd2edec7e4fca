/** The Tessera mark (the same drawing as public/favicon.svg), inline so it needs no request. */
import { PALETTE } from '@tessera/common/theme';

export function Logo({ size = 28 }: { size?: number }) {
  return (
    <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <rect width="32" height="32" rx="6" fill="#fff" fillOpacity="0.15" />
      <path d="M6 6h9v9H6zM17 6h9v9h-9zM6 17h9v9H6z" fill="#fff" />
      <path d="M17 17h9v9h-9z" fill={PALETTE.secondary} />
    </svg>
  );
}
