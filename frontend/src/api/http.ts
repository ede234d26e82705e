import type { Problem } from './types';

/** An answer other than 2xx, with its problem details (or a stand-in when the body is not one). */
export class ApiError extends Error {
  readonly problem: Problem;
  /** The answer's Retry-After, in milliseconds, when it had one. */
  readonly retryAfterMs: number | null;

  constructor(problem: Problem, retryAfterMs: number | null = null) {
    super(problem.title ?? `HTTP ${problem.status}`);
    this.problem = problem;
    this.retryAfterMs = retryAfterMs;
  }

  get code(): string | undefined {
    return this.problem.code;
  }
}

export async function readProblem(response: Response): Promise<Problem> {
  try {
    const body = (await response.json()) as Problem;
    return { ...body, status: response.status };
  } catch {
    return { status: response.status, title: response.statusText };
  }
}

export async function readJson<T>(response: Response): Promise<T> {
  if (!response.ok) throw new ApiError(await readProblem(response));
  return (await response.json()) as T;
}

/** Query string from the defined, non-empty values. */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}
