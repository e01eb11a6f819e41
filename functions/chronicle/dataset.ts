// The build output the function loads: one profile's complete, unfiltered dataset in final
// response shape, plus what the function needs to validate queries. Written by `pipeline/`.

export type Profile = 'A' | 'B';
export type Kind = 'events' | 'relations' | 'players' | 'initiatives';

export interface SourceRef {
  name: string;
  url: string;
}

export interface Event {
  id: string;
  date: string;
  topic: string;
  sub: string;
  players: string[];
  title: string;
  description: string;
  chain: string;
  status: string;
  region: string;
  source: string;
  key: boolean;
  /** Profile A only. */
  sources?: SourceRef[];
  /** Profile A only. */
  initiativeId?: string | null;
}

export interface Relation {
  a: string;
  b: string;
  type: string;
  label: string;
  year: string;
  topic: string;
  source: string;
}

export interface Player {
  id: string;
  nameJa: string;
  category: string;
  /** Profile A only. */
  sector?: string | null;
  region: string;
  members: string[];
  /** Profile A only. */
  description?: string;
}

export interface Initiative {
  id: string;
  nameJa: string;
  aliases: string[];
  description: string;
  eventIds: string[];
}

export interface Meta {
  asOf: string;
  source: string;
  attribution: string;
}

export type CodeParam = 'topic' | 'region' | 'status';

export interface OtherCode {
  /** Its Japanese label. */
  ja: string;
  /** The code this profile counts it as, if any. */
  mapTo?: string;
  /** The profiles that serve it. */
  profiles: Profile[];
}

export type Labels = Record<string, Record<string, string>>;

export interface BuiltDataset {
  profile: Profile;
  /** Content hash of this build; part of every ETag. */
  version: string;
  /** The kinds this profile serves, in response order. */
  kinds: Kind[];
  /** Allowed values of the code-valued query parameters in this profile. */
  filters: { topic: string[]; region: string[]; status: string[] };
  /**
   * Codes of the vocabulary this profile does not serve as filter values, per parameter, for the
   * hints of a 400: `defi` in A (counted as `crypto` there), `cbdc` in B (A only).
   */
  otherCodes: Record<CodeParam, Record<string, OtherCode>>;
  meta: Meta;
  labels: Labels;
  events: Event[];
  relations: Relation[];
  players: Player[];
  /** Profile A only. */
  initiatives?: Initiative[];
}
