/**
 * Every query key of the web app, in one place: a mutation in one feature invalidates what
 * another shows (the job page is composed of the jobs and tickets features), and a key that
 * nests under another is refreshed with it.
 */
const crew = ['crew'] as const;
const poles = ['poles'] as const;

export const queryKeys = {
  jobs: ['jobs'] as const,
  /** The jobs list's pages (GET /jobs?limit=), one entry per view; a change to any job refreshes every view. */
  jobLists: ['jobs', 'list'] as const,
  jobList: <V extends object>(view: V) => ['jobs', 'list', view] as const,
  job: (id: number) => ['jobs', id] as const,
  /** Under the job's key, so whatever refreshes the job refreshes these too. */
  jobTickets: (id: number) => ['jobs', id, 'tickets'] as const,
  /** GET /jobs/{id}/header: the job without its tickets (the phone ticket view's "Before you climb"); kept offline. */
  jobHeader: (id: number) => ['jobs', id, 'header'] as const,
  /** GET /jobs/{id}/production: under the job's key, so a ticket completed there refreshes it too. */
  jobProduction: (id: number) => ['jobs', id, 'production'] as const,
  /** Under the job's key: invoicing a job refreshes its page (the Billed badges) with the list. */
  jobInvoices: (id: number) => ['jobs', id, 'invoices'] as const,
  /** GET /jobs/job_exists/{number}: whether a new job's number is taken (asked on leaving the field, never kept fresh). */
  jobNumberTaken: (jobNumber: string) => ['jobNumbers', jobNumber] as const,
  ticket: (id: number) => ['tickets', id] as const,
  /** GET /tickets/{id}/history: under the ticket's key, so a save that refreshes the ticket refreshes it. */
  ticketHistory: (id: number) => ['tickets', id, 'history'] as const,
  /** GET /jobs/{id}/history: under the job's key, refreshed with the job page. */
  jobHistory: (id: number) => ['jobs', id, 'history'] as const,
  /** GET /tickets/needsMerge/{jobId}?pole_id=: asked afresh each time a pole is chosen. */
  needsMerge: (jobId: number, poleId: number) => ['tickets', 'needsMerge', jobId, poleId] as const,
  /** GET /work: My Work's open tickets; everything under it is refreshed with it. */
  work: ['work'] as const,
  /** GET /work?foreman_id=: an office user's My Work narrowed to one foreman's jobs ('all': every one). */
  workOf: (foremanId: number | null) => ['work', foremanId ?? 'all'] as const,
  utilities: ['utilities'] as const,
  /** GET /dashboard (docs/product/billing.md §6), for the company ('all') or one foreman's jobs. */
  dashboard: (foremanId: number | null, sort: { column: string; direction: string }) => ['dashboard', foremanId ?? 'all', sort.column, sort.direction] as const,
  /** GET /company: the company's settings (its time zone, decision 046). */
  company: ['company'] as const,
  /** GET /webhooks, and under it each endpoint's log (GET /webhooks/{id}/deliveries). */
  webhooks: ['webhooks'] as const,
  webhookLog: (id: number) => ['webhooks', id, 'deliveries'] as const,
  /** GET /map/config: the base map's tiles and attribution (docs/product/map.md §4). */
  mapConfig: ['map', 'config'] as const,

  /** Every crew query (roster, foremen, working foremen, roles, one's own profile) starts with 'crew', so one invalidation refreshes them all. */
  crewLists: crew,
  crew: [...crew, 'all'] as const,
  foremen: [...crew, 'foremen'] as const,
  workingForemen: [...crew, 'working_foremen'] as const,
  configurableRoles: [...crew, 'configurableRoles'] as const,
  myData: [...crew, 'myData'] as const,
  mySessions: [...crew, 'sessions'] as const,
  apiTokens: ['api-tokens'] as const,
  apiTokenRoles: ['api-tokens', 'roles'] as const,

  /** Every pole query starts with 'poles': adding or saving a pole refreshes the searches. */
  poles,
  poleSearch: <S extends object>(search: S) => [...poles, 'byUtility', search] as const,
  accessTypes: [...poles, 'accessTypes'] as const,
  permitTypes: ['permits', 'types'] as const,
  specs: (partial: string) => ['specs', 'partial', partial] as const,
  units: (utilityId: number | null, search: string) => ['units', utilityId, search] as const,
  /** The Unit Library page's whole library of one utility, with prices (under 'units': a price saved refreshes the pickers too). */
  unitLibrary: (utilityId: number) => ['units', 'library', utilityId] as const,
};

/** How long a reference list (utilities, roles, working foremen, access and permit types, specs) stays fresh: they change rarely. */
export const REFERENCE_STALE_TIME = 5 * 60_000;
