/** How a console run can end other than with rows, for the service to record and answer. */
import { BadRequest } from '../../http/errors';
import { BOUNDARY_MESSAGES } from './boundary';

/** A refusal before the statement ran (audited as refused, not as an error). */
export class QueryRefused extends BadRequest {}

/** The server's deadline stopped the run (audited as a timeout, saying how). */
export class RunStopped extends BadRequest {
  constructor(
    timeoutMs: number,
    readonly how: 'cancelled' | 'terminated',
  ) {
    super(BOUNDARY_MESSAGES.stopped(timeoutMs / 1000, how));
  }
}
