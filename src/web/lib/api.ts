// The one API client: JSON, the session cookie, and any 401 sends the browser to the sign-in page
// of its area (/signin, or /admin/login for the back office). A bank
// that cannot serve (503 while its database is away, or no answer at all) shows the "we are having
// trouble" notice (lib/service-status.ts), besides the error each caller shows.
import { paths } from '../paths';
import { signInPathFor } from './return-to';
import { reportServiceOk, reportServiceTrouble, retryAfterOf, troubleOf } from './service-status';
import { noteSessionIdle } from './session-idle';

export class ApiError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly code?: string,
    public readonly fields?: Record<string, string>,
    /** The whole error body, for calls whose failures carry more than `fields` (a bulk payment's rows). */
    public readonly body?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export interface Envelope<T> {
  data: T;
  message?: string;
}

export interface RequestOptions {
  /** Sign-in and similar calls answer 401 for wrong credentials: do not leave the page. */
  redirectOn401?: boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export const FALLBACK_ERROR = 'An error occurred';

async function request<T>(method: string, url: string, body?: unknown, options: RequestOptions = {}): Promise<Envelope<T>> {
  const isForm = typeof FormData !== 'undefined' && body instanceof FormData;
  let response: Response;
  try {
    response = await fetch(`/api${url}`, {
      method,
      credentials: 'same-origin',
      headers: {
        Accept: 'application/json',
        ...(body !== undefined && !isForm ? { 'Content-Type': 'application/json' } : {}),
        ...options.headers,
      },
      body: body === undefined ? undefined : isForm ? (body as FormData) : JSON.stringify(body),
      signal: options.signal,
    });
  } catch {
    // A call the page cancelled itself is not trouble.
    if (!options.signal?.aborted) reportServiceTrouble('network');
    throw new ApiError('We could not reach the bank. Check your connection and try again.', 0, 'network');
  }
  noteSessionIdle(response.headers);
  const trouble = troubleOf(response.status);
  if (trouble) reportServiceTrouble(trouble, retryAfterOf(response));
  else reportServiceOk();
  const payload = (await response.json().catch(() => ({}))) as Partial<Envelope<T>> & { code?: string; fields?: Record<string, string> };
  if (response.status === 401 && options.redirectOn401 !== false && typeof window !== 'undefined') {
    clearStoredUser();
    const here = window.location.pathname;
    // The back office's pages go to the staff login, and back to the page after signing in.
    if (here !== paths.signin && here !== paths.adminLogin) window.location.assign(signInPathFor(`${here}${window.location.search}`));
  }
  // A staff session without a second factor may only enrol one (ADR 011): the back office's enrolment page.
  if (response.status === 403 && payload.code === 'second_factor_required' && typeof window !== 'undefined') {
    if (window.location.pathname.startsWith('/admin') && window.location.pathname !== paths.adminSecurity) window.location.assign(paths.adminSecurity);
  }
  if (!response.ok) throw new ApiError(payload.message || FALLBACK_ERROR, response.status, payload.code, payload.fields, payload as Record<string, unknown>);
  return payload as Envelope<T>;
}

export const api = {
  get: <T>(url: string, options?: RequestOptions) => request<T>('GET', url, undefined, options),
  post: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('POST', url, body ?? {}, options),
  put: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', url, body ?? {}, options),
  patch: <T>(url: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', url, body ?? {}, options),
  /** DELETE carries a JSON body only when it needs one (a staff reversal's reason). */
  delete: <T>(url: string, options?: RequestOptions & { body?: unknown }) => request<T>('DELETE', url, options?.body, options),
};

/** A fresh key per submit; reuse the same key when retrying that submit. */
export function newIdempotencyKey(): string {
  return crypto.randomUUID();
}

export function errorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : FALLBACK_ERROR;
}

// `su_user` keeps display data only (never the session token: that is an HttpOnly cookie).
const USER_KEY = 'su_user';

export interface StoredUser {
  _id: string;
  firstName: string;
  lastName: string;
  email: string;
  isAdmin: boolean;
  profilePicture: { url: string } | null;
}

export function storeUser(user: StoredUser): void {
  const { _id, firstName, lastName, email, isAdmin, profilePicture } = user;
  try {
    localStorage.setItem(USER_KEY, JSON.stringify({ _id, firstName, lastName, email, isAdmin, profilePicture }));
  } catch {
    // Private mode: display data is optional.
  }
}

export function clearStoredUser(): void {
  try {
    localStorage.removeItem(USER_KEY);
    localStorage.removeItem('token');
  } catch {
    // ignore
  }
}
