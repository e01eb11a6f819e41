import { z } from 'zod';

// Curators read zod's messages (vocabulary and site files) in Japanese, like every other message.
z.config(z.locales.ja());

export { z };
