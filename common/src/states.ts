/**
 * Spec §3 state selector: the US states, DC and the territories, each with its two-letter abbreviation, whether
 * it is a territory, and whether it is in the contiguous United States (the lower 48 and DC).
 */
export interface UsState {
  name: string;
  abbreviation: string;
  territory: boolean;
  contiguous: boolean;
}

const state = (abbreviation: string, name: string, contiguous = true): UsState => ({
  name,
  abbreviation,
  territory: false,
  contiguous,
});
const territory = (abbreviation: string, name: string): UsState => ({
  name,
  abbreviation,
  territory: true,
  contiguous: false,
});

export const US_STATES: readonly UsState[] = Object.freeze([
  state('AL', 'Alabama'),
  state('AK', 'Alaska', false),
  territory('AS', 'American Samoa'),
  state('AZ', 'Arizona'),
  state('AR', 'Arkansas'),
  state('CA', 'California'),
  state('CO', 'Colorado'),
  state('CT', 'Connecticut'),
  state('DE', 'Delaware'),
  state('DC', 'District of Columbia'),
  state('FL', 'Florida'),
  state('GA', 'Georgia'),
  territory('GU', 'Guam'),
  state('HI', 'Hawaii', false),
  state('ID', 'Idaho'),
  state('IL', 'Illinois'),
  state('IN', 'Indiana'),
  state('IA', 'Iowa'),
  state('KS', 'Kansas'),
  state('KY', 'Kentucky'),
  state('LA', 'Louisiana'),
  state('ME', 'Maine'),
  state('MD', 'Maryland'),
  state('MA', 'Massachusetts'),
  state('MI', 'Michigan'),
  state('MN', 'Minnesota'),
  state('MS', 'Mississippi'),
  state('MO', 'Missouri'),
  state('MT', 'Montana'),
  state('NE', 'Nebraska'),
  state('NV', 'Nevada'),
  state('NH', 'New Hampshire'),
  state('NJ', 'New Jersey'),
  state('NM', 'New Mexico'),
  state('NY', 'New York'),
  state('NC', 'North Carolina'),
  state('ND', 'North Dakota'),
  territory('MP', 'Northern Mariana Islands'),
  state('OH', 'Ohio'),
  state('OK', 'Oklahoma'),
  state('OR', 'Oregon'),
  state('PA', 'Pennsylvania'),
  territory('PR', 'Puerto Rico'),
  state('RI', 'Rhode Island'),
  state('SC', 'South Carolina'),
  state('SD', 'South Dakota'),
  state('TN', 'Tennessee'),
  state('TX', 'Texas'),
  territory('UM', 'U.S. Minor Outlying Islands'),
  territory('VI', 'U.S. Virgin Islands'),
  state('UT', 'Utah'),
  state('VT', 'Vermont'),
  state('VA', 'Virginia'),
  state('WA', 'Washington'),
  state('WV', 'West Virginia'),
  state('WI', 'Wisconsin'),
  state('WY', 'Wyoming'),
]);

const BY_ABBREVIATION = new Map(US_STATES.map((s) => [s.abbreviation, s]));
const BY_NAME = new Map(US_STATES.map((s) => [s.name.toLowerCase(), s]));

/** The state for an abbreviation or full name, any case; undefined when there is none. */
export function findState(value: string): UsState | undefined {
  const v = value.trim();
  return BY_ABBREVIATION.get(v.toUpperCase()) ?? BY_NAME.get(v.toLowerCase());
}
