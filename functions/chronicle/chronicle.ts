// The Netlify Function (Functions API v2). Kept thin: the served profile's dataset was chosen
// and baked in at build time (`npm run build` writes .build/served.js), because build-time
// environment variables do not reach functions at run time.
import served from '#served';
import { createHandler, internalError, type Handler } from './handler.js';

// Prepared on the first request rather than at import, so that a dataset the handler cannot
// prepare is answered in the API's error shape instead of the platform's stack-trace page.
let handler: Handler | undefined;

export default async (req: Request): Promise<Response> => {
  try {
    handler ??= createHandler(served);
  } catch (err) {
    console.error('GET /api/chronicle: the dataset could not be prepared:', err);
    return internalError(Response);
  }
  return handler(req);
};

// `/api/*` as well, so that a mistyped API path gets a JSON 404 rather than Netlify's HTML page.
// The feeds (functions/chronicle/feed.ts) are under the API and have short aliases at the root.
export const config = {
  path: ['/api/chronicle', '/api/chronicle/feed.xml', '/api/chronicle/feed.json', '/feed.xml', '/feed.json', '/api/*'],
};
