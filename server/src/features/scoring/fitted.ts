/**
 * The match model the lookups use: m and u fitted on a generated graph's labelled queries through the endpoints'
 * own blocking, shrunk toward DEFAULT_MODEL (fit.ts), and measured on a graph of another seed. The file records
 * both; `npm run -w bench fit-model` rewrites it.
 */
import fitted from './fitted-model.json' with { type: 'json' };
import type { MatchModel } from './model';

export const FITTED_MODEL: MatchModel = { m: fitted.m, u: fitted.u, prior: fitted.prior };
export const FITTED_ON = { ...fitted.fittedOn, evaluation: fitted.evaluation };
