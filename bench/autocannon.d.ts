// The part of autocannon's API the benchmarks use (the package ships no types).
declare module 'autocannon' {
  interface Request {
    method?: string;
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    onResponse?: (status: number, body: string) => void;
  }
  interface Options {
    url: string;
    connections?: number;
    duration?: number;
    method?: string;
    headers?: Record<string, string>;
    body?: string;
    requests?: Request[];
  }
  interface Result {
    requests: { average: number; total: number };
    non2xx: number;
    errors: number;
    timeouts: number;
    statusCodeStats: Record<string, { count: number }>;
  }
  export default function autocannon(options: Options): Promise<Result>;
}
