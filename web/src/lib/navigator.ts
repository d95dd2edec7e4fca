/** Lets code outside React (the API client, the socket) navigate through the router once it exists. */
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigateImpl: Navigate = (to) => window.location.assign(to);

export function setNavigator(fn: Navigate): void {
  navigateImpl = fn;
}

export function navigate(to: string, options?: { replace?: boolean }): void {
  navigateImpl(to, options);
}
