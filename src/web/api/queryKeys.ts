/**
 * Query keys shared by features that read the same server data (the job page is composed of the
 * jobs and tickets features): one place, so a mutation in one invalidates what the other shows.
 */
export const queryKeys = {
  jobs: ['jobs'] as const,
  job: (id: number) => ['jobs', id] as const,
  /** Under the job's key, so whatever refreshes the job refreshes these too. */
  jobTickets: (id: number) => ['jobs', id, 'tickets'] as const,
  ticket: (id: number) => ['tickets', id] as const,
  /** GET /work: My Work's open tickets. */
  work: ['work'] as const,
  utilities: ['utilities'] as const,
  foremen: ['crew', 'foremen'] as const,
  workingForemen: ['crew', 'working_foremen'] as const,
  crew: ['crew', 'all'] as const,
};
