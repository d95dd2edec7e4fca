/** Numbers of the usage pages: shared with the home page, so they live in lib/. */
export { formatMetric, formatShare } from '../../lib/usage-format';
