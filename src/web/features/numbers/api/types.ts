/**
 * The shapes of the numbers calls (CONTRACT "Two-way messaging"). A number is 3 to 15 digits,
 * no '+': short codes have 3 to 8.
 */
export interface InboundNumber {
  number: string;
  clientId: string;
  /** Answered to HELP/INFO from this number; null: the provider's HELP_REPLY. */
  helpText: string | null;
  dateCreated: string;
}

export interface NumberList {
  total: number;
  count: number;
  offset: number;
  numbers: InboundNumber[];
}

/** The rule the server holds (migration 032): 3 to 15 digits. */
export const NUMBER_PATTERN = /^\d{3,15}$/;
