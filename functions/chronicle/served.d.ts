// Types for the build output behind the `#served` import (package.json "imports").
import type { BuiltDataset } from './dataset.js';

declare const served: BuiltDataset;
export default served;
