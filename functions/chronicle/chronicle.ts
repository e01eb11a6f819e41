// The Netlify Function (Functions API v2). Kept thin: the served profile's dataset was chosen
// and baked in at build time (`npm run build` writes .build/served.js), because build-time
// environment variables do not reach functions at run time.
import served from '#served';
import { createHandler } from './handler.js';

const handler = createHandler(served);

export default async (req: Request): Promise<Response> => handler(req);

// `/api/*` as well, so that a mistyped API path gets a JSON 404 rather than Netlify's HTML page.
export const config = { path: ['/api/chronicle', '/api/*'] };
