// Netlify applies netlify.toml header rules to static files only, never to function responses,
// so every header the API promises is set here. netlify.toml repeats the static-file subset and
// a test keeps the two equal.

/** On every answer, errors and preflights included. */
export const COMMON_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Expose-Headers': 'ETag',
  'X-Content-Type-Options': 'nosniff',
} as const;

export const JSON_TYPE = { 'Content-Type': 'application/json; charset=utf-8' } as const;

export const ALLOWED_METHODS = 'GET, HEAD, OPTIONS';

/** An answer to a CORS preflight. */
export const PREFLIGHT_HEADERS = {
  'Access-Control-Allow-Methods': ALLOWED_METHODS,
  'Access-Control-Allow-Headers': '*',
  'Access-Control-Max-Age': '3600',
} as const;

/**
 * Successful answers may be cached for one hour, never longer and never served stale: by browsers
 * and, for function answers, by Netlify's CDN. There is deliberately no `Netlify-Vary: query=…`:
 * the CDN then keys on the whole query string, so a request with a mistyped or unknown parameter
 * (a 400 from the function) can never be answered with a cached 200 of a request without it.
 */
export const CACHE_HEADERS = {
  'Cache-Control': 'public, max-age=3600',
  'Netlify-CDN-Cache-Control': 'public, max-age=3600, must-revalidate',
} as const;

/** Errors are not cached anywhere: a cached 400 would outlive the typo that caused it. */
export const ERROR_CACHE_HEADERS = { 'Cache-Control': 'no-store' } as const;

/** The header rules netlify.toml must give static files (the subset that applies to them). */
export const STATIC_HEADERS = {
  'Access-Control-Allow-Origin': COMMON_HEADERS['Access-Control-Allow-Origin'],
  'X-Content-Type-Options': COMMON_HEADERS['X-Content-Type-Options'],
  'Cache-Control': CACHE_HEADERS['Cache-Control'],
} as const;
