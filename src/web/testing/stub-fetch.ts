import { vi } from 'vitest';

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
 * Answers the happy paths of a component test from a table keyed `METHOD /api/path`, and
 * records every request. Error branches use MSW instead. An unknown route fails the test.
 */
export function stubFetch(routes: Record<string, Route>) {
  const requests: RecordedRequest[] = [];
  const spy = vi
    .spyOn(globalThis, 'fetch')
    .mockImplementation(async (input, init) => {
      const url = new URL(
        input instanceof Request ? input.url : String(input),
        window.location.href,
      );
      const text = typeof init?.body === 'string' ? init.body : undefined;
      const request: RecordedRequest = {
        method: init?.method ?? 'GET',
        path: url.pathname,
        search: url.search,
        headers: new Headers(init?.headers),
        body: text ? JSON.parse(text) : undefined,
      };
      requests.push(request);
      const route = routes[`${request.method} ${request.path}`];
      if (!route) {
        throw new Error(
          `stubFetch: no route for ${request.method} ${request.path}`,
        );
      }
      const answer = typeof route === 'function' ? await route(request) : route;
      const status = answer.status ?? 200;
      return answer.body === undefined
        ? new Response(null, { status })
        : Response.json(answer.body, { status });
    });
  return { spy, requests };
}
