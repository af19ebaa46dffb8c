import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ServiceNoticeMessage, SERVICE_NOTICE_TEXT } from '../../src/web/components/layout/service-notice';
import { api, ApiError } from '../../src/web/lib/api';
import { reportServiceOk, serviceTrouble, subscribeToServiceTrouble } from '../../src/web/lib/service-status';

// The web app's "we are having trouble" notice: the API client reports a 503 (the bank's database
// is away) or no answer at all, the notice shows on every page, and it goes away by itself once
// the bank answers again, instead of a page failing silently.

const answer = (status: number, body: unknown = {}, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const unavailable = () => answer(503, { message: 'The bank is having trouble reaching its database.', code: 'unavailable' }, { 'retry-after': '2' });

let fetchMock: ReturnType<typeof vi.fn>;
beforeEach(() => {
  fetchMock = vi.fn();
  vi.stubGlobal('fetch', fetchMock);
  reportServiceOk();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  reportServiceOk();
});

describe('the API client reports trouble', () => {
  it('a 503 sets it, still fails the call with the server message, and any other answer clears it', async () => {
    const changes: Array<string | null> = [];
    const unsubscribe = subscribeToServiceTrouble(() => changes.push(serviceTrouble()));
    fetchMock.mockResolvedValueOnce(unavailable());
    const error = await api.get('/auth/user').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(503);
    expect((error as ApiError).message).toBe('The bank is having trouble reaching its database.');
    expect(serviceTrouble()).toBe('unavailable');

    // A wrong request is not trouble of the bank's: the notice goes, the caller shows its error.
    fetchMock.mockResolvedValueOnce(answer(400, { message: 'Invalid request', code: 'validation' }));
    await expect(api.post('/transaction/internal-transfer', {})).rejects.toBeInstanceOf(ApiError);
    expect(serviceTrouble()).toBeNull();
    unsubscribe();
    expect(changes).toEqual(['unavailable', null]);
  });

  it('no answer at all is trouble too; a call the page cancelled is not', async () => {
    fetchMock.mockRejectedValueOnce(new TypeError('fetch failed'));
    await expect(api.get('/auth/user')).rejects.toMatchObject({ status: 0, code: 'network' });
    expect(serviceTrouble()).toBe('network');

    reportServiceOk();
    const controller = new AbortController();
    controller.abort();
    fetchMock.mockRejectedValueOnce(new DOMException('aborted', 'AbortError'));
    await expect(api.get('/auth/user', { signal: controller.signal })).rejects.toBeInstanceOf(ApiError);
    expect(serviceTrouble()).toBeNull();
  });

  it('keeps asking whether the bank is ready, and clears the notice once it is', async () => {
    vi.useFakeTimers();
    vi.stubGlobal('window', {});
    fetchMock.mockResolvedValueOnce(unavailable());
    await expect(api.get('/auth/user')).rejects.toBeInstanceOf(ApiError);
    expect(serviceTrouble()).toBe('unavailable');

    // After the Retry-After (2 s): still not ready, so it asks again later.
    fetchMock.mockResolvedValueOnce(answer(503, { data: { status: 'unavailable' } }, { 'retry-after': '2' }));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fetchMock).toHaveBeenLastCalledWith('/api/health/ready', expect.anything());
    expect(serviceTrouble()).toBe('unavailable');

    fetchMock.mockResolvedValueOnce(answer(200, { data: { status: 'ok' } }));
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fetchMock).toHaveBeenCalledTimes(3);
    expect(serviceTrouble()).toBeNull();
  });
});

describe('the notice', () => {
  it('is an alert with a plain message, and nothing when all is well', () => {
    const html = renderToStaticMarkup(createElement(ServiceNoticeMessage, { trouble: 'unavailable' }));
    expect(html).toContain('role="alert"');
    expect(html).toContain(SERVICE_NOTICE_TEXT.unavailable);
    expect(SERVICE_NOTICE_TEXT.unavailable).toMatch(/having trouble/);
    expect(renderToStaticMarkup(createElement(ServiceNoticeMessage, { trouble: 'network' }))).toContain(SERVICE_NOTICE_TEXT.network);
    expect(renderToStaticMarkup(createElement(ServiceNoticeMessage, { trouble: null }))).toBe('');
  });
});
