// Types for the build output behind the `#served` import (package.json "imports"): the served
// profile's image header, and the image bytes (`.build/served.bin`) read on first use.
import type { Served } from './image.js';

declare const served: Served;
export default served;
