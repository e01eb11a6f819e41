// What the build writes into the page for the script, shared by pipeline/page.ts and the explorer.
import type { BuiltDataset } from '../functions/chronicle/dataset.js';

/**
 * What the explorer needs before its data arrives: the profile, its kinds and the allowed filter
 * values (the query rules). The records themselves come from GET /api/chronicle.
 */
export interface ExplorerConfig {
  profile: BuiltDataset['profile'];
  profileName: string;
  kinds: BuiltDataset['kinds'];
  filters: BuiltDataset['filters'];
  /** The other profile's codes, so that the page's 400 messages give the function's hints. */
  otherCodes: BuiltDataset['otherCodes'];
}

/** The id of the `<script type="application/json">` element that carries the config. */
export const CONFIG_ELEMENT_ID = 'chronicle-config';

/** Where the explorer reads the dataset: the API itself, unfiltered. */
export const API_PATH = '/api/chronicle';

/** The build's layout of the whole relation network (public/network-layout.json). */
export const LAYOUT_PATH = '/network-layout.json';
