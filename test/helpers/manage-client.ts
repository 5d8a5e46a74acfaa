// A signed-in user of the back end's API: its session cookie and CSRF token on every request.
export interface ManageAnswer {
  status: number;
  body: any;
  text: string;
  headers: Headers;
}

export interface ManageClient {
  call(method: string, path: string, body?: unknown): Promise<ManageAnswer>;
  get(path: string): Promise<ManageAnswer>;
  /** The session's cookie, for a request of its own (a picture's bytes). */
  cookie: string;
}

export async function signedInClient(baseUrl: string, username: string, password: string): Promise<ManageClient> {
  const res = await fetch(`${baseUrl}/manage/api/session`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ username, password }) });
  if (res.status !== 200) throw new Error(`sign-in of ${username} answered ${res.status}: ${await res.text()}`);
  const { csrfToken } = (await res.json()) as { csrfToken: string };
  const cookie = res.headers.get('set-cookie')!.split(';')[0]!;
  const call = async (method: string, path: string, body?: unknown): Promise<ManageAnswer> => {
    const headers: Record<string, string> = { cookie, 'x-csrf-token': csrfToken };
    if (body !== undefined) headers['content-type'] = 'application/json';
    const answer = await fetch(`${baseUrl}/manage/api${path}`, { method, headers, ...(body !== undefined ? { body: JSON.stringify(body) } : {}) });
    const text = await answer.text();
    const json = answer.headers.get('content-type')?.includes('json') && text ? JSON.parse(text) : null;
    return { status: answer.status, body: json, text, headers: answer.headers };
  };
  return { call, get: (path) => call('GET', path), cookie };
}
