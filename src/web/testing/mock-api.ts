import { http, HttpResponse } from 'msw';
import { server } from './msw-server';

export interface RecordedRequest {
  method: string;
  path: string;
  search: string;
  headers: Headers;
  body: unknown;
}

type Answer = { status?: number; body?: unknown };
export type Route =
  Answer | ((request: RecordedRequest) => Answer | Promise<Answer>);

/**
 * Answers a component test's API calls through MSW from a table keyed `METHOD /api/path`, and
 * records every request so tests can check what was sent. A call outside the table fails as a
 * network error would. A test adds an error branch on top with `server.use(http.post(…))`.
 */
export function mockApi(routes: Record<string, Route>) {
  const requests: RecordedRequest[] = [];
  server.use(
    http.all('*', async ({ request }) => {
      const url = new URL(request.url);
      const recorded: RecordedRequest = {
        method: request.method,
        path: url.pathname,
        search: url.search,
        headers: request.headers,
        body: undefined,
      };
      // Recorded before the body is read, so `requests` keeps the order the calls were made.
      requests.push(recorded);
      const text = await request.text();
      // A CSV upload is kept as its text; anything else the console sends is JSON.
      const isJson = !request.headers.get('Content-Type')?.startsWith('text/');
      recorded.body = text ? (isJson ? JSON.parse(text) : text) : undefined;
      const route = routes[`${recorded.method} ${recorded.path}`];
      if (!route) return HttpResponse.error();
      const answer =
        typeof route === 'function' ? await route(recorded) : route;
      const status = answer.status ?? 200;
      if (answer.body === undefined) return new HttpResponse(null, { status });
      // A string body is a file download (the CSV exports); anything else is JSON.
      return typeof answer.body === 'string'
        ? new HttpResponse(answer.body, {
            status,
            headers: { 'Content-Type': 'text/csv' },
          })
        : HttpResponse.json(answer.body, { status });
    }),
  );
  return { requests };
}

/** A route that answers only once `release()` is called, to test what shows meanwhile. */
export function heldRoute(answer: Answer) {
  let release = () => {};
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const route = async (): Promise<Answer> => {
    await released;
    return answer;
  };
  return { route, release: () => release() };
}
