import { http, HttpResponse } from 'msw';
import { server } from './msw-server';
import type { RecordedRequest, Route } from './stub-fetch';

/**
 * Serves a table keyed `METHOD /api/path` (the shape of stubFetch and shellRoutes) through
 * MSW, so a test sees the real fetch and the real response objects, and records each request.
 */
export function serveTable(routes: Record<string, Route>) {
  const requests: RecordedRequest[] = [];
  server.use(
    ...Object.entries(routes).map(([key, route]) => {
      const [method = 'GET', path = '/'] = key.split(' ');
      const handler = http[method.toLowerCase() as 'get' | 'post' | 'put'];
      return handler(path, async ({ request }) => {
        const url = new URL(request.url);
        const text = await request.text();
        const recorded: RecordedRequest = {
          method: request.method,
          path: url.pathname,
          search: url.search,
          headers: request.headers,
          body: text ? JSON.parse(text) : undefined,
        };
        requests.push(recorded);
        const answer =
          typeof route === 'function' ? await route(recorded) : route;
        const status = answer.status ?? 200;
        if (answer.body === undefined)
          return new HttpResponse(null, { status });
        return typeof answer.body === 'string'
          ? new HttpResponse(answer.body, {
              status,
              headers: { 'Content-Type': 'text/csv' },
            })
          : HttpResponse.json(answer.body as object, { status });
      });
    }),
  );
  return { requests };
}
