/** The shapes of the opt-outs calls (CONTRACT "Two-way messaging"). */
export type OptoutSource = 'keyword' | 'api';

/** A remote number that opted out of a client's messages: sends to it are refused. */
export interface Optout {
  number: string;
  /** `keyword`: it replied STOP (ends only by its START); `api`: added by the client. */
  source: OptoutSource;
  dateCreated: string;
}

export interface OptoutList {
  total: number;
  count: number;
  offset: number;
  optouts: Optout[];
}
