/** A real server's session over HTTP, as a browser gets one: sign in, accept the current agreement, keep the cookie. */
const JSON_HEADERS = {
  'x-requested-with': 'XMLHttpRequest',
  'content-type': 'application/json',
  accept: 'application/json',
};

const cookiesOf = (res: Response) =>
  res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');

/** The Cookie header of a signed-in session past the agreement gate (accepting renews the session's token). */
export async function signInOverHttp(baseUrl: string, email: string, password: string): Promise<string> {
  const login = await fetch(`${baseUrl}/auth/login`, {
    method: 'POST',
    headers: JSON_HEADERS,
    body: JSON.stringify({ email, password }),
  });
  if (!login.ok) throw new Error(`sign-in of ${email} failed with ${login.status}`);
  const cookie = cookiesOf(login);
  const terms = (await (await fetch(`${baseUrl}/v2/terms`, { headers: { ...JSON_HEADERS, cookie } })).json()) as {
    ndaId: number;
  };
  const accepted = await fetch(`${baseUrl}/v2/terms/accept`, {
    method: 'POST',
    headers: { ...JSON_HEADERS, cookie },
    body: JSON.stringify({ ndaId: terms.ndaId }),
  });
  if (!accepted.ok) throw new Error(`accepting the agreement failed with ${accepted.status}`);
  return cookiesOf(accepted) || cookie;
}
