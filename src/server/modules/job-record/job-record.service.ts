/**
 * The job record, the module at the bottom of the jobs area: the one way other modules find a job
 * of the caller's company (hidden while its import is pending), lock it, and tell whether it
 * changed. The jobs module above it owns the /jobs routes, which read tickets, production,
 * invoices and the import; the modules below the jobs module need only this
 * (docs/decisions/041-modules-and-layers-depend-one-way.md).
 */
export { findJob, jobFingerprint, lockJob, type JobRecord } from './job-record.repository';
